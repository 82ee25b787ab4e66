/**
 * Backups and their restore, on the real database (SQLite, or PostgreSQL with DATABASE_URL): a shop
 * with an account, orders, a complaint photo, an invoice copy and an e-mail not sent yet is backed
 * up, restored into an empty data directory and database, and a new API on the restored data shows
 * all of it as it was at the backup. Then what keeps a backup trustworthy: a changed file is
 * refused, old ones are removed, an interrupted one never looks complete, the worker's schedule
 * (clock and timer injected), the record on /ops and in the metrics, and the S3 destination.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountOrderDetail, BackupOverview, Complaint, Paged, AccountOrderSummary, PlacedOrder } from '@shop/shared-kernel/contract';
import { ABANDONED_AFTER_MS, type BackupDestination } from '../src/backup/destination.ts';
import { directoryDestination, openDirectoryBackup } from '../src/backup/directory-destination.ts';
import { backupNameOf, MANIFEST_FILE } from '../src/backup/manifest.ts';
import { takeRecordedBackup } from '../src/backup/recorded-backup.ts';
import { restoreBackup, RestoreRefused, type RestoreTarget } from '../src/backup/restore.ts';
import { s3Destination } from '../src/backup/s3-destination.ts';
import { FIRST_BACKUP_DELAY_MS, startBackupSchedule, type BackupTimer } from '../src/backup/schedule.ts';
import { backupOverview } from '../src/backup/server-backups.ts';
import { readBackupStatus } from '../src/backup/status.repository.ts';
import { takeBackup, type BackupSources } from '../src/backup/take-backup.ts';
import type { Db, DialectName } from '../src/db/database.ts';
import { defaultCheckoutOptions } from '../src/infra/checkout-options.ts';
import { localDataFileStore, type FileStore } from '../src/infra/storage/file-store.ts';
import { s3FileStore } from '../src/infra/storage/s3-file-store.ts';
import { listS3 } from '@shop/s3';
import { courierOrder, testContact } from './helpers/checkout-contact.ts';
import { startS3Server, type S3TestServer } from './helpers/s3-server.ts';
import { tempDir } from './helpers/temp-dirs.ts';
import { startTestApi, type TestApi } from './helpers/test-api.ts';
import { throwawayPostgres } from './helpers/throwaway-database.ts';
import { migrations } from '../src/db/migrations/index.ts';

const JWT_SECRET = randomBytes(32).toString('base64url');
const EMAIL = `zaloha-${randomBytes(4).toString('hex')}@example.sk`;
const PASSWORD = 'Záloha-Heslo-42!';
const PHOTO = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(3000)]);
/** The data directory's generated secrets, as the server writes them (config.ts). */
const SECRETS = {
  'jwt-secret': JWT_SECRET,
  'gateway-secret': randomBytes(32).toString('base64url'),
};
/** The shop's tables a restore must bring back row for row (besides the queued jobs). */
const TABLES = [
  'users',
  'orders',
  'order_items',
  'order_status_history',
  'payments',
  'complaints',
  'complaint_photos',
  'addresses',
  'revoked_tokens',
];

const quiet = { info: () => undefined, error: () => undefined };
const droppers: (() => Promise<void>)[] = [];
const opened: TestApi[] = [];
let api: TestApi;
let s3: S3TestServer;
let token: string;
let delivered: PlacedOrder['order'];
let invoiceFile: string;
let complaint: Complaint;
let variantIds: number[];

/** An API whose outbox takes no job by itself: the e-mails stay queued until a test drains them. */
async function startShop(options: Parameters<typeof startTestApi>[0] = {}): Promise<TestApi> {
  const started = await startTestApi({
    jwtSecret: JWT_SECRET,
    checkout: (dataDir) => ({ ...defaultCheckoutOptions(dataDir), publicUrl: 'http://shop.test' }),
    backgroundJobs: false,
    // The operator's console with the backups' record, as the shop's server builds it.
    operatorConsole: ({ db, dataDir }) => ({
      publicUrl: 'http://shop.test',
      backups: () => backupOverview(db, { BACKUP_INTERVAL_MS: '3600000' }, dataDir)(),
    }),
    ...options,
  });
  opened.push(started);
  return started;
}

async function closeShop(shop: TestApi): Promise<void> {
  opened.splice(opened.indexOf(shop), 1);
  await shop.close();
}

/** An operator's call on the operator origin (a signed-in operator with a second factor). */
const operator = (path: string, body: unknown = {}) => api.asOperator('POST', path, body);

