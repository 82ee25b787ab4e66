/**
 * What the shop knows of a released version's files: its signed manifest, verified against the
 * keys in the database, and whether the files on the origin (or in the bucket) are still the bytes
 * it lists. Pages get their scripts' integrity from here, rollbacks and promotions refuse a version
 * whose files differ, and the integrity watch re-hashes what is in force.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { partPrefix } from './release-paths.ts';
import { ReleaseRefused } from './refusal.ts';
import type { PartName } from './registry.ts';
import {
  COMPRESSED_COPIES,
  integrityOf,
  MANIFEST_FILE,
  SIGNATURE_FILE,
  sha384,
  verifySignedManifest,
  type FileMismatch,
  type ReleaseManifest,
  type TrustedKey,
} from './signing.ts';
import { readLocalFile, type ReleaseStorage } from './storage.ts';

/** How long a verified manifest is reused before its signature is checked again (a key may be revoked meanwhile). */
const VERIFIED_TTL_MS = 60_000;
/** How long a version found unsigned or badly signed is not read again (ms). */
const REFUSED_TTL_MS = 5_000;
/** Manifests remembered per process. */
const LIMIT = 500;

export type ReleaseIntegrity = {
  /** The version's verified manifest; refused ('bad_signature') when it is missing, altered or signed by a key the shop does not accept. */
  manifest(part: PartName, version: string): Promise<ReleaseManifest>;
  /**
   * Files of the version on the origin now whose bytes differ from its signed manifest (its
   * precompressed copies too), every byte read again; on an object store also this server's copy of
   * the version on its disk, when it has one (`where: 'local-copy'`).
   */
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
      // Every byte, on every check: nothing about a file (its time, size, ETag) stands in for reading it.
      const found = await compareFiles(manifest, (file, maxBytes) => storage.readBytes(`${prefix}/${file}`, maxBytes));
      if (storage.local) return found;
      // An object store's version is sent from this server's copy on its disk: that copy must hold too.
      const copy = storage.localPath(prefix);
      if (!(await isDirectory(copy))) return found;
      const onDisk = await compareFiles(manifest, (file, maxBytes) => readLocalFile(join(copy, file), maxBytes));
      return [...found, ...onDisk.map((mismatch): FileMismatch => ({ ...mismatch, where: 'local-copy' }))];
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

const isDirectory = (path: string) =>
  stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );

/**
 * The most bytes a compressed copy of a file of `size` bytes can take: brotli and gzip add a few
 * bytes per block to what does not compress. A larger copy is refused unread.
 */
export const maxCopyBytes = (size: number): number => size + Math.ceil(size / 64) + 4096;

/**
 * The files of `manifest` (as `read` gives them, at most a bound's worth of bytes each) whose bytes
 * differ from it, are missing, or whose compressed copy does not unpack to the signed bytes
 * (unpacked at most to the signed size).
 */
export async function compareFiles(
  manifest: ReleaseManifest,
  read: (file: string, maxBytes: number) => Promise<Buffer | null>,
): Promise<FileMismatch[]> {
  const mismatches: FileMismatch[] = [];
  const copies: FileMismatch[] = [];
  // Extra files are not looked for: nothing signed refers to them, so no page loads them.
  for (const [file, expected] of Object.entries(manifest.files)) {
    const signed = integrityOf(expected);
    // Longer than signed: its first bytes beyond the size are enough to tell.
    const body = await read(file, expected.size);
    if (!body) mismatches.push({ file, expected: signed, actual: null });
    else if (body.length > expected.size) mismatches.push({ file, expected: signed, actual: LARGER_THAN_SIGNED });
    else if (body.length !== expected.size || sha384(body) !== expected.sha384)
      mismatches.push({ file, expected: signed, actual: integrityOf({ sha384: sha384(body), size: body.length }) });
    // A browser may be sent the brotli or gzip copy instead: each must unpack to the same bytes.
    for (const [suffix, unpack] of COMPRESSED_COPIES) {
      const bound = maxCopyBytes(expected.size);
      const packed = await read(`${file}${suffix}`, bound);
      if (!packed) continue;
      const unpacked = packed.length > bound ? null : await unpack(packed, expected.size).catch(() => null);
      if (!unpacked || sha384(unpacked) !== expected.sha384)
        copies.push({ file: `${file}${suffix}`, expected: signed, actual: unpacked ? `sha384-${sha384(unpacked)}` : UNREADABLE_COPY });
    }
  }
  return [...mismatches, ...copies];
}

/** What a file longer than its signed size is recorded as (it is not read to its end). */
export const LARGER_THAN_SIGNED = 'väčší než podpísaný súbor';
/** What a compressed copy that does not unpack (or would unpack past the signed size) is recorded as. */
export const UNREADABLE_COPY = 'nečitateľný alebo väčší než podpísaný súbor';
