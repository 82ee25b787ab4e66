/**
 * Backups in a directory (BACKUP_DIR): each one a folder named by its start time. It is written
 * as `.<name>.partial/` and renamed to `<name>/` once its files and manifest are synced to disk;
 * the rename is atomic, so a folder with a backup's name is always whole.
 */
import { open, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { BackupDestination, BackupReader, BackupWriter } from './destination.ts';
import { assertBackupPath, isBackupName, MANIFEST_FILE, parseManifest, timeOfBackupName, type Manifest } from './manifest.ts';

const PARTIAL = /^\.(.+)\.partial$/;
const partialName = (name: string) => `.${name}.partial`;

/** Flushes a file's or a folder's bytes and entries to the disk. */
async function sync(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Reads a complete backup in a folder (a destination's, or any folder holding one). */
export async function openDirectoryBackup(folder: string): Promise<BackupReader> {
  const text = await readFile(join(folder, MANIFEST_FILE), 'utf8').catch(() => null);
  if (text === null) throw new Error(`${folder} holds no complete backup (no ${MANIFEST_FILE}).`);
  const manifest = parseManifest(text);
  return {
    location: folder,
    manifest,
    async localFile(path) {
      assertBackupPath(path);
      return join(folder, path);
    },
    close: async () => undefined,
  };
}

export function directoryDestination(dir: string): BackupDestination {
  const root = resolve(dir);
  const folderOf = (name: string) => {
    if (!isBackupName(name)) throw new Error(`Not a backup name: ${JSON.stringify(name.slice(0, 80))}`);
    return join(root, name);
  };

  async function entries(): Promise<string[]> {
    return readdir(root).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
  }

  return {
    describe: () => `directory ${root}`,

    async begin(name) {
      const final = folderOf(name);
      const partial = join(root, partialName(name));
      await mkdir(root, { recursive: true, mode: 0o700 });
      if (await exists(final)) throw new Error(`A backup named ${name} exists in ${root}.`);
      // Only the shop's user may read a backup: it holds the secrets and every customer's data.
      await mkdir(partial, { mode: 0o700 });
      const writer: BackupWriter = {
        async stage(path) {
          assertBackupPath(path);
          const target = join(partial, path);
          await mkdir(dirname(target), { recursive: true, mode: 0o700 });
          return target;
        },
        async add(path) {
          assertBackupPath(path);
          await sync(join(partial, path));
        },
        async complete(manifest: Manifest) {
          const file = join(partial, MANIFEST_FILE);
          await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
          await sync(file);
          await rename(partial, final);
          await sync(root);
        },
        abort: () => rm(partial, { recursive: true, force: true }),
      };
      return writer;
    },

    async list() {
      const names = (await entries()).filter(isBackupName).sort();
      const complete = await Promise.all(names.map((name) => exists(join(root, name, MANIFEST_FILE))));
      return names.filter((_, index) => complete[index]);
    },

    async open(name) {
      return openDirectoryBackup(folderOf(name));
    },

    async remove(name) {
      const folder = folderOf(name);
      // The manifest first: a removal cut off halfway must not leave something that looks complete.
      await rm(join(folder, MANIFEST_FILE), { force: true });
      await rm(folder, { recursive: true, force: true });
    },

    async removeAbandoned(before) {
      const removed: string[] = [];
      for (const entry of await entries()) {
        // A partial folder, or a named one whose removal was cut off after its manifest went.
        const name = PARTIAL.exec(entry)?.[1] ?? (isBackupName(entry) && !(await exists(join(root, entry, MANIFEST_FILE))) ? entry : null);
        if (!name || !isBackupName(name) || timeOfBackupName(name) >= before) continue;
        await rm(join(root, entry), { recursive: true, force: true });
        removed.push(name);
      }
      return removed;
    },
  };
}