async function placeOrder(vId: number, amount = 1): Promise<PlacedOrder['order']> {
  const res = await api.post<{ data: PlacedOrder }>(
    '/api/orders',
    { ...courierOrder(vId, amount), contact: { ...testContact, email: EMAIL } },
    token,
  );
  expect(res.status).toBe(201);
  return res.body.data.order;
}

/** The jobs not done yet: the outbox table on SQLite, pg-boss's queue on PostgreSQL. */
async function queuedJobs(db: Db, dialect: DialectName): Promise<unknown[]> {
  if (dialect === 'sqlite') {
    return db
      .selectFrom('outbox')
      .select(['job_id', 'topic', 'job_key', 'payload', 'status', 'attempts', 'run_after'])
      .where('status', '=', 'pending')
      .orderBy('job_id')
      .execute();
  }
  const { rows } =
    await sql`select id, name, data, state, retry_count, start_after from pgboss.job where state in ('created', 'retry') order by id`.execute(
      db,
    );
  return rows;
}

/** Every row of the shop's own tables, the stock of every variant, and the queued jobs. */
async function snapshot(shop: TestApi) {
  const tables: Record<string, string[]> = {};
  for (const table of TABLES) {
    const { rows } = await sql`select * from ${sql.table(table)}`.execute(shop.db);
    tables[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  const stock = await shop.db.selectFrom('variants').select(['v_id', 'v_stock']).orderBy('v_id').execute();
  return { tables, stock, jobs: await queuedJobs(shop.db, shop.dialect) };
}

const sources = (
  shop: TestApi,
  files: FileStore = localDataFileStore({ complaintsDir: join(shop.dataDir, 'complaints'), invoicesDir: join(shop.dataDir, 'invoices') }),
): BackupSources => ({
  db: shop.db,
  dialect: shop.dialect,
  dataDir: shop.dataDir,
  ...(shop.databaseUrl ? { databaseUrl: shop.databaseUrl } : {}),
  files,
  originDir: join(shop.dataDir, 'origin'),
});

/** An empty data directory, and an empty PostgreSQL database when the tests run on PostgreSQL. */
async function emptyTarget(files?: (dataDir: string) => FileStore): Promise<RestoreTarget> {
  const dataDir = tempDir('backup-restored-');
  const postgres = await throwawayPostgres();
  if (postgres) droppers.push(() => postgres.drop());
  return {
    dataDir,
    ...(postgres ? { databaseUrl: postgres.url } : {}),
    files: files?.(dataDir) ?? localDataFileStore({ complaintsDir: join(dataDir, 'complaints'), invoicesDir: join(dataDir, 'invoices') }),
    originDir: join(dataDir, 'origin'),
    force: false,
  };
}

/** A clock the tests move by hand, far from the real one so no backup name can collide with another test's. */
function testClock(start: string) {
  let time = Date.parse(start);
  return { now: () => new Date(time), advance: (ms: number) => (time += ms), at: () => time };
}

/** A destination whose writes fail for the files `fails` picks, as a full disk would. */
function failingWrites(inner: BackupDestination, fails: (path: string) => boolean): BackupDestination {
  return {
    ...inner,
    async begin(name) {
      const writer = await inner.begin(name);
      return {
        ...writer,
        async add(path) {
          if (fails(path)) throw new Error(`ENOSPC: no space left on device, write '${path}'`);
          await writer.add(path);
        },
      };
    },
  };
}

beforeAll(async () => {
  s3 = await startS3Server();
  api = await startShop();
  for (const [name, value] of Object.entries(SECRETS)) writeFileSync(join(api.dataDir, name), value, { mode: 0o600 });
  // A local release origin: the registry and a version folder are backed up, the S3 cache and the release lock are not.
  const origin = join(api.dataDir, 'origin');
  for (const [path, text] of Object.entries({
    'builds/latest.json': '{"shell":null}',
    'builds/history.jsonl': '{"action":"deploy"}\n',
    'remotes/catalog/1.0.0-abc/remoteEntry.js': 'export {};',
    'builds/.release.lock': '{"pid":1}',
    '.s3-cache/remotes/x.js': 'cached',
  })) {
    mkdirSync(join(origin, path, '..'), { recursive: true });
    writeFileSync(join(origin, path), text);
  }

  expect((await api.post('/api/account/register', { email: EMAIL, password: PASSWORD, name: 'Zálohovaný Zákazník' })).status).toBe(202);
  token = (await api.login(EMAIL, PASSWORD)).token;
  const variants = await api.db
    .selectFrom('variants')
    .select('v_id')
    .where('v_availability', '=', 'in_stock')
    .where('v_stock', '>=', 100)
    .where('v_weight', '<=', 1_000)
    .where('v_weight', '>', 0)
    .orderBy('v_id')
    .limit(2)
    .execute();
  variantIds = variants.map((variant) => variant.v_id);
  delivered = await placeOrder(variantIds[0]!, 2);
  await placeOrder(variantIds[1]!, 3);
  for (const state of ['shipped', 'delivered'])
    expect((await operator(`/api/operator/orders/${delivered.number}/state`, { state })).status).toBe(200);

  const detail = (await api.get<{ data: AccountOrderDetail }>(`/api/account/orders/${delivered.token}`, token)).body.data;
  const form = new FormData();
  form.set('orderToken', delivered.token);
  form.set('itemId', String(detail.lines[0]!.itemId));
  form.set('reason', 'damaged');
  form.set('description', 'Vrece prišlo roztrhnuté, polovica obsahu chýba.');
  form.append('photos', new Blob([new Uint8Array(PHOTO)], { type: 'image/jpeg' }), 'vrece.jpg');
  const filed = await fetch(`${api.baseUrl}/api/account/complaints`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(filed.status).toBe(201);
  complaint = ((await filed.json()) as { data: Complaint }).data;

  const invoice = await operator(`/api/operator/orders/${delivered.number}/invoice`);
  expect(invoice.status).toBe(200);
  invoiceFile = (invoice.body as { data: { file: string } }).data.file;
});

afterAll(async () => {
  for (const shop of opened.splice(0).reverse()) await shop.close();
  for (const drop of droppers.splice(0)) await drop();
  await s3?.stop();
});

describe('a backup restored into an empty data directory and database', () => {
  it('gives back every order, account, complaint photo, invoice copy and queued e-mail as they were', async () => {
    const before = await snapshot(api);
    // The confirmations of both orders wait in the outbox, not sent yet.
    expect(before.jobs.length).toBeGreaterThanOrEqual(2);
    const orders = (await api.get<Paged<AccountOrderSummary>>('/api/account/orders', token)).body.data;
    expect(orders).toHaveLength(2);
    const invoice = readFileSync(join(api.dataDir, 'invoices', invoiceFile));

    const destination = directoryDestination(tempDir('backups-'));
    const taken = await takeRecordedBackup({ ...sources(api), destination, keep: 7, log: quiet });
    if (!taken.ok) throw taken.error;
    expect(taken.result).toMatchObject({ pruned: [], pruneError: null });
    // After the backup: a new order, which the restore must not have.
    const later = await placeOrder(variantIds[0]!);

    const reader = await destination.open(taken.result.name);
    expect(reader.manifest).toMatchObject({ name: taken.result.name, engine: api.dialect, bytes: taken.result.bytes });
    // The last migration the shop has run: the newest one.
    expect(reader.manifest.migration).toBe(Object.keys(migrations).sort().at(-1));
    const paths = reader.manifest.files.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        api.dialect === 'sqlite' ? 'database/shop.sqlite' : 'database/shop.pgdump',
        `files/complaints/${readdirSync(join(api.dataDir, 'complaints'))[0]}`,
        `files/invoices/${invoiceFile}`,
        'secrets/jwt-secret',
        'secrets/gateway-secret',
        'origin/builds/latest.json',
        'origin/remotes/catalog/1.0.0-abc/remoteEntry.js',
      ]),
    );
    expect(paths.filter((path) => path.includes('.s3-cache') || path.includes('.release.lock'))).toEqual([]);

    const target = await emptyTarget();
    const summary = await restoreBackup(reader, target);
    await reader.close();
    expect(summary).toMatchObject({ name: taken.result.name, engine: api.dialect, files: 2, originFiles: 3, pendingMigrations: [] });
    expect([...summary.secrets].sort()).toEqual(Object.keys(SECRETS).sort());

    const restored = await startShop({
      existing: { dataDir: target.dataDir, ...(target.databaseUrl ? { databaseUrl: target.databaseUrl } : {}) },
    });
    expect(restored.seeded).toBe(false);
    expect(await snapshot(restored)).toEqual(before);
    for (const [name, value] of Object.entries(SECRETS)) expect(readFileSync(join(target.dataDir, name), 'utf8')).toBe(value);
    expect(readFileSync(join(target.dataDir, 'origin', 'builds', 'latest.json'), 'utf8')).toBe('{"shell":null}');
    expect(existsSync(join(target.dataDir, 'origin', '.s3-cache'))).toBe(false);

    // The account signs in with its password, and a session from before the backup still holds (same secret).
    const { token: fresh } = await restored.login(EMAIL, PASSWORD);
    for (const session of [fresh, token]) {
      const list = await restored.get<Paged<AccountOrderSummary>>('/api/account/orders', session);
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual(orders);
      expect(list.body.data.map((order) => order.number)).not.toContain(later.number);
    }
    const photo = await fetch(`${restored.baseUrl}/api/account/complaints/${complaint.id}/photos/${complaint.photos[0]!.id}`, {
      headers: { authorization: `Bearer ${fresh}` },
    });
    expect(photo.status).toBe(200);
    expect(Buffer.from(await photo.arrayBuffer()).equals(PHOTO)).toBe(true);
    expect(readFileSync(join(target.dataDir, 'invoices', invoiceFile)).equals(invoice)).toBe(true);

    // The queued confirmation is carried out by the restored shop.
    await restored.sideWorkDone();
    const mails = readdirSync(join(target.dataDir, 'outbox')).map((file) => readFileSync(join(target.dataDir, 'outbox', file), 'utf8'));
    expect(mails.some((mail) => mail.includes(delivered.number))).toBe(true);
    expect(await queuedJobs(restored.db, restored.dialect)).toEqual([]);
  });
});

