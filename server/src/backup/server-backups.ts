/**
 * The server's part in backups: a process that runs background jobs (ROLE all or worker) takes
 * them on the schedule of BACKUP_INTERVAL_MS; every server shows their record (/ops, metrics).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import { readBackupStatus, type BackupStatus } from './status.repository.ts';
import { destinationFromSettings, readBackupSettings } from './settings.ts';
import { startBackupSchedule } from './schedule.ts';
import type { BackupSources } from './take-backup.ts';

export type ServerBackupOptions = BackupSources & { env: NodeJS.ProcessEnv };

/**
 * Starts the schedule; answers a line saying what it does, and `close()` for the process's stop (a
 * running backup is stopped and leaves nothing complete-looking).
 */
export function scheduleBackups(log: FastifyBaseLogger, options: ServerBackupOptions): { description: string; close(): Promise<void> } {
  const { env, ...sources } = options;
  const settings = readBackupSettings(env, sources.dataDir);
  const destination = destinationFromSettings(settings, env);
  if (settings.intervalMs === 0) {
    return {
      description: `backups: not scheduled (BACKUP_INTERVAL_MS=0); npm run backup takes one into ${destination.describe()}`,
      close: async () => undefined,
    };
  }
  const schedule = startBackupSchedule({
    ...sources,
    destination,
    keep: settings.keep,
    intervalMs: settings.intervalMs,
    log: log.child({ component: 'backup' }),
  });
  const ms = settings.intervalMs;
  const every = ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${ms / 1000} s`;
  return {
    description: `backups: every ${every} into ${destination.describe()}, keeping the newest ${settings.keep} (BACKUP_INTERVAL_MS, BACKUP_DIR or BACKUP_S3_PREFIX, BACKUP_KEEP)`,
    close: () => schedule.stop(),
  };
}

/** What /ops shows: the record, and how often the schedule runs (this server's setting). */
export type BackupOverview = BackupStatus & { intervalMs: number };

export function backupOverview(db: Db, env: NodeJS.ProcessEnv, dataDir: string): () => Promise<BackupOverview> {
  // A bad setting is the worker's to report at its start; here the page still shows the record.
  const intervalMs = (() => {
    try {
      return readBackupSettings(env, dataDir).intervalMs;
    } catch {
      return 0;
    }
  })();
  return async () => ({ ...(await readBackupStatus(db)), intervalMs });
}
