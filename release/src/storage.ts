/**
 * Where releases live. The local directory is the default (and what
 * `npm start` serves); an S3-compatible object store implements the same
 * interface for scale (`s3-storage.ts`; `storage-from-env.ts` picks one;
 * see README, "Release flow").
 */
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { cp, link, mkdir, open, readdir, readFile, rename, rm, stat, appendFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export type ReleaseStorage = {
  /**
   * True when every key already is a file on this machine (the local directory): `localPath` can be
   * read without `materialize`, and a folder can be served straight from disk.
   */
  readonly local: boolean;
  /** Whether a file or folder exists at a key (a path relative to the origin root). */
  exists(key: string): Promise<boolean>;
  readText(key: string): Promise<string | null>;
  /**
   * A file's bytes as the origin holds them now (never a cached copy); null when absent. With
   * `maxBytes`, at most `maxBytes + 1` of them: a longer answer says the file is larger than that.
   */
  readBytes(key: string, maxBytes?: number): Promise<Buffer | null>;
  /**
   * A cheap marker of a file's current version, to notice a change without reading it: the same
   * while nothing writes the file, different once its content changed (the local directory:
   * modification time and size from a stat; an object store: the object's ETag and last
   * modification from a HEAD). Null when the key is absent.
   */
  stamp(key: string): Promise<string | null>;
  /** Replaces a file atomically: readers see the old or the new content, never a mix. */
  writeTextAtomic(key: string, content: string): Promise<void>;
  appendText(key: string, line: string): Promise<void>;
  /** Uploads a local folder under a prefix, all or nothing. */
  putFolder(localDir: string, prefix: string): Promise<void>;
  /** Names directly under a prefix. */
  list(prefix: string): Promise<string[]>;
  removeFolder(prefix: string): Promise<void>;
  /** Creates a key only if it does not exist yet; false when it does. */
  createExclusive(key: string, content: string): Promise<boolean>;
  remove(key: string): Promise<void>;
  /** Moves a file to another key; false when there was nothing to move. */
  rename(from: string, to: string): Promise<boolean>;
  /** A local path to read a released folder from (checks read files); for an object store, a path in its cache that `materialize` fills. */
  localPath(key: string): string;
  /**
   * Makes a key (a file, or a folder and everything under it) readable on local disk and
   * returns `localPath(key)`. The local directory returns the path as it is; an object store
   * downloads into its cache directory, and keeps a downloaded folder (released folders are
   * content-hashed, so they never change). A key that is not there gives a path that does not exist.
   */
  materialize(key: string): Promise<string>;
  /** Where a key lives, for messages to an operator: a path on disk, or s3://bucket/key. */
  location(key: string): string;
};

export function localDirectoryStorage(root: string): ReleaseStorage {
  const path = (key: string) => join(root, key);
  return {
    local: true,
    localPath: path,
    location: path,
    async materialize(key) {
      return path(key);
    },
    async exists(key) {
      return stat(path(key)).then(
        () => true,
        () => false,
      );
    },
    async stamp(key) {
      const info = await stat(path(key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
        throw error;
      });
      return info ? `${info.mtimeMs}:${info.size}` : null;
    },
    async readText(key) {
      return readFile(path(key), 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
    },
    async readBytes(key, maxBytes) {
      return readLocalFile(path(key), maxBytes);
    },
    async writeTextAtomic(key, content) {
      const target = path(key);
      await mkdir(dirname(target), { recursive: true });
      const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temporary, content);
      await rename(temporary, target);
    },
    async appendText(key, line) {
      await mkdir(dirname(path(key)), { recursive: true });
      await appendFile(path(key), line);
    },
    async putFolder(localDir, prefix) {
      const target = path(prefix);
      const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
      await mkdir(dirname(target), { recursive: true });
      await cp(localDir, temporary, { recursive: true });
      await rename(temporary, target).catch(async (error: NodeJS.ErrnoException) => {
        // Another release uploaded the same content-hashed version first: same bytes.
        await rm(temporary, { recursive: true, force: true });
        if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      });
    },
    async list(prefix) {
      return readdir(path(prefix)).catch(() => []);
    },
    async removeFolder(prefix) {
      await rm(path(prefix), { recursive: true, force: true });
    },
    async createExclusive(key, content) {
      await mkdir(dirname(path(key)), { recursive: true });
      // Written in full under a name of its own, then linked into place: a hard link is created only
      // if the name is free, and with its content. Created empty and written after ('wx'), a lock
      // was read empty by a second release in between, taken for a dead holder's and broken.
      const temporary = `${path(key)}.${process.pid}.${randomUUID()}.tmp`;
      await writeFile(temporary, content);
      try {
        await link(temporary, path(key));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw error;
      } finally {
        await rm(temporary, { force: true });
      }
    },
    async remove(key) {
      await rm(path(key), { force: true });
    },
    async rename(from, to) {
      return rename(path(from), path(to)).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return false;
          throw error;
        },
      );
    },
  };
}

/**
 * A local file's bytes (at most `maxBytes + 1` of them when given); null when there is no regular
 * file (absent, or a directory, a pipe or a device put in its place: opened without waiting for a
 * writer, and never read).
 */
export async function readLocalFile(path: string, maxBytes = Number.MAX_SAFE_INTEGER - 1): Promise<Buffer | null> {
  const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.code === 'ENXIO') return null;
    throw error;
  });
  if (!file) return null;
  try {
    const info = await file.stat();
    if (!info.isFile()) return null;
    const buffer = Buffer.alloc(Math.min(maxBytes + 1, info.size + 1));
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await file.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return buffer.subarray(0, length);
  } finally {
    await file.close();
  }
}