describe('a restore', () => {
  it('refuses a backup whose files were changed or lost, before it writes anything', async () => {
    const dir = tempDir('backups-');
    const destination = directoryDestination(dir);
    const { name } = await takeBackup({ ...sources(api), destination, keep: 7 });
    const copy = tempDir('backup-tampered-');
    cpSync(join(dir, name), copy, { recursive: true });
    const photoPath = readdirSync(join(copy, 'files', 'complaints'))[0]!;
    const photo = readFileSync(join(copy, 'files', 'complaints', photoPath));
    photo[10] = photo[10]! ^ 0xff;
    writeFileSync(join(copy, 'files', 'complaints', photoPath), photo);
    rmSync(join(copy, 'secrets', 'gateway-secret'));

    const target = await emptyTarget();
    const refusal = await restoreBackup(await openDirectoryBackup(copy), target).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RestoreRefused);
    expect((refusal as RestoreRefused).reason).toBe('damaged');
    expect((refusal as Error).message).toContain(`files/complaints/${photoPath} (its SHA-256 differs`);
    expect((refusal as Error).message).toContain('secrets/gateway-secret (missing)');
    expect(readdirSync(target.dataDir)).toEqual([]);

    // The intact backup restores; a second restore over it is refused as the target is no longer empty.
    const intact = await destination.open(name);
    await restoreBackup(intact, target);
    const again = await restoreBackup(intact, target).catch((error: unknown) => error);
    expect((again as RestoreRefused).reason).toBe('not_empty');
    expect((again as Error).message).toContain(api.dialect === 'sqlite' ? 'the database' : 'tables in the PostgreSQL database');

    // After a bad migration (a new table referring to the shop's, rows changed), --force puts back the backup's database.
    const existing = { dataDir: target.dataDir, ...(target.databaseUrl ? { databaseUrl: target.databaseUrl } : {}) };
    const broken = await startShop({ existing });
    const users = await broken.db.selectFrom('users').select('user_id').orderBy('user_id').execute();
    await sql`create table bad_migration (user_id integer references users (user_id))`.execute(broken.db);
    await sql`insert into bad_migration values (${users[0]!.user_id})`.execute(broken.db);
    await broken.db.deleteFrom('complaint_photos').execute();
    await closeShop(broken);
    await restoreBackup(intact, { ...target, force: true });
    await intact.close();
    const fixed = await startShop({ existing });
    expect(await fixed.db.selectFrom('users').select('user_id').orderBy('user_id').execute()).toEqual(users);
    expect(await fixed.db.selectFrom('complaint_photos').select('photo_id').execute()).toHaveLength(1);
    await expect(sql`select * from bad_migration`.execute(fixed.db)).rejects.toThrow(/bad_migration/);
  });
});

