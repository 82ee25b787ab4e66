/**
 * A backup as the worker and `npm run backup` take it: its outcome recorded in the database (the
 * last success, the last failure with its cause), and logged.
 */
import { performance } from 'node:perf_hooks';
import { backupNameOf } from './manifest.ts';
import { recordBackupAttempt } from './status.repository.ts';
import { takeBackup, type BackupResult, type TakeBackupOptions } from './take-backup.ts';

/** The part of a pino logger the backups use. */
export type BackupLog = { info(details: object, message: string): void; error(details: object, message: string): void };

export type RecordedBackupOptions = TakeBackupOptions & { log: BackupLog };

export type RecordedBackup = { ok: true; result: BackupResult } | { ok: false; error: Error };

export async function takeRecordedBackup(options: RecordedBackupOptions): Promise<RecordedBackup> {
  const { db, log } = options;
  const now = options.now ?? (() => new Date());
  const started = now();
  const clock = performance.now();
  const record = (attempt: Parameters<typeof recordBackupAttempt>[1]) =>
    recordBackupAttempt(db, attempt).catch((error: unknown) =>
      log.error({ err: error }, 'backup outcome could not be recorded in the database'),
    );
  try {
    const result = await takeBackup({ ...options, now });
    await record({
      name: result.name,
      destination: result.destination,
      startedAt: result.startedAt,
      finishedAt: result.finishedAt,
      durationMs: result.durationMs,
      bytes: result.bytes,
      error: null,
    });
    log.info({ backup: result }, 'backup taken');
    if (result.pruneError) log.error({ backup: { name: result.name, pruneError: result.pruneError } }, 'old backups could not be removed');
    return { ok: true, result };
  } catch (caught) {
    const error = caught instanceof Error ? caught : new Error(String(caught));
    const attempt = {
      name: backupNameOf(started),
      destination: options.destination.describe(),
      startedAt: started.toISOString(),
      finishedAt: now().toISOString(),
      durationMs: performance.now() - clock,
      bytes: null,
      error: error.message,
    };
    await record(attempt);
    log.error({ err: error, backup: attempt }, 'backup failed');
    return { ok: false, error };
  }
}
