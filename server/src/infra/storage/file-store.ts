/**
 * Where the API keeps the files it makes or receives (complaint photos, invoice copies): a
 * `FileStore` by key. `localFileStore` is a directory on this machine (one server, or servers on
 * one machine); `s3FileStore` (s3-file-store.ts) is a bucket every server reaches, for servers on
 * several machines. `fileStoreFromEnv` (file-store-from-env.ts) picks one.
 *
 * A key is a relative path of `[A-Za-z0-9._-]` segments separated by single `/`: no `..`, no
 * leading `/`, no empty or `.` segment, at most 200 characters. A bad key throws before anything
 * is read or written, in every store alike.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';

export type FileStore = {
  /** Writes (or replaces) the file under `key`; a reader sees the old or the new bytes, never part of them. */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The file's bytes, or null when there is none under `key`. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the file under `key`; a missing file is not an error. */
  remove(key: string): Promise<void>;
  /**
   * Every key under the folder `prefix` (`complaints` lists `complaints/…`; `''` lists the whole
   * store), sorted: what a backup copies.
   */
  list(prefix: string): Promise<string[]>;
  /** Where the files go, for logs and messages (e.g. `local directory /srv/shop/data/complaints`). */
  describe(): string;
};

export const MAX_FILE_KEY_LENGTH = 200;
const KEY = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;

/** Throws unless `key` is a valid file key (see above). */
export function assertFileKey(key: string): void {
  const problem =
    typeof key !== 'string' || key === ''
      ? 'is empty'
      : key.length > MAX_FILE_KEY_LENGTH
        ? `is longer than ${MAX_FILE_KEY_LENGTH} characters`
        : key.startsWith('/')
          ? 'starts with /'
          : key.includes('..')
            ? 'contains ..'
            : !KEY.test(key)
              ? 'may hold only letters, digits, ".", "_", "-" and single "/" between names'
              : key.split('/').includes('.')
                ? 'has a "." segment'
                : null;
  if (problem) throw new Error(`File key ${JSON.stringify(String(key).slice(0, 80))} ${problem}.`);
}

/** Throws unless `prefix` is `''` or a valid key (a folder to list). */
export function assertFilePrefix(prefix: string): void {
  if (prefix !== '') assertFileKey(prefix);
}

const isValidKey = (key: string) => {
  try {
    assertFileKey(key);
    return true;
  } catch {
    return false;
  }
};

const isMissing = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  // ENOTDIR: a key under a "folder" that is a file (`a.jpg/b`); EISDIR: a key that names a folder.
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
};

/**
 * Files in a directory of this machine, a key's `/` being a sub-directory. The content type is not
 * kept (the caller keeps what it needs, e.g. a complaint photo's type in the database). A file is
 * written with mode 0600 to a temporary name beside its final one and renamed into place.
 */
export function localFileStore(dir: string): FileStore {
  const root = resolve(dir);
  const pathOf = (key: string) => {
    assertFileKey(key);
    return join(root, key);
  };
  return {
    async put(key, data) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      // A dot-name no key of the same folder can collide with (a key never holds `..`, and this does).
      const staging = join(dirname(target), `..${randomUUID()}.tmp`);
      try {
        await writeFile(staging, data, { mode: 0o600 });
        await rename(staging, target);
      } catch (error) {
        await rm(staging, { force: true }).catch(() => undefined);
        throw error;
      }
    },
    async get(key) {
      const target = pathOf(key);
      try {
        return await readFile(target);
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async remove(key) {
      const target = pathOf(key);
      await rm(target, { force: true });
    },
    async list(prefix) {
      assertFilePrefix(prefix);
      const entries = await readdir(prefix === '' ? root : join(root, prefix), { recursive: true, withFileTypes: true }).catch(
        (error: unknown) => {
          if (isMissing(error)) return [];
          throw error;
        },
      );
      // Staging files of a write in progress (`..<uuid>.tmp`) are no key, and are left out.
      return entries
        .filter((entry) => entry.isFile())
        .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
        .filter(isValidKey)
        .sort();
    },
    describe: () => `local directory ${root}`,
  };
}

/**
 * Several stores as one, by a key's first folder: with `{ complaints: a, invoices: b }`, the key
 * `complaints/x.jpg` is `x.jpg` in `a`. A key in no listed folder throws. This keeps the local
 * layout of the data directory as it was before the file store (complaint photos in their folder,
 * invoice copies in theirs) while an S3 store takes every key as it is.
 */
export function folderFileStore(folders: Record<string, FileStore>): FileStore {
  const route = (key: string): [FileStore, string] => {
    assertFileKey(key);
    const slash = key.indexOf('/');
    const folder = key.slice(0, Math.max(0, slash));
    const store = slash > 0 && Object.hasOwn(folders, folder) ? folders[folder] : undefined;
    if (!store) {
      throw new Error(`File key ${JSON.stringify(key.slice(0, 80))} is in none of the folders ${Object.keys(folders).join(', ')}.`);
    }
    return [store, key.slice(slash + 1)];
  };
  return {
    async put(key, data, contentType) {
      const [store, rest] = route(key);
      await store.put(rest, data, contentType);
    },
    async get(key) {
      const [store, rest] = route(key);
      return store.get(rest);
    },
    async remove(key) {
      const [store, rest] = route(key);
      await store.remove(rest);
    },
    async list(prefix) {
      assertFilePrefix(prefix);
      const slash = prefix.indexOf('/');
      const folder = slash < 0 ? prefix : prefix.slice(0, slash);
      const chosen = prefix === '' ? Object.keys(folders) : Object.hasOwn(folders, folder) ? [folder] : [];
      const lists = await Promise.all(
        chosen.map(async (name) => (await folders[name]!.list(slash < 0 ? '' : prefix.slice(slash + 1))).map((key) => `${name}/${key}`)),
      );
      return lists.flat().sort();
    },
    describe: () =>
      Object.entries(folders)
        .map(([folder, store]) => `${folder}/: ${store.describe()}`)
        .join('; '),
  };
}

/**
 * The local store of a data directory as the API laid it out before the file store: complaint
 * photos (`complaints/<name>`) in `complaintsDir`, invoice copies (`invoices/<name>`) in `invoicesDir`.
 */
export function localDataFileStore(dirs: { complaintsDir: string; invoicesDir: string }): FileStore {
  return folderFileStore({ complaints: localFileStore(dirs.complaintsDir), invoices: localFileStore(dirs.invoicesDir) });
}
