/**
 * The worker's backups, every `intervalMs`. When the next one is due comes from the database (the
 * start of the last attempt, whoever made it, plus the interval), so a restart does not take an
 * extra backup, a failed one is tried again one interval after it started, and of several workers
 * only the one holding the backup lock takes a due backup: the others find it taken, or not due.
 */
import { lastAttemptStart } from './status.repository.ts';
import { withBackupLock } from './lock.ts';
import { takeRecordedBackup, type RecordedBackupOptions } from './recorded-backup.ts';

/** Runs `run` after `ms` milliseconds; answers how to cancel it (tests pass one they fire themselves). */
export type BackupTimer = (run: () => void, ms: number) => () => void;

const realTimer: BackupTimer = (run, ms) => {
  const timer = setTimeout(run, ms);
  // A pending backup never keeps the process alive.
  timer.unref();
  return () => clearTimeout(timer);
};

/** The first backup of a shop that has none: soon after the start, not at once (a start is busy enough). */
export const FIRST_BACKUP_DELAY_MS = 10 * 60_000;
/** setTimeout's longest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export type BackupScheduleOptions = RecordedBackupOptions & { intervalMs: number; timer?: BackupTimer };

export type BackupSchedule = {
  /** Resolves once the first check is armed. */
  ready: Promise<void>;
  /** Takes the backup now if it is due (and this process gets the lock), then arms the next check. */
  tick(): Promise<void>;
  /** Stops the schedule; a running backup is stopped and leaves nothing complete-looking. */
  stop(): Promise<void>;
};

export function startBackupSchedule(options: BackupScheduleOptions): BackupSchedule {
  const { db, dialect, intervalMs, log } = options;
  if (!(intervalMs > 0)) throw new Error('A backup schedule needs an interval above zero.');
  const now = options.now ?? (() => new Date());
  const timer = options.timer ?? realTimer;
  const firstDue = now().getTime() + Math.min(FIRST_BACKUP_DELAY_MS, intervalMs);
  const controller = new AbortController();
  let cancel: (() => void) | null = null;
  let stopped = false;
  let running: Promise<void> | null = null;

  const dueAt = async () => {
    const last = await lastAttemptStart(db);
    return last === null ? firstDue : last + intervalMs;
  };

  const arm = (at: number) => {
    if (stopped) return;
    cancel?.();
    cancel = timer(() => void tick(), Math.min(MAX_TIMER_MS, Math.max(0, at - now().getTime())));
  };

  async function check(): Promise<number> {
    const locked = await withBackupLock(db, dialect, async () => {
      const due = await dueAt();
      if (due > now().getTime()) return due;
      // A failure is recorded and logged there; the next attempt is one interval after this one.
      await takeRecordedBackup({ ...options, now, signal: controller.signal });
      return dueAt();
    });
    // Held elsewhere: another worker is taking the backup that was due.
    return locked.held ? locked.value : now().getTime() + intervalMs;
  }

  function tick(): Promise<void> {
    if (stopped) return Promise.resolve();
    running ??= check()
      .catch((error: unknown) => {
        log.error({ err: error }, 'backup schedule could not check for a due backup; trying again at the next interval');
        return now().getTime() + intervalMs;
      })
      .then(arm)
      .finally(() => {
        running = null;
      });
    return running;
  }

  const ready = dueAt()
    .catch((error: unknown) => {
      log.error({ err: error }, 'backup schedule could not read the last backup');
      return firstDue;
    })
    .then(arm);

  return {
    ready,
    tick,
    async stop() {
      stopped = true;
      cancel?.();
      controller.abort();
      await running;
    },
  };
}