describe('backups kept', () => {
  it('keeps the newest BACKUP_KEEP, readable by the shop’s user only, and removes the older ones', async () => {
    const dir = tempDir('backups-');
    const destination = directoryDestination(dir);
    const clock = testClock('2031-03-01T00:00:00.000Z');
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await takeBackup({ ...sources(api), destination, keep: 2, now: clock.now });
      names.push(result.name);
      expect(result.pruned).toEqual(i < 2 ? [] : [names[0]]);
      clock.advance(60 * 60_000);
    }
    expect(await destination.list()).toEqual(names.slice(1));
    expect(readdirSync(dir).sort()).toEqual(names.slice(1));
    // Only the shop's user may read one: it holds the secrets and every customer's data.
    for (const name of names.slice(1)) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o700);
  });
});

describe('an interrupted backup', () => {
  it('leaves nothing that looks complete: a failed write is cleared, a crashed half is skipped and cleared later', async () => {
    const dir = tempDir('backups-');
    const destination = directoryDestination(dir);
    const clock = testClock('2031-04-01T00:00:00.000Z');
    const failures = (await readBackupStatus(api.db)).failures;

    const failed = await takeRecordedBackup({
      ...sources(api),
      destination: failingWrites(destination, (path) => path.startsWith('files/')),
      keep: 7,
      now: clock.now,
      log: quiet,
    });
    expect(failed.ok).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
    expect(await destination.list()).toEqual([]);
    const status = await readBackupStatus(api.db);
    expect(status.failures).toBe(failures + 1);
    expect(status.lastFailure).toMatchObject({
      name: backupNameOf(clock.now()),
      bytes: null,
      error: expect.stringContaining('no space left on device'),
    });

    // A crash midway (the process dies: no clean-up runs) leaves only a partial folder.
    clock.advance(60_000);
    const crashed = backupNameOf(clock.now());
    const writer = await destination.begin(crashed);
    writeFileSync(await writer.stage('database/shop.sqlite'), 'half a database');
    await writer.add('database/shop.sqlite');
    expect(readdirSync(dir)).toEqual([`.${crashed}.partial`]);
    expect(await destination.list()).toEqual([]);
    await expect(destination.open(crashed)).rejects.toThrow(MANIFEST_FILE);
    await expect(openDirectoryBackup(join(dir, `.${crashed}.partial`))).rejects.toThrow('no complete backup');

    // The next backup after the half counts as abandoned removes it.
    clock.advance(ABANDONED_AFTER_MS + 1);
    const next = await takeBackup({ ...sources(api), destination, keep: 7, now: clock.now });
    expect(next.pruned).toEqual([crashed]);
    expect(readdirSync(dir)).toEqual([next.name]);
  });
});

