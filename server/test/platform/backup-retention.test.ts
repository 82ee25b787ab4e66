/**
 * Which backups are kept, on the real database (SQLite, or PostgreSQL with DATABASE_URL): the newest
 * BACKUP_KEEP, readable by the shop's user only, the older ones removed; an interrupted backup never
 * looks complete (a failed write is cleared and recorded, a crashed half is skipped and removed once
 * abandoned).
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABANDONED_AFTER_MS } from '../../src/backup/destination.ts';
import { directoryDestination, openDirectoryBackup } from '../../src/backup/directory-destination.ts';
import { backupNameOf, MANIFEST_FILE } from '../../src/backup/manifest.ts';
import { takeRecordedBackup } from '../../src/backup/recorded-backup.ts';
import { readBackupStatus } from '../../src/backup/status.repository.ts';
import { takeBackup } from '../../src/backup/take-backup.ts';
import { backupShop, failingWrites, quiet, sources, testClock } from '../helpers/backup-shop.ts';
import { tempDir } from '@shop/release/testing';
import type { TestApi } from '../helpers/test-api.ts';

const shop = backupShop();
let api: TestApi;

beforeAll(async () => {
  ({ api } = await shop.start());
});
afterAll(async () => {
  await shop.stop();
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
