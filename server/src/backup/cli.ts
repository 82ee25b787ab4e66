/**
 * The backup command (`npm run backup`, `npm run restore` at the repository root):
 *   backup [--list]                                   take one now (or list the complete ones)
 *   restore <name|latest|path> [--data-dir DIR] [--database-url URL] [--force]
 *                                                     restore one, with the server stopped
 * Settings as the server reads them: DATA_DIR, DATABASE_URL, S3_BUCKET (the file store and the
 * origin in S3), BACKUP_DIR or BACKUP_S3_PREFIX, BACKUP_KEEP. A refused restore prints why and
 * exits 2; nothing was written.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readServerConfig } from '../config.ts';
import { openDatabase } from '../db/connect.ts';
import { sqliteFileOf } from '../db/create-database.ts';
import { fileStoreFromEnv } from '../file-store-from-env.ts';
import { s3SettingsFromEnv } from '@shop/s3';
import type { BackupDestination, BackupReader } from './destination.ts';
import { openDirectoryBackup } from './directory-destination.ts';
import { withBackupLock } from './lock.ts';
import { isBackupName, MANIFEST_FILE } from './manifest.ts';
import { takeRecordedBackup } from './recorded-backup.ts';
import { restoreBackup, RestoreRefused, type RestoreSummary } from './restore.ts';
import { destinationFromSettings, readBackupSettings } from './settings.ts';

const userDir = process.env.INIT_CWD ?? process.cwd();
const print = (line: string) => process.stdout.write(`[backup] ${line}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

type Options = { dataDir: string | null; databaseUrl: string | null; force: boolean; list: boolean; positional: string[] };

function parse(args: string[]): Options {
  const options: Options = { dataDir: null, databaseUrl: null, force: false, list: false, positional: [] };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    const value = () => {
      const given = args[++index];
      if (given === undefined || given.startsWith('--')) throw new Error(`${arg} needs a value`);
      return given;
    };
    if (arg === '--data-dir') options.dataDir = resolve(userDir, value());
    else if (arg === '--database-url') options.databaseUrl = value();
    else if (arg === '--force') options.force = true;
    else if (arg === '--list') options.list = true;
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else options.positional.push(arg);
  }
  return options;
}

const cliLog = {
  info: () => undefined,
  error: (details: object, message: string) => {
    const err = (details as { err?: unknown }).err;
    process.stderr.write(`[backup] ${message}${err instanceof Error ? `: ${err.message}` : ''}\n`);
  },
};

async function backupCommand(options: Options, destination: BackupDestination): Promise<number> {
  if (options.list) {
    const names = await destination.list();
    print(
      names.length === 0
        ? `no complete backup in ${destination.describe()}`
        : `${names.length} complete backup(s) in ${destination.describe()}:`,
    );
    for (const name of names) process.stdout.write(`  ${name}\n`);
    return 0;
  }
  const config = readServerConfig(process.env);
  const keep = readBackupSettings(process.env, config.dataDir).keep;
  if (!config.databaseUrl && !existsSync(sqliteFileOf(config.dataDir)))
    throw new Error(`no database at ${sqliteFileOf(config.dataDir)} (DATA_DIR) to back up`);
  const database = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { sqliteFile: sqliteFileOf(config.dataDir) });
  try {
    const sources = {
      db: database.db,
      dialect: database.dialect,
      dataDir: config.dataDir,
      ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
      files: fileStoreFromEnv(process.env, config.dataDir),
      originDir: s3SettingsFromEnv(process.env) ? null : config.originDir,
    };
    print(
      `backing up ${database.dialect === 'sqlite' ? sqliteFileOf(config.dataDir) : 'PostgreSQL (DATABASE_URL)'}, ${sources.files.describe()}, the secrets${sources.originDir ? ` and ${sources.originDir}` : ''} into ${destination.describe()}`,
    );
    const locked = await withBackupLock(database.db, database.dialect, () =>
      takeRecordedBackup({ ...sources, destination, keep, log: cliLog }),
    );
    if (!locked.held) {
      print('another process is taking a backup right now; nothing was done');
      return 1;
    }
    if (!locked.value.ok) return 1;
    const { result } = locked.value;
    print(`${result.name}: ${result.files} files, ${megabytes(result.bytes)} in ${seconds(result.durationMs)} (${result.destination})`);
    if (result.pruned.length > 0) print(`removed older backups (keeping ${keep}): ${result.pruned.join(', ')}`);
    return 0;
  } finally {
    await database.close();
  }
}

/** A folder holding a backup, `latest`, or a backup's name in the configured destination. */
async function openSource(source: string, destination: BackupDestination): Promise<BackupReader> {
  const folder = resolve(userDir, source);
  if (existsSync(join(folder, MANIFEST_FILE)) && statSync(folder).isDirectory()) return openDirectoryBackup(folder);
  if (source === 'latest') {
    const newest = (await destination.list()).at(-1);
    if (!newest) throw new Error(`no complete backup in ${destination.describe()}`);
    return destination.open(newest);
  }
  if (!isBackupName(source))
    throw new Error(
      `${source} is neither a folder holding a backup nor a backup's name (e.g. 2026-11-27T07-00-00.000Z; npm run backup -- --list)`,
    );
  return destination.open(source);
}

function describeRestore(summary: RestoreSummary): string[] {
  return [
    `restored ${summary.name} (${summary.engine}, ${megabytes(summary.bytes)}) in ${seconds(summary.durationMs)}:`,
    `  database: ${summary.database} at migration ${summary.migration ?? 'none'}${summary.pendingMigrations.length > 0 ? `; ${summary.pendingMigrations.length} newer migration(s) run at the next start` : ''}`,
    `  file store: ${summary.files} file(s) (complaint photos, invoice copies)`,
    `  secrets: ${summary.secrets.length > 0 ? summary.secrets.join(', ') : 'none in the backup (they come from the environment)'}`,
    `  release origin: ${summary.originSkipped ?? `${summary.originFiles} file(s)`}`,
  ];
}

async function restoreCommand(options: Options, destination: BackupDestination): Promise<number> {
  const source = options.positional[0];
  if (!source) throw new Error('restore needs a backup: its name, latest, or a folder holding one');
  print('the server must be stopped during a restore: a running one keeps writing to what is being replaced');
  const started = performance.now();
  const config = readServerConfig(process.env);
  const dataDir = options.dataDir ?? config.dataDir;
  const reader = await openSource(source, destination);
  try {
    print(`checking ${reader.location} against its manifest`);
    const summary = await restoreBackup(reader, {
      dataDir,
      ...((options.databaseUrl ?? config.databaseUrl) ? { databaseUrl: options.databaseUrl ?? config.databaseUrl } : {}),
      files: fileStoreFromEnv(process.env, dataDir),
      originDir: s3SettingsFromEnv(process.env) ? null : options.dataDir ? join(dataDir, 'origin') : config.originDir,
      force: options.force,
    });
    for (const line of describeRestore(summary)) print(line);
    print(
      `done in ${seconds(performance.now() - started)}; start the shop with the same settings (DATA_DIR=${dataDir}${summary.engine === 'postgres' ? ', DATABASE_URL' : ''})`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof RestoreRefused)) throw error;
    print(`refused: ${error.message}`);
    return 2;
  } finally {
    await reader.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const options = parse(rest);
  const config = readServerConfig(process.env);
  const destination = destinationFromSettings(readBackupSettings(process.env, config.dataDir), process.env);
  if (command === 'backup') return backupCommand(options, destination);
  if (command === 'restore') return restoreCommand(options, destination);
  throw new Error(`unknown command ${command ?? '(none)'}: backup or restore`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[backup] ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
