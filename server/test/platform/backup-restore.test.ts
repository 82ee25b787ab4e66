/**
 * Backups and their restore, on the real database (SQLite, or PostgreSQL with DATABASE_URL): a shop
 * with an account, orders, a complaint photo, an invoice copy and an e-mail not sent yet is backed
 * up, restored into an empty data directory and database, and a new API on the restored data shows
 * all of it as it was at the backup. A changed or lost file is refused before anything is written,
 * a restore over a shop is refused, and --force puts back the backup's database.
 */
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountOrderSummary, Complaint, Paged, PlacedOrder } from '@shop/shared-kernel/contract';
import { directoryDestination, openDirectoryBackup } from '../../src/backup/directory-destination.ts';
import { takeRecordedBackup } from '../../src/backup/recorded-backup.ts';
import { restoreBackup, RestoreRefused } from '../../src/backup/restore.ts';
import { takeBackup } from '../../src/backup/take-backup.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { backupShop, queuedJobs, quiet, snapshot, sources } from '../helpers/backup-shop.ts';
import { tempDir } from '@shop/release/testing';
import type { TestApi } from '../helpers/test-api.ts';

const shop = backupShop();
const { EMAIL, PASSWORD, PHOTO, SECRETS, startShop, closeShop, placeOrder, emptyTarget } = shop;
let api: TestApi;
let token: string;
let delivered: PlacedOrder['order'];
let invoiceFile: string;
let complaint: Complaint;
let variantIds: number[];

beforeAll(async () => {
  ({ api, token, delivered, invoiceFile, complaint, variantIds } = await shop.start());
});
afterAll(async () => {
  await shop.stop();
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
