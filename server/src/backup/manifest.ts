/**
 * A backup's name and its manifest (`manifest.json`): when it was taken, of which engine and
 * schema, and every file with its size and SHA-256, so that a restore can prove the copy whole
 * before it touches anything.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { DialectName } from '../db/database.ts';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 1;

/** A backup is named by its UTC start time, `2026-11-27T07-00-00.000Z`: names sort as times do. */
const NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z$/;

export const backupNameOf = (time: Date) => time.toISOString().replace(/:/g, '-');
export const isBackupName = (name: string) => NAME.test(name);

/** The time a backup name stands for (ms since the epoch). */
export function timeOfBackupName(name: string): number {
  if (!isBackupName(name)) throw new Error(`Not a backup name: ${JSON.stringify(name.slice(0, 80))}`);
  return Date.parse(`${name.slice(0, 13)}:${name.slice(14, 16)}:${name.slice(17)}`);
}

export type ManifestFile = { path: string; size: number; sha256: string };

export type Manifest = {
  format: typeof MANIFEST_FORMAT;
  name: string;
  startedAt: string;
  finishedAt: string;
  engine: DialectName;
  /** The last migration the database had run (the schema's version). */
  migration: string | null;
  files: ManifestFile[];
  bytes: number;
};

/**
 * Throws unless `path` is a relative path inside the backup: segments without `..`, `.`, empty
 * ones, backslashes or control characters. A manifest is read from outside, so each of its paths
 * is checked before it names a file to read or write.
 */
export function assertBackupPath(path: string): void {
  const segments = path.split('/');
  const bad =
    path === '' ||
    path.length > 1000 ||
    path.includes('\\') ||
    // eslint-disable-next-line no-control-regex -- control characters are what this refuses
    /[\u0000-\u001f\u007f]/.test(path) ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..');
  if (bad) throw new Error(`Not a path inside a backup: ${JSON.stringify(path.slice(0, 120))}`);
}

/** Size and SHA-256 of a file, read as a stream (a database file may be larger than memory allows). */
export async function describeFile(path: string, name: string): Promise<ManifestFile> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { path: name, size, sha256: hash.digest('hex') };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The manifest in `text`, checked field by field; throws with what is wrong. */
export function parseManifest(text: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('manifest.json is not JSON');
  }
  if (!isObject(value) || value.format !== MANIFEST_FORMAT)
    throw new Error(`manifest.json is not a backup manifest of format ${MANIFEST_FORMAT}`);
  const { name, startedAt, finishedAt, engine, migration, files, bytes } = value;
  if (typeof name !== 'string' || !isBackupName(name)) throw new Error('manifest.json has no valid name');
  if (typeof startedAt !== 'string' || typeof finishedAt !== 'string') throw new Error('manifest.json has no start or finish time');
  if (engine !== 'sqlite' && engine !== 'postgres') throw new Error('manifest.json names no known database engine');
  if (migration !== null && typeof migration !== 'string') throw new Error('manifest.json has a bad migration');
  if (!Array.isArray(files) || typeof bytes !== 'number') throw new Error('manifest.json lists no files');
  const seen = new Set<string>();
  const checked = files.map((file: unknown): ManifestFile => {
    if (!isObject(file) || typeof file.path !== 'string' || typeof file.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(file.sha256)) {
      throw new Error('manifest.json has a file entry without a path or a SHA-256');
    }
    if (typeof file.size !== 'number' || !Number.isSafeInteger(file.size) || file.size < 0)
      throw new Error(`manifest.json has a bad size for ${file.path}`);
    assertBackupPath(file.path);
    if (file.path === MANIFEST_FILE || seen.has(file.path)) throw new Error(`manifest.json lists ${file.path} twice or as itself`);
    seen.add(file.path);
    return { path: file.path, size: file.size, sha256: file.sha256 };
  });
  return { format: MANIFEST_FORMAT, name, startedAt, finishedAt, engine, migration, files: checked, bytes };
}
