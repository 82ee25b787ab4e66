/**
 * The backups' record in the database (table `backup_status`): the last success and the last
 * failure, written by the process that took the backup, read by every server for /ops and metrics.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { BackupStatusRow } from '../db/backup.table.ts';

export type BackupAttempt = {
  name: string;
  destination: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Bytes written (a success), null for a failure. */
  bytes: number | null;
  /** Why it failed, null for a success. */
  error: string | null;
};

export type BackupStatus = { lastSuccess: BackupAttempt | null; lastFailure: BackupAttempt | null; failures: number };

/** A failure's message as kept: the cause's first lines, not a whole tool output. */
const MAX_ERROR_LENGTH = 2000;

const attemptOf = (row: BackupStatusRow | undefined): BackupAttempt | null =>
  row
    ? {
        name: row.name,
        destination: row.destination,
        startedAt: row.started_at,
        finishedAt: row.finished_at,
        durationMs: Number(row.duration_ms),
        bytes: row.bytes === null ? null : Number(row.bytes),
        error: row.error,
      }
    : null;

export async function recordBackupAttempt(db: Db, attempt: BackupAttempt): Promise<void> {
  const outcome = attempt.error === null ? 'success' : 'failure';
  const values = {
    name: attempt.name,
    destination: attempt.destination,
    started_at: attempt.startedAt,
    finished_at: attempt.finishedAt,
    duration_ms: Math.round(attempt.durationMs),
    bytes: attempt.bytes,
    error: attempt.error === null ? null : attempt.error.slice(0, MAX_ERROR_LENGTH),
  };
  await db
    .insertInto('backup_status')
    .values({ outcome, ...values, failures: outcome === 'failure' ? 1 : 0 })
    .onConflict((conflict) =>
      conflict
        .column('outcome')
        .doUpdateSet((eb) => ({ ...values, failures: outcome === 'failure' ? eb('backup_status.failures', '+', 1) : 0 })),
    )
    .execute();
}

export async function readBackupStatus(db: Db): Promise<BackupStatus> {
  const rows = await db.selectFrom('backup_status').selectAll().execute();
  const success = rows.find((row) => row.outcome === 'success');
  const failure = rows.find((row) => row.outcome === 'failure');
  return { lastSuccess: attemptOf(success), lastFailure: attemptOf(failure), failures: Number(failure?.failures ?? 0) };
}

/** When the last backup attempt (of either outcome) started, ms since the epoch; null before the first. */
export async function lastAttemptStart(db: Db): Promise<number | null> {
  const { lastSuccess, lastFailure } = await readBackupStatus(db);
  const times = [lastSuccess, lastFailure].flatMap((attempt) => (attempt ? [Date.parse(attempt.startedAt)] : []));
  return times.length > 0 ? Math.max(...times) : null;
}

/** The last migration the database ran (Kysely's table), the schema version a backup records. */
export async function lastMigration(db: Db): Promise<string | null> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(db);
  return rows[0]?.name ?? null;
}
