import type { Selectable } from 'kysely';

/**
 * The last backup that succeeded and the last that failed (one row each, by `outcome`), written by
 * whichever process took it, so that every server can show them on /ops and in its metrics.
 */
export interface BackupStatusTable {
  /** success | failure. */
  outcome: string;
  /** The backup's name (its UTC start time), also for a failed one. */
  name: string;
  /** Where it went (a directory or an S3 location). */
  destination: string;
  /** ISO, UTC. */
  started_at: string;
  finished_at: string;
  duration_ms: number;
  /** Bytes written (a success); null for a failure. */
  bytes: number | null;
  /** Why it failed; null for a success. */
  error: string | null;
  /** Failures so far (kept on the failure row; 0 on the success row). */
  failures: number;
}

export type BackupStatusRow = Selectable<BackupStatusTable>;
