/**
 * Takes one backup: the database, then the file store's files (complaint photos, invoice copies),
 * the data directory's secrets and the local release origin, each hashed into the manifest, which
 * completes the backup last. Then the oldest backups beyond `keep` are removed.
 *
 * The database goes first: files are only ever added, so every photo the database snapshot
 * names is still there when the files are copied a moment later.
 */
import { copyFile, readdir, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SECRET_FILES } from '../infra/secret-files.ts';
import { sqliteFileOf } from '../db/create-database.ts';
import type { Db, DialectName } from '../db/database.ts';
import type { FileStore } from '../infra/storage/file-store.ts';
import { HISTORY_KEY, REGISTRY_KEY, LOCK_KEY, S3_CACHE_DIR } from '@shop/release';
import { pruneBackups, type BackupDestination } from './destination.ts';
import { backupNameOf, describeFile, MANIFEST_FORMAT, type Manifest, type ManifestFile } from './manifest.ts';
import { dumpPostgres } from './postgres-tools.ts';
import { copySqlite } from './sqlite-copy.ts';
import { lastMigration } from './status.repository.ts';

/** Where each part lives inside a backup. */
export const BACKUP_PATHS = {
  sqlite: 'database/shop.sqlite',
  postgres: 'database/shop.pgdump',
  files: 'files/',
  secrets: 'secrets/',
  origin: 'origin/',
} as const;

export type BackupSources = {
  db: Db;
  dialect: DialectName;
  /** The data directory: the SQLite file and the secrets. */
  dataDir: string;
  /** PostgreSQL's connection string (with the postgres dialect). */
  databaseUrl?: string;
  files: FileStore;
  /** The local release origin; null when releases live in S3 (nothing of them is on this disk). */
  originDir: string | null;
};

export type TakeBackupOptions = BackupSources & {
  destination: BackupDestination;
  keep: number;
  /** The clock that names the backup (tests set it). */
  now?: () => Date;
  /** Stops the backup between files (and the database copy at once); nothing complete is left. */
  signal?: AbortSignal;
};

export type BackupResult = {
  name: string;
  destination: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  bytes: number;
  files: number;
  /** Backups removed to keep the newest `keep`, and abandoned halves. */
  pruned: string[];
  /** Why removing old backups failed (the new backup is complete all the same), or null. */
  pruneError: string | null;
};

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';

/** The origin's files, the registry first (so every version it names was whole before it was copied), without the S3 cache and the release lock. */
async function originFiles(originDir: string): Promise<string[]> {
  const entries = await readdir(originDir, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
    if (isMissing(error)) return [];
    throw error;
  });
  const first = [REGISTRY_KEY, HISTORY_KEY];
  const paths = entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(originDir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => path !== S3_CACHE_DIR && !path.startsWith(`${S3_CACHE_DIR}/`) && !path.startsWith(LOCK_KEY));
  return [...first.filter((path) => paths.includes(path)), ...paths.filter((path) => !first.includes(path)).sort()];
}

export async function takeBackup(options: TakeBackupOptions): Promise<BackupResult> {
  const { db, dialect, destination, signal } = options;
  const now = options.now ?? (() => new Date());
  const started = now();
  const clock = performance.now();
  const name = backupNameOf(started);
  const writer = await destination.begin(name);
  const listed: ManifestFile[] = [];
  /** Stages one file, lets `produce` write it (false: it vanished meanwhile, skip it), hashes it and adds it. */
  const add = async (path: string, produce: (target: string) => Promise<boolean>) => {
    signal?.throwIfAborted();
    const target = await writer.stage(path);
    if (!(await produce(target))) return;
    listed.push(await describeFile(target, path));
    await writer.add(path);
  };
  const copied = (source: string) => async (target: string) =>
    copyFile(source, target).then(
      () => true,
      (error: unknown) => {
        if (isMissing(error)) return false;
        throw error;
      },
    );

  try {
    const migration = await lastMigration(db);
    if (dialect === 'sqlite') {
      await add(BACKUP_PATHS.sqlite, async (target) => {
        await copySqlite(sqliteFileOf(options.dataDir), target, signal);
        return true;
      });
    } else {
      const url = options.databaseUrl;
      if (!url) throw new Error('A PostgreSQL backup needs the database URL (DATABASE_URL).');
      await add(BACKUP_PATHS.postgres, async (target) => {
        await dumpPostgres(url, target, signal);
        return true;
      });
    }
    for (const key of await options.files.list('')) {
      await add(`${BACKUP_PATHS.files}${key}`, async (target) => {
        const data = await options.files.get(key);
        if (data === null) return false;
        await writeFile(target, data);
        return true;
      });
    }
    for (const secret of Object.values(SECRET_FILES)) await add(`${BACKUP_PATHS.secrets}${secret}`, copied(join(options.dataDir, secret)));
    if (options.originDir) {
      for (const path of await originFiles(options.originDir))
        await add(`${BACKUP_PATHS.origin}${path}`, copied(join(options.originDir, path)));
    }
    signal?.throwIfAborted();
    const finished = now();
    const bytes = listed.reduce((sum, file) => sum + file.size, 0);
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      name,
      startedAt: started.toISOString(),
      finishedAt: finished.toISOString(),
      engine: dialect,
      migration,
      files: listed,
      bytes,
    };
    await writer.complete(manifest);
    const result = {
      name,
      destination: destination.describe(),
      startedAt: manifest.startedAt,
      finishedAt: manifest.finishedAt,
      durationMs: performance.now() - clock,
      bytes,
      files: listed.length,
    };
    try {
      return { ...result, pruned: await pruneBackups(destination, options.keep, finished.getTime()), pruneError: null };
    } catch (error) {
      return { ...result, pruned: [], pruneError: error instanceof Error ? error.message : String(error) };
    }
  } catch (error) {
    await writer.abort().catch(() => undefined);
    throw error;
  }
}
