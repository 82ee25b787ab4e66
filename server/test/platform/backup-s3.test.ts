/**
 * Backups in an S3 bucket, on the real database (SQLite, or PostgreSQL with DATABASE_URL): taken,
 * the newest kept, an incomplete one skipped and removed, and one restored with the shop's files
 * going to an S3 file store.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listS3 } from '@shop/s3';
import { backupNameOf } from '../../src/backup/manifest.ts';
import { restoreBackup } from '../../src/backup/restore.ts';
import { s3Destination } from '../../src/backup/s3-destination.ts';
import { takeBackup } from '../../src/backup/take-backup.ts';
import { s3FileStore } from '../../src/infra/storage/s3-file-store.ts';
import { backupShop, sources, testClock } from '../helpers/backup-shop.ts';
import { startS3Server, type S3TestServer } from '@shop/release/testing';
import type { TestApi } from '../helpers/test-api.ts';

const shop = backupShop();
const { EMAIL, PHOTO, startShop, emptyTarget } = shop;
let api: TestApi;
let s3: S3TestServer;

beforeAll(async () => {
  s3 = await startS3Server();
  ({ api } = await shop.start());
});
afterAll(async () => {
  await shop.stop();
  await s3?.stop();
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
