/**
 * A build carried over HTTP for a CI release without file access to the
 * origin: every file of the build directory, base64-encoded, in one JSON body.
 * Bounded on both sides: file count, file size, total size, path shape.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { listFiles } from './build-info.ts';
import { ReleaseRefused } from './refusal.ts';

export const UPLOAD_LIMITS = { files: 400, fileBytes: 5 * 1024 * 1024, totalBytes: 12 * 1024 * 1024 };
/** The HTTP body limit of an upload: the total in base64 plus room for the JSON around it. */
export const UPLOAD_BODY_LIMIT = Math.ceil((UPLOAD_LIMITS.totalBytes * 4) / 3) + 256 * 1024;
const SAFE_PATH = /^(?:[\w.-]+\/){0,6}[\w.-]+$/;

/** A file's path inside a build as releases accept it: at most 7 names of letters, digits, `_`, `.`, `-`; no `.` or `..`. */
export function isSafeBuildPath(path: string): boolean {
  return path.length <= 512 && SAFE_PATH.test(path) && !path.split('/').some((segment) => segment === '..' || segment === '.');
}

/** A compressed copy of a file (what browsers may be sent instead of it): only the release makes these. */
const OWN_COPY = /\.(?:br|gz)$/i;

/**
 * Refuses a build that brings its own `.br`/`.gz` files: the release tool compresses every file
 * itself, from the signed bytes, so a copy that unpacks to something else (or to far more, a
 * decompression bomb) never enters a release. Said in Slovak: the server answers an upload with it.
 */
export function refuseOwnCompressedCopies(paths: readonly string[]): void {
  const own = paths.filter((path) => OWN_COPY.test(path));
  if (own.length === 0) return;
  const named = own
    .slice(0, 3)
    .map((path) => path.slice(0, 80))
    .join(', ');
  throw new ReleaseRefused(
    'broken_build',
    `Zostava obsahuje vlastné komprimované kópie súborov (${named}${own.length > 3 ? ', …' : ''}). Kópie .br a .gz vytvára pri vydaní obchod sám z podpísaných súborov; vydajte zostavu bez nich. Nič sa nezmenilo.`,
  );
}

/** The same for a build directory (its own copies are not among `listFiles`'s: they would otherwise go out unsigned). */
export async function refuseOwnCompressedCopiesIn(dir: string): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  refuseOwnCompressedCopies(
    entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/')),
  );
}

export type UploadBundle = { files: Record<string, string> };

function tooBig(message: string): never {
  throw new ReleaseRefused('broken_build', `${message} Nothing was changed.`);
}

/** Reads a build directory into a bundle (sizes checked before sending). */
export async function packBuild(dir: string): Promise<UploadBundle> {
  const files: Record<string, string> = {};
  let total = 0;
  const paths = await listFiles(dir);
  if (paths.length > UPLOAD_LIMITS.files) tooBig(`The build has ${paths.length} files; an upload takes at most ${UPLOAD_LIMITS.files}.`);
  await refuseOwnCompressedCopiesIn(dir);
  for (const path of paths) {
    const body = await readFile(path);
    total += body.length;
    if (body.length > UPLOAD_LIMITS.fileBytes || total > UPLOAD_LIMITS.totalBytes) tooBig('The build is larger than an upload may be.');
    files[relative(dir, path).split(sep).join('/')] = body.toString('base64');
  }
  return { files };
}

/** Writes a received bundle into an empty directory, refusing unsafe paths and sizes. */
export async function unpackBuild(bundle: UploadBundle, dir: string): Promise<void> {
  const entries = Object.entries(bundle.files);
  if (entries.length === 0) tooBig('The upload has no files.');
  if (entries.length > UPLOAD_LIMITS.files) tooBig(`The upload has ${entries.length} files; at most ${UPLOAD_LIMITS.files}.`);
  refuseOwnCompressedCopies(entries.map(([path]) => path));
  let total = 0;
  for (const [path, base64] of entries) {
    if (!isSafeBuildPath(path)) {
      throw new ReleaseRefused('broken_build', `The upload names an unsafe path (${path.slice(0, 80)}). Nothing was changed.`);
    }
    const body = Buffer.from(base64, 'base64');
    total += body.length;
    if (body.length > UPLOAD_LIMITS.fileBytes || total > UPLOAD_LIMITS.totalBytes) tooBig('The upload is larger than allowed.');
    const target = join(dir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, body);
  }
}
