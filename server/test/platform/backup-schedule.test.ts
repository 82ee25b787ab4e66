/**
 * When backups are taken and where they are recorded, on the real database (SQLite, or PostgreSQL
 * with DATABASE_URL): the worker's schedule (clock and timer injected) takes a due backup once among
 * several workers and retries a failure an interval later; the last success and failure are on /ops
 * and in every server's metrics.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupOverview } from '@shop/shared-kernel/contract';
import { directoryDestination } from '../../src/backup/directory-destination.ts';
import { backupNameOf } from '../../src/backup/manifest.ts';
import { takeRecordedBackup } from '../../src/backup/recorded-backup.ts';
import { FIRST_BACKUP_DELAY_MS, startBackupSchedule, type BackupTimer } from '../../src/backup/schedule.ts';
import { readBackupStatus } from '../../src/backup/status.repository.ts';
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
