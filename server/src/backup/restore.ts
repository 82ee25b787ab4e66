/**
 * Restores a backup into a data directory and a database, with the server stopped. Every file is
 * checked against the manifest's size and SHA-256 first, and a target that holds data is refused
 * (unless forced), before anything is written. Then the file store's files, the secrets and the
 * release origin go in, and the database last: a restore cut off before it leaves no database, so
 * it is plainly unfinished and can simply be run again.
 */
import { chmod, copyFile, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { RETIRED_SECRET_FILES, SECRET_FILES } from '../infra/secret-files.ts';
import { sqliteFileOf } from '../db/create-database.ts';
import { migrations } from '../db/migrations/index.ts';
import { assertFileKey, type FileStore } from '../infra/storage/file-store.ts';
import { HISTORY_KEY, REGISTRY_KEY, S3_CACHE_DIR } from '@shop/release';
import type { BackupReader } from './destination.ts';
import { describeFile, type Manifest } from './manifest.ts';
import { emptyPostgres, postgresHasTables, restorePostgres } from './postgres-tools.ts';
import { checkSqlite } from './sqlite-copy.ts';
import { BACKUP_PATHS } from './take-backup.ts';

export type RestoreTarget = {
  dataDir: string;
  /** The PostgreSQL database to restore into; a SQLite backup goes to the data directory and refuses one. */
  databaseUrl?: string;
  /** Where the complaint photos and invoice copies go. */
  files: FileStore;
  /** The local release origin; null when releases live in S3 (the backup's origin copy is then left out). */
  originDir: string | null;
  /** Restore over data that is there (after a bad migration), and a backup of a schema this code does not know. */
  force: boolean;
};

export type RestoreRefusal = 'damaged' | 'engine' | 'schema' | 'not_empty';

/** The restore did not start: nothing was written. */
export class RestoreRefused extends Error {
  constructor(
    readonly reason: RestoreRefusal,
    message: string,
  ) {
    super(message);
  }
}

export type RestoreSummary = {
  name: string;
  engine: Manifest['engine'];
  /** Where the database went. */
  database: string;
  migration: string | null;
  /** Migrations this code has that the backup's database had not run: they run at the next start. */
  pendingMigrations: string[];
  files: number;
  secrets: string[];
  originFiles: number;
  /** Why the origin was left out, or null. */
  originSkipped: string | null;
  bytes: number;
  durationMs: number;
};

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  pdf: 'application/pdf',
};
const contentTypeOf = (key: string) => CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';

/** The secrets the shop keeps, and the retired operator token a backup from before may hold (METRICS_OPERATOR_TOKEN's migration path reads it). */
const SECRETS: string[] = [...Object.values(SECRET_FILES), 'operator-token'];
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
const under = (manifest: Manifest, prefix: string) =>
  manifest.files.filter((file) => file.path.startsWith(prefix)).map((file) => file.path);

/** Every file of the backup matches its manifest entry; else the restore is refused, naming them. */
async function verify(reader: BackupReader): Promise<void> {
  const bad: string[] = [];
  for (const file of reader.manifest.files) {
    const local = await reader.localFile(file.path).catch(() => null);
    const found = local ? await describeFile(local, file.path).catch(() => null) : null;
    if (!found) bad.push(`${file.path} (missing)`);
    else if (found.size !== file.size) bad.push(`${file.path} (${found.size} bytes, the manifest says ${file.size})`);
    else if (found.sha256 !== file.sha256) bad.push(`${file.path} (its SHA-256 differs from the manifest's)`);
  }
  for (const path of under(reader.manifest, BACKUP_PATHS.files)) {
    try {
      assertFileKey(path.slice(BACKUP_PATHS.files.length));
    } catch (error) {
      bad.push(`${path} (${(error as Error).message})`);
    }
  }
  for (const path of under(reader.manifest, BACKUP_PATHS.secrets)) {
    const name = path.slice(BACKUP_PATHS.secrets.length);
    if (!SECRETS.includes(name) && !RETIRED_SECRET_FILES.includes(name)) bad.push(`${path} (not a secret the shop keeps)`);
  }
  if (bad.length > 0) {
    throw new RestoreRefused(
      'damaged',
      `Backup ${reader.manifest.name} is damaged or was changed; nothing was restored. Files that do not match the manifest: ${bad.slice(0, 10).join(', ')}${bad.length > 10 ? ` and ${bad.length - 10} more` : ''}.`,
    );
  }
}

/**
 * What the target holds already that the restore would replace: on PostgreSQL the database decides
 * (a data directory kept beside a lost database server has the same secrets); on SQLite the data
 * directory: its database, secrets and release origin. The file store does not count: in S3 it
 * outlives a lost disk, and its files are only ever added, so the backup's copies are the same bytes.
 */
