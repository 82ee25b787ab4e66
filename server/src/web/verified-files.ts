/**
 * The shop sends a released file only while its bytes (and those of the brotli or gzip copy it
 * may send instead) are the ones the version's signed manifest lists. A file changed on the
 * origin after its release is refused here, for every browser (those without import-map integrity
 * too), and the failure is reported; the browser's own integrity check stays for what is served
 * from elsewhere (a CDN, a bucket).
 *
 * A verdict is remembered per file only under what whoever writes the origin cannot set back: the
 * file's device and inode, its change time (set by the kernel on every write, rename, `utimes` or
 * `cp -p`; no call sets it to a chosen value), its modification time and size. Any write at all
 * makes the file hashed again on its next request: a changed file is refused at once, one put back
 * with its old modification time is sent again at once. A verdict is not kept while the file's
 * last change is younger than a tick of the file system's clock could hide. The integrity watch,
 * which reads every byte on every check, overrides what is remembered (`watched`).
 */
import { statSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';
import {
  type ReleaseIntegrity,
  type PartName,
  type FileDigest,
  type ReleaseManifest,
  COMPRESSED_COPIES,
  MANIFEST_FILE,
  SIGNATURE_FILE,
  maxCopyBytes,
  readLocalFile,
  sha384,
} from '@shop/release';

/** Verdicts remembered (one per file path); the oldest go first. */
const LIMIT = 20_000;
/** A verdict is kept only for a file whose last change is at least this old (coarse file system clocks). */
const SETTLE_MS = 2_000;

type Unpack = ((bytes: Buffer, maxBytes: number) => Promise<Buffer>) | null;
/** The file itself, then the compressed copies that may be sent instead. */
const COPIES: readonly [suffix: string, unpack: Unpack][] = [['', null], ...COMPRESSED_COPIES];

export type ReleasedFileCheck = {
  /** True when `file` of the version (in `dir` on local disk) and its compressed copies are what was signed. */
  (part: PartName, version: string, dir: string, file: string): Promise<boolean>;
  /** Whether `file` is a released file of the version: listed in its valid signed manifest, or a compressed copy of one listed. */
  released(part: PartName, version: string, file: string): Promise<boolean>;
  /**
   * The integrity watch read every file of a version's folder on this disk (`dir`): what it found
   * differs is refused from now on, and every other verdict of the folder is dropped, so a
   * repaired file is sent again once hashed.
   */
  watched(dir: string, tampered: readonly string[]): void;
};

type Verdict = { key: string; intact: boolean };

/** The entry at `path`: null when there is none. */
const entryOf = (path: string): BigIntStats | null => {
  try {
    return statSync(path, { bigint: true, throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
};
/** The regular file at `path`: null when there is none (or something else stands there). */
const statOf = (path: string): BigIntStats | null => {
  const info = entryOf(path);
  return info?.isFile() ? info : null;
};
const keyOf = (info: BigIntStats) => `${info.dev}:${info.ino}:${info.ctimeNs}:${info.mtimeNs}:${info.size}`;
const settled = (info: BigIntStats, readAt: number) => info.ctimeNs < BigInt(readAt - SETTLE_MS) * 1_000_000n;

export function releasedFileCheck(
  integrity: ReleaseIntegrity,
  onMismatch: (part: PartName, version: string, file: string) => void,
): ReleasedFileCheck {
  const verdicts = new Map<string, Verdict>();
  const remember = (path: string, verdict: Verdict) => {
    verdicts.delete(path);
    verdicts.set(path, verdict);
    while (verdicts.size > LIMIT) verdicts.delete(verdicts.keys().next().value as string);
  };

  /** Whether the file at `path` is (or, packed, unpacks to) the signed bytes; null when there is no such file. */
  const judged = async (path: string, signed: FileDigest, unpack: Unpack): Promise<boolean | null> => {
    // Asked on every page (the shell's index.html and its copies): a local file's stat in the thread pool cost
    // more than the stat itself, so it is asked directly (the version's folder is on local disk, see infra/storage/released-folder.ts).
    const info = entryOf(path);
    if (!info) return null;
    // A directory, pipe or device where a file or its copy belongs is never sent (nor waited on).
    if (!info.isFile()) return false;
    const key = keyOf(info);
    const kept = verdicts.get(path);
    if (kept?.key === key) return kept.intact;
    const readAt = Date.now();
    let intact = false;
    // A plain file of another size differs unread; a copy is read and unpacked only up to what the signed size allows.
    if (unpack || info.size === BigInt(signed.size)) {
      const bound = unpack ? maxCopyBytes(signed.size) : signed.size;
      const bytes = await readLocalFile(path, bound);
      if (!bytes) return null;
      if (bytes.length <= bound) {
        const plain = unpack ? await unpack(bytes, signed.size).catch(() => null) : bytes;
        intact = plain !== null && plain.length === signed.size && sha384(plain) === signed.sha384;
      }
    }
    // Kept only when the file did not change while it was read and its last change is settled; a refusal always.
    const after = statOf(path);
    if (after && keyOf(after) === key && (!intact || settled(info, readAt))) remember(path, { key, intact });
    return intact;
  };

  const manifestOf = (part: PartName, version: string) => integrity.manifest(part, version).catch(() => null);
  /** The signed digest of `file` (own keys only: a name like `constructor` is no file of a manifest). */
  const listed = (manifest: ReleaseManifest | null, file: string | null): FileDigest | undefined =>
    manifest && file !== null && Object.hasOwn(manifest.files, file) ? manifest.files[file] : undefined;
  const copyOf = (file: string) => COPIES.find(([suffix]) => suffix !== '' && file.endsWith(suffix));

  const check = async (part: PartName, version: string, dir: string, file: string): Promise<boolean> => {
    if (file === MANIFEST_FILE || file === SIGNATURE_FILE) return true;
    const manifest = await manifestOf(part, version);
    // A compressed copy asked for by its own name: it must unpack to the signed file's bytes.
    const copy = copyOf(file);
    const signedFile = copy ? file.slice(0, -copy[0].length) : null;
    const ofCopy = listed(manifest, signedFile);
    if (copy && ofCopy) {
      const verdict = await judged(join(dir, file), ofCopy, copy[1]);
      if (verdict === false) onMismatch(part, version, file);
      return verdict !== false;
    }
    const digest = listed(manifest, file);
    if (!digest) {
      // Unsigned, or not a file of the release: never sent. A missing file is the caller's 404.
      if (manifest && entryOf(join(dir, file)) === null) return true;
      onMismatch(part, version, file);
      return false;
    }
    for (const [suffix, unpack] of COPIES) {
      const verdict = await judged(join(dir, `${file}${suffix}`), digest, unpack);
      if (verdict === false) {
        onMismatch(part, version, `${file}${suffix}`);
        return false;
      }
    }
    return true;
  };

  return Object.assign(check, {
    async released(part: PartName, version: string, file: string) {
      const manifest = await manifestOf(part, version);
      if (listed(manifest, file)) return true;
      const copy = copyOf(file);
      return copy !== undefined && listed(manifest, file.slice(0, -copy[0].length)) !== undefined;
    },
    watched(dir: string, tampered: readonly string[]) {
      const folder = join(dir, '/');
      for (const path of [...verdicts.keys()]) if (path.startsWith(folder)) verdicts.delete(path);
      for (const file of tampered) {
        const path = join(dir, file);
        const info = statOf(path);
        if (info) remember(path, { key: keyOf(info), intact: false });
      }
    },
  });
}
