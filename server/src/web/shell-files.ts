/**
 * The shell's hashed files on the shop's origin: from the version in force, or from an older version
 * still on the origin for a tab opened before it, each sent only as its signed manifest lists it.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyReply } from 'fastify';
import { isVersionName, type RegistryBook, type ReleaseStorage } from '@shop/release';
import type { ReleasedFileCheck } from './verified-files.ts';
import { IMMUTABLE } from './static-origin.ts';
import { releasedFolder } from '../infra/storage/released-folder.ts';

/** Where the shell's versions live in the release storage. */
export const SHELLS = 'shells/shell';
const SAFE_ASSET = /^[\w.-]+$/;
/** How long an object store's list of the shell's versions is reused (ms); the directory's is read every time. */
const SHELL_LIST_MS = 10_000;

async function exists(path: string) {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

export type ShellFiles = {
  /** Sends a hashed shell file from the version in force, or from an older one for open tabs; false: not there, or not as released. */
  send(reply: FastifyReply, folder: string, file: string): Promise<boolean>;
};

export function shellFiles(options: { storage: ReleaseStorage; book: RegistryBook; check?: ReleasedFileCheck | null }): ShellFiles {
  const { storage, book } = options;
  const shellsDir = storage.localPath(SHELLS);
  /** The shell's versions on the origin, for the files of tabs opened before the version in force. */
  let listed: { at: number; versions: Promise<string[]> } | null = null;
  async function shellVersions(): Promise<string[]> {
    if (storage.local) return readdir(shellsDir).catch(() => [] as string[]);
    if (!listed || Date.now() - listed.at > SHELL_LIST_MS) {
      const versions = storage.list(SHELLS).then(
        (names) => names.filter(isVersionName),
        () => {
          listed = null;
          return [] as string[];
        },
      );
      listed = { at: Date.now(), versions };
    }
    return listed.versions;
  }

  async function send(reply: FastifyReply, folder: string, file: string): Promise<boolean> {
    if (!SAFE_ASSET.test(file)) return false;
    const current = (await book.read()).shell?.dir ?? null;
    const sendFrom = async (key: string): Promise<'sent' | 'absent' | 'refused'> => {
      // On an object store a version is downloaded the first time one of its files is asked for.
      const dir = await releasedFolder(storage, key);
      if (!(await exists(join(dir, folder, file)))) return 'absent';
      if (options.check && !(await options.check('shell', key.slice(SHELLS.length + 1), dir, folder === '.' ? file : `${folder}/${file}`)))
        return 'refused';
      // Sent as brotli, gzip or plain as the browser asks (precompressed siblings): a shared cache must keep one copy per encoding.
      reply.header('cache-control', IMMUTABLE).header('vary', 'accept-encoding');
      await reply.sendFile(file, join(dir, folder));
      return 'sent';
    };
    if (current) {
      const sent = await sendFrom(current);
      if (sent !== 'absent') return sent === 'sent';
    }
    // Not in the version in force: a tab opened before it asks for its own version's files.
    for (const version of await shellVersions()) {
      const key = `${SHELLS}/${version}`;
      if (key === current) continue;
      const sent = await sendFrom(key);
      if (sent !== 'absent') return sent === 'sent';
    }
    return false;
  }

  return { send };
}
