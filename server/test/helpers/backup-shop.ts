/**
 * The shop the backup tests back up (backup-*.test.ts), on the real database (SQLite, or PostgreSQL
 * with DATABASE_URL): its data directory's generated secrets, a local release origin, an account with
 * a delivered order and a second one (their confirmations queued, not sent), a complaint with a photo
 * and an invoice copy. Test files share their worker's modules, so each file makes its own:
 * `backupShop()` at its top, `start()` before its tests, `stop()` after them. Beside it, what the
 * tests compare and inject: a restore target, a snapshot of the shop's rows, a hand-moved clock and a
 * destination whose writes fail.
 */
import { stockedLightVariants } from './stocked-variants.ts';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { AccountOrderDetail, Complaint, PlacedOrder } from '@shop/shared-kernel/contract';
import type { BackupDestination } from '../../src/backup/destination.ts';
import type { RestoreTarget } from '../../src/backup/restore.ts';
import { backupOverview } from '../../src/backup/server-backups.ts';
import type { BackupSources } from '../../src/backup/take-backup.ts';
import type { Db, DialectName } from '../../src/db/database.ts';
import { defaultCheckoutOptions } from '../../src/infra/checkout-options.ts';
import { localDataFileStore, type FileStore } from '../../src/infra/storage/file-store.ts';
import { courierOrder, testContact } from './checkout-contact.ts';
import { tempDir } from '@shop/release/testing';
import { startTestApi, type TestApi } from './test-api.ts';
import { throwawayPostgres } from './throwaway-database.ts';

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

export const quiet = { info: () => undefined, error: () => undefined };

export function backupShop() {
  const JWT_SECRET = randomBytes(32).toString('base64url');
  const EMAIL = `zaloha-${randomBytes(4).toString('hex')}@example.sk`;
  const PASSWORD = 'Záloha-Heslo-42!';
  const PHOTO = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(3000)]);
  /** The data directory's generated secrets, as the server writes them (config.ts). */
  const SECRETS = {
    'jwt-secret': JWT_SECRET,
    'gateway-secret': randomBytes(32).toString('base64url'),
  };
  const droppers: (() => Promise<void>)[] = [];
  const opened: TestApi[] = [];
  let api: TestApi;
  let token: string;

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

  /** The shop with its secrets, its origin, the account's orders, the complaint and the invoice copy. */
  async function start() {
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
    const variantIds = await stockedLightVariants(api.db, 2);
    const delivered = await placeOrder(variantIds[0]!, 2);
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
    const complaint = ((await filed.json()) as { data: Complaint }).data;

    const invoice = await operator(`/api/operator/orders/${delivered.number}/invoice`);
    expect(invoice.status).toBe(200);
    const invoiceFile = (invoice.body as { data: { file: string } }).data.file;
    return { api, token, delivered, invoiceFile, complaint, variantIds };
  }

  /** Closes every shop the file started and drops the databases its restores made. */
  async function stop() {
    for (const shop of opened.splice(0).reverse()) await shop.close();
    for (const drop of droppers.splice(0)) await drop();
  }

  return { EMAIL, PASSWORD, PHOTO, SECRETS, start, stop, startShop, closeShop, placeOrder, emptyTarget };
}

/** The jobs not done yet: the outbox table on SQLite, pg-boss's queue on PostgreSQL. */
export async function queuedJobs(db: Db, dialect: DialectName): Promise<unknown[]> {
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
export async function snapshot(shop: TestApi) {
  const tables: Record<string, string[]> = {};
  for (const table of TABLES) {
    const { rows } = await sql`select * from ${sql.table(table)}`.execute(shop.db);
    tables[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  const stock = await shop.db.selectFrom('variants').select(['v_id', 'v_stock']).orderBy('v_id').execute();
  return { tables, stock, jobs: await queuedJobs(shop.db, shop.dialect) };
}

/** What a backup of `shop` reads: its database, data directory, file store (`files`) and release origin. */
export const sources = (
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

/** A clock the tests move by hand, far from the real one so no backup name can collide with another test's. */
export function testClock(start: string) {
  let time = Date.parse(start);
  return { now: () => new Date(time), advance: (ms: number) => (time += ms), at: () => time };
}

/** A destination whose writes fail for the files `fails` picks, as a full disk would. */
export function failingWrites(inner: BackupDestination, fails: (path: string) => boolean): BackupDestination {
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
