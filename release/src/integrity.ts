/**
 * What the shop knows of a released version's files: its signed manifest, verified against the
 * keys in the database, and whether the files on the origin (or in the bucket) are still the bytes
 * it lists. Pages get their scripts' integrity from here, rollbacks and promotions refuse a version
 * whose files differ, and the integrity watch re-hashes what is in force.
 */
import { partPrefix } from './release-paths.ts';
import { ReleaseRefused } from './refusal.ts';
import type { PartName } from './registry.ts';
import {
  compareDigests,
  COMPRESSED_COPIES,
  MANIFEST_FILE,
  SIGNATURE_FILE,
  sha384,
  verifySignedManifest,
  type FileDigest,
  type FileMismatch,
  type ReleaseManifest,
  type TrustedKey,
} from './signing.ts';
import type { ReleaseStorage } from './storage.ts';

/** How long a verified manifest is reused before its signature is checked again (a key may be revoked meanwhile). */
const VERIFIED_TTL_MS = 60_000;
/** How long a version found unsigned or badly signed is not read again (ms). */
const REFUSED_TTL_MS = 5_000;
/** Manifests remembered per process. */
const LIMIT = 500;

export type ReleaseIntegrity = {
  /** The version's verified manifest; refused ('bad_signature') when it is missing, altered or signed by a key the shop does not accept. */
  manifest(part: PartName, version: string): Promise<ReleaseManifest>;
  /** Files of the version on the origin now whose bytes differ from its signed manifest (its precompressed copies too). */
  check(part: PartName, version: string): Promise<FileMismatch[]>;
  /** Refuses ('tampered') a version whose files differ from its signed manifest. */
  requireIntact(part: PartName, version: string): Promise<void>;
};

export function releaseIntegrity(options: { storage: ReleaseStorage; keys: () => Promise<TrustedKey[]> }): ReleaseIntegrity {
  const { storage } = options;
  const known = new Map<string, { at: number; manifest: Promise<ReleaseManifest> }>();

  async function readVerified(part: PartName, version: string): Promise<ReleaseManifest> {
    const prefix = partPrefix(part, version);
    const [text, signature] = await Promise.all([
      storage.readText(`${prefix}/${MANIFEST_FILE}`),
      storage.readText(`${prefix}/${SIGNATURE_FILE}`),
    ]);
    if (text === null || signature === null) {
      throw new ReleaseRefused('bad_signature', `${part} ${version} has no signed release manifest on the origin. Nothing was changed.`);
    }
    return verifySignedManifest({ text, signature }, await options.keys(), { part, version });
  }

  const integrity: ReleaseIntegrity = {
    manifest(part, version) {
      const id = `${part}/${version}`;
      const entry = known.get(id);
      const now = Date.now();
      if (entry && now - entry.at < VERIFIED_TTL_MS) return entry.manifest;
      const manifest = readVerified(part, version);
      known.delete(id);
      known.set(id, { at: now, manifest });
      manifest.catch(() => {
        // A refusal is remembered briefly, so a page view does not read the origin each time.
        const current = known.get(id);
        if (current?.manifest === manifest) current.at = now - VERIFIED_TTL_MS + REFUSED_TTL_MS;
      });
      while (known.size > LIMIT) known.delete(known.keys().next().value as string);
      return manifest;
    },

    async check(part, version) {
      const manifest = await readVerified(part, version);
      const prefix = partPrefix(part, version);
      const actual: Record<string, FileDigest> = {};
      const mismatches: FileMismatch[] = [];
      for (const [file, expected] of Object.entries(manifest.files)) {
        const body = await storage.readBytes(`${prefix}/${file}`);
        if (body) actual[file] = { sha384: sha384(body), size: body.length };
        // A browser may be sent the brotli or gzip copy instead: each must unpack to the same bytes.
        for (const [suffix, decode] of COMPRESSED_COPIES) {
          const packed = await storage.readBytes(`${prefix}/${file}${suffix}`);
          if (!packed) continue;
          let unpacked: Buffer | null = null;
          try {
            unpacked = decode(packed);
          } catch {
            unpacked = null;
          }
          if (!unpacked || sha384(unpacked) !== expected.sha384) {
            mismatches.push({
              file: `${file}${suffix}`,
              expected: `sha384-${expected.sha384}`,
              actual: unpacked ? `sha384-${sha384(unpacked)}` : 'nečitateľný',
            });
          }
        }
      }
      // Extra files are not looked for: nothing signed refers to them, so no page loads them.
      const listed = compareDigests(manifest, actual).filter((mismatch) => mismatch.expected !== null);
      return [...listed, ...mismatches];
    },

    async requireIntact(part, version) {
      const mismatches = await integrity.check(part, version);
      if (mismatches.length > 0) {
        const files = mismatches
          .slice(0, 5)
          .map((mismatch) => mismatch.file)
          .join(', ');
        throw new ReleaseRefused(
          'tampered',
          `${part} ${version}: ${mismatches.length} file(s) differ from the signed release manifest (${files}). Nothing was changed.`,
        );
      }
    },
  };
  return integrity;
}