describe('the worker’s schedule', () => {
  it('takes a due backup once among several workers, skips it when not due, and retries a failure one interval later', async () => {
    await api.db.deleteFrom('backup_status').execute();
    const interval = 60 * 60_000;
    const dir = tempDir('backups-');
    const clock = testClock('2031-05-01T00:00:00.000Z');
    const timers = () => {
      const delays: number[] = [];
      const timer: BackupTimer = (_run, ms) => {
        delays.push(ms);
        return () => undefined;
      };
      return { delays, timer };
    };
    const logged: string[] = [];
    const log = {
      info: () => undefined,
      error: (details: object, message: string) => logged.push(`${message}: ${String((details as { err?: Error }).err?.message)}`),
    };
    const workers = [timers(), timers()];
    const schedules = workers.map(({ timer }) =>
      startBackupSchedule({
        ...sources(api),
        destination: directoryDestination(dir),
        keep: 7,
        intervalMs: interval,
        now: clock.now,
        timer,
        log,
      }),
    );
    await Promise.all(schedules.map((schedule) => schedule.ready));
    // No backup yet: the first one soon after the start.
    for (const { delays } of workers) expect(delays).toEqual([Math.min(FIRST_BACKUP_DELAY_MS, interval)]);

    clock.advance(FIRST_BACKUP_DELAY_MS);
    await Promise.all(schedules.map((schedule) => schedule.tick()));
    expect(readdirSync(dir)).toEqual([backupNameOf(clock.now())]);
    for (const { delays } of workers) expect(delays.at(-1)).toBe(interval);

    // Not due again until an interval after that one started.
    clock.advance(interval - 1);
    for (const schedule of schedules) await schedule.tick();
    expect(readdirSync(dir)).toHaveLength(1);
    for (const { delays } of workers) expect(delays.at(-1)).toBe(1);

    // A failing attempt is recorded and logged with its cause; the next try is one interval later.
    clock.advance(1);
    const failing = timers();
    const broken = startBackupSchedule({
      ...sources(api),
      destination: failingWrites(directoryDestination(dir), () => true),
      keep: 7,
      intervalMs: interval,
      now: clock.now,
      timer: failing.timer,
      log,
    });
    await broken.ready;
    await broken.tick();
    expect(logged).toEqual([expect.stringMatching(/^backup failed: ENOSPC/)]);
    expect(failing.delays.at(-1)).toBe(interval);
    expect((await readBackupStatus(api.db)).lastFailure?.startedAt).toBe(clock.now().toISOString());
    expect(readdirSync(dir)).toHaveLength(1);
    clock.advance(interval);
    await schedules[0]!.tick();
    expect(readdirSync(dir)).toHaveLength(2);
    for (const schedule of [...schedules, broken]) await schedule.stop();
  });
});

