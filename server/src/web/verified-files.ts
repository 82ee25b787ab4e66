/**
 * The shop sends a released file only while its bytes (and those of the brotli or gzip copy it
 * may send instead) are the ones the version's signed manifest lists. A file changed on the
 * origin after its release is refused here, for every browser (those without import-map integrity
 * too), and the failure is reported; the browser's own integrity check stays for what is served
 * from elsewhere (a CDN, a bucket). Each file is hashed once per change of its size or time.
 */
import { statSync, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type ReleaseIntegrity, type PartName, COMPRESSED_COPIES, MANIFEST_FILE, SIGNATURE_FILE, sha384 } from '@shop/release';

/** Verdicts remembered (path, time, size); the oldest go first. */
const LIMIT = 20_000;

/** The file itself, then the compressed copies that may be sent instead. */
const COPIES: readonly [suffix: string, decode: ((bytes: Buffer) => Buffer) | null][] = [['', null], ...COMPRESSED_COPIES];

export type ReleasedFileCheck = (part: PartName, version: string, dir: string, file: string) => Promise<boolean>;

/** True when `file` of the version (in `dir` on local disk) and its compressed copies are what was signed. */
export function releasedFileCheck(
  integrity: ReleaseIntegrity,
  onMismatch: (part: PartName, version: string, file: string) => void,
): ReleasedFileCheck {
  const verdicts = new Map<string, boolean>();
  const judged = async (path: string, expected: string, decode: ((bytes: Buffer) => Buffer) | null): Promise<boolean | null> => {
    // Asked on every page (the shell's index.html and its copies): a local file's stat in the thread pool cost
    // more than the stat itself, so it is asked directly (the version's folder is on local disk, see released-folder.ts).
    let info: Stats | undefined;
    try {
      info = statSync(path, { throwIfNoEntry: false });
    } catch {
      info = undefined;
    }
    if (!info?.isFile()) return null;
    const key = `${path}\u0000${info.mtimeMs}\u0000${info.size}`;
    let verdict = verdicts.get(key);
    if (verdict === undefined) {
      const bytes = await readFile(path);
      try {
        verdict = sha384(decode ? decode(bytes) : bytes) === expected;
      } catch {
        verdict = false;
      }
      verdicts.set(key, verdict);
      while (verdicts.size > LIMIT) verdicts.delete(verdicts.keys().next().value as string);
    }
    return verdict;
  };
  return async (part, version, dir, file) => {
    if (file === MANIFEST_FILE || file === SIGNATURE_FILE) return true;
    const manifest = await integrity.manifest(part, version).catch(() => null);
    // A compressed copy asked for by its own name: it must unpack to the signed file's bytes.
    const copy = COPIES.find(([suffix]) => suffix !== '' && file.endsWith(suffix));
    const signedFile = copy ? file.slice(0, -copy[0].length) : null;
    if (copy && signedFile && manifest?.files[signedFile]) {
      const verdict = await judged(join(dir, file), manifest.files[signedFile].sha384, copy[1]);
      if (verdict === false) onMismatch(part, version, file);
      return verdict !== false;
    }
    const digest = manifest?.files[file];
    if (!digest) {
      // Unsigned, or not a file of the release: never sent. A missing file is the caller's 404.
      if (manifest && (await stat(join(dir, file)).catch(() => null)) === null) return true;
      onMismatch(part, version, file);
      return false;
    }
    for (const [suffix, decode] of COPIES) {
      const verdict = await judged(join(dir, `${file}${suffix}`), digest.sha384, decode);
      if (verdict === false) {
        onMismatch(part, version, `${file}${suffix}`);
        return false;
      }
    }
    return true;
  };
}
