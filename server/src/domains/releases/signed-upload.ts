/**
 * What the server checks of an uploaded build before anything moves: the manifest is signed by the
 * uploading team's key (or the shop's release key), names this part and the version these files
 * make, was signed lately, lists exactly these files with these bytes, and was never accepted
 * before (an upload seen once and sent again is a replay, refused).
 */
import {
  hashBuild,
  ReleaseRefused,
  SHOP_KEY_OWNER,
  type PartName,
  compareDigests,
  digestBuild,
  verifySignedManifest,
  type SignedManifest,
} from '@shop/release';
import type { ReleaseActor } from './identities.repository.ts';
import type { ReleaseKeys } from './release-keys.repository.ts';

/** How old a signature may be when it arrives (a CI job signs just before it uploads). */
export const SIGNATURE_MAX_AGE_MS = 24 * 60 * 60_000;
/** How far ahead of this server's clock a signature may claim to be. */
const CLOCK_SKEW_MS = 5 * 60_000;

const refuse = (message: string): never => {
  throw new ReleaseRefused('bad_signature', `${message} Nothing was changed.`);
};

export async function verifyUpload(options: {
  keys: ReleaseKeys;
  actor: ReleaseActor;
  part: PartName;
  /** The unpacked build. */
  dir: string;
  packageVersion: string;
  manifest: SignedManifest;
  now?: number;
}): Promise<void> {
  const { actor, part } = options;
  const trusted = await options.keys.trusted();
  // A team signs with its own key or the shop's; the operator with any key the shop accepts for the part.
  const allowed = actor.kind === 'team' ? trusted.filter((key) => key.owner === actor.name || key.owner === SHOP_KEY_OWNER) : trusted;
  const version = `${options.packageVersion}-${await hashBuild(options.dir)}`;
  const manifest = verifySignedManifest(options.manifest, allowed, { part, version });
  const signedAt = Date.parse(manifest.signedAt);
  const now = options.now ?? Date.now();
  if (!Number.isFinite(signedAt) || signedAt > now + CLOCK_SKEW_MS || now - signedAt > SIGNATURE_MAX_AGE_MS) {
    refuse(
      `The release manifest was signed at ${String(manifest.signedAt).slice(0, 40)}; an upload must be signed within the last 24 hours.`,
    );
  }
  const mismatches = compareDigests(manifest, await digestBuild(options.dir));
  if (mismatches.length > 0) {
    const files = mismatches
      .slice(0, 5)
      .map((mismatch) => mismatch.file)
      .join(', ');
    refuse(`${mismatches.length} file(s) of the upload differ from its signed manifest (${files}).`);
  }
  if (!(await options.keys.acceptSignature({ signature: options.manifest.signature, keyId: manifest.keyId, part, version }))) {
    refuse('This signed manifest was uploaded before: a replayed upload is refused. Sign the build again to release it.');
  }
}