async function occupied(manifest: Manifest, target: RestoreTarget): Promise<string[]> {
  if (manifest.engine === 'postgres') return (await postgresHasTables(target.databaseUrl!)) ? ['tables in the PostgreSQL database'] : [];
  const found: string[] = [];
  if (await exists(sqliteFileOf(target.dataDir))) found.push(`the database ${sqliteFileOf(target.dataDir)}`);
  for (const secret of SECRETS) if (await exists(join(target.dataDir, secret))) found.push(`the secret ${join(target.dataDir, secret)}`);
  if (target.originDir && under(manifest, BACKUP_PATHS.origin).length > 0) {
    const entries = await readdir(target.originDir).catch(() => []);
    if (entries.some((entry) => entry !== S3_CACHE_DIR)) found.push(`the release origin ${target.originDir}`);
  }
  return found;
}

async function checkTarget(manifest: Manifest, target: RestoreTarget): Promise<string[]> {
  if (manifest.engine === 'postgres' && !target.databaseUrl) {
    throw new RestoreRefused(
      'engine',
      `Backup ${manifest.name} is of a PostgreSQL database: set DATABASE_URL (or --database-url) to the database to restore into.`,
    );
  }
  if (manifest.engine === 'sqlite' && target.databaseUrl) {
    throw new RestoreRefused(
      'engine',
      `Backup ${manifest.name} is of the embedded SQLite database: unset DATABASE_URL to restore it into the data directory.`,
    );
  }
  const known = Object.keys(migrations).sort();
  if (manifest.migration !== null && !known.includes(manifest.migration) && !target.force) {
    throw new RestoreRefused(
      'schema',
      `Backup ${manifest.name} has the migration ${manifest.migration}, which this code does not know: restore it with the code it was taken with (or --force).`,
    );
  }
  if (!target.force) {
    const found = await occupied(manifest, target);
    if (found.length > 0)
      throw new RestoreRefused(
        'not_empty',
        `The target is not empty: ${found.join('; ')}. Restore into an empty data directory and database, or add --force to replace them.`,
      );
  }
  return manifest.migration === null ? known : known.filter((name) => name > manifest.migration!);
}

async function restoreDatabase(reader: BackupReader, target: RestoreTarget): Promise<string> {
  const { manifest } = reader;
  if (manifest.engine === 'postgres') {
    // Forced over a database that has the shop: emptied first (an unforced restore found it empty).
    if (target.force) await emptyPostgres(target.databaseUrl!);
    await restorePostgres(target.databaseUrl!, await reader.localFile(BACKUP_PATHS.postgres));
    return 'PostgreSQL (DATABASE_URL)';
  }
  const file = sqliteFileOf(target.dataDir);
  const incoming = `${file}.restoring`;
  await mkdir(target.dataDir, { recursive: true });
  await copyFile(await reader.localFile(BACKUP_PATHS.sqlite), incoming);
  const check = checkSqlite(incoming);
  if (check !== 'ok') {
    await rm(incoming, { force: true });
    throw new Error(`The restored SQLite file fails SQLite's check: ${check}`);
  }
  // An old write-ahead log would be replayed into the restored file: it goes with the file it belonged to.
  for (const suffix of ['-wal', '-shm']) await rm(`${file}${suffix}`, { force: true });
  await rename(incoming, file);
  return file;
}

export async function restoreBackup(reader: BackupReader, target: RestoreTarget): Promise<RestoreSummary> {
  const clock = performance.now();
  const { manifest } = reader;
  await verify(reader);
  const pendingMigrations = await checkTarget(manifest, target);

  const stored = under(manifest, BACKUP_PATHS.files);
  for (const path of stored) {
    const key = path.slice(BACKUP_PATHS.files.length);
    await target.files.put(key, await readFile(await reader.localFile(path)), contentTypeOf(key));
  }
  // An older backup's private release key stays out of the data directory: a server never holds it.
  const secrets = under(manifest, BACKUP_PATHS.secrets)
    .map((path) => path.slice(BACKUP_PATHS.secrets.length))
    .filter((secret) => !RETIRED_SECRET_FILES.includes(secret));
  await mkdir(target.dataDir, { recursive: true });
  for (const secret of secrets) {
    const file = join(target.dataDir, secret);
    await copyFile(await reader.localFile(`${BACKUP_PATHS.secrets}${secret}`), file);
    await chmod(file, 0o600);
  }
  // The registry last: it never names a version folder that is not in place yet.
  const last = [REGISTRY_KEY, HISTORY_KEY].map((key) => `${BACKUP_PATHS.origin}${key}`);
  const origin = under(manifest, BACKUP_PATHS.origin).sort((a, b) => Number(last.includes(a)) - Number(last.includes(b)));
  const originSkipped =
    origin.length > 0 && !target.originDir ? 'releases live in S3 (S3_BUCKET): the backup’s local origin was left out' : null;
  if (target.originDir) {
    for (const path of origin) {
      const file = join(target.originDir, path.slice(BACKUP_PATHS.origin.length));
      await mkdir(dirname(file), { recursive: true });
      await copyFile(await reader.localFile(path), file);
    }
  }
  const database = await restoreDatabase(reader, target);
  return {
    name: manifest.name,
    engine: manifest.engine,
    database,
    migration: manifest.migration,
    pendingMigrations,
    files: stored.length,
    secrets,
    originFiles: target.originDir ? origin.length : 0,
    originSkipped,
    bytes: manifest.bytes,
    durationMs: performance.now() - clock,
  };
}