describe('the record of backups', () => {
  it('is on /ops and in the metrics of every server, from the database', async () => {
    const destination = directoryDestination(tempDir('backups-'));
    const taken = await takeRecordedBackup({ ...sources(api), destination, keep: 7, log: quiet });
    if (!taken.ok) throw taken.error;
    await takeRecordedBackup({
      ...sources(api),
      destination: failingWrites(destination, () => true),
      keep: 7,
      now: () => new Date(Date.parse(taken.result.startedAt) + 1000),
      log: quiet,
    });

    const ops = await api.asOperator<{ data: BackupOverview }>('GET', '/api/ops/backups');
    expect(ops.status).toBe(200);
    expect(ops.body.data).toMatchObject({
      lastSuccess: { name: taken.result.name, bytes: taken.result.bytes, error: null },
      lastFailure: { error: expect.stringContaining('no space left on device'), bytes: null },
      intervalMs: 3_600_000,
    });
    expect((await api.ops('GET', '/api/ops/backups')).body).toEqual({
      error: { code: 'unauthorized', message: 'Prihláste sa ako operátor.' },
    });

    const metrics = (await api.metrics()).text;
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1]);
    expect(value('shop_backup_last_success_timestamp_seconds')).toBe(Date.parse(taken.result.finishedAt) / 1000);
    expect(value('shop_backup_last_size_bytes')).toBe(taken.result.bytes);
    expect(value('shop_backup_last_duration_seconds')).toBeGreaterThan(0);
    expect(value('shop_backup_failures_total')).toBe(ops.body.data.failures);
    expect(metrics).toContain('# TYPE shop_backup_failures_total counter');
  });
});

describe('backups in S3', () => {
  it('are taken, kept, skipped while incomplete and restored from an S3 bucket, files to an S3 file store', async () => {
    const destination = s3Destination({ client: s3.client, bucket: s3.bucket, prefix: 'shop/backups' });
    const files = s3FileStore({ client: s3.client, bucket: s3.bucket, prefix: 'shop/files' });
    for (const key of await sources(api).files.list(''))
      await files.put(key, (await sources(api).files.get(key))!, 'application/octet-stream');
    const clock = testClock('2031-06-01T00:00:00.000Z');
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      names.push((await takeBackup({ ...sources(api, files), destination, keep: 2, now: clock.now })).name);
      clock.advance(60_000);
    }
    expect(await destination.list()).toEqual(names.slice(1));
    expect((await listS3(s3.client, s3.bucket, `shop/backups/${names[0]}/`)).keys).toEqual([]);

    const half = backupNameOf(clock.now());
    const writer = await destination.begin(half);
    writeFileSync(await writer.stage('database/shop.sqlite'), 'half a database');
    await writer.add('database/shop.sqlite');
    expect(await destination.list()).toEqual(names.slice(1));
    await expect(destination.open(half)).rejects.toThrow('No complete backup');
    await writer.abort();
    expect((await listS3(s3.client, s3.bucket, `shop/backups/${half}/`)).keys).toEqual([]);

    const photoKey = (await files.list('complaints'))[0]!;
    const target = await emptyTarget(() => s3FileStore({ client: s3.client, bucket: s3.bucket, prefix: 'restored/files' }));
    const reader = await destination.open(names[2]!);
    const summary = await restoreBackup(reader, target);
    await reader.close();
    expect(summary.files).toBe(2);
    expect((await target.files.get(photoKey))?.equals(PHOTO)).toBe(true);
    const restored = await startShop({
      existing: { dataDir: target.dataDir, ...(target.databaseUrl ? { databaseUrl: target.databaseUrl } : {}) },
    });
    expect((await restored.db.selectFrom('users').select('email').where('email', '=', EMAIL).executeTakeFirst())?.email).toBe(EMAIL);
  });
});
