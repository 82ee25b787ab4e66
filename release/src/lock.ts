/**
 * One release at a time: a lock file on the origin, created exclusively, that
 * records its holder. A second release waits for it (serialised); past the
 * wait it is refused with a clear message and changes nothing. A lock whose
 * process is gone (same host), or older than the limit, is stale: it is
 * broken with a log line, so a crashed release never blocks a 3 a.m. rollback.
 */
import { hostname } from 'node:os';
import { ReleaseRefused } from './refusal.ts';
import type { ReleaseStorage } from './storage.ts';

export const LOCK_KEY = 'builds/.release.lock';
/** A release that holds the lock longer than this is taken to be dead (a build is not part of the locked work). */
export const DEFAULT_LOCK_MAX_AGE_MS = 10 * 60_000;

export type LockInfo = { pid: number; host: string; since: string; what: string };
export type HeldLock = LockInfo & { stale: boolean; staleBecause: string | null };

type LockOptions = { waitMs?: number; pollMs?: number; maxAgeMs?: number; log?: (line: string) => void };

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function staleness(info: LockInfo, maxAgeMs: number, now = Date.now()): string | null {
  if (info.host === hostname() && Number.isInteger(info.pid) && !processAlive(info.pid)) return `its process ${info.pid} is gone`;
  const age = now - Date.parse(info.since);
  if (!Number.isFinite(age) || age > maxAgeMs) return `it is older than ${Math.round(maxAgeMs / 60_000)} min`;
  return null;
}

const maxAge = (options: LockOptions) => options.maxAgeMs ?? Number(process.env.RELEASE_LOCK_MAX_AGE_MS ?? DEFAULT_LOCK_MAX_AGE_MS);

function parse(text: string | null): LockInfo | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as LockInfo;
  } catch {
    // A half-written lock (the holder died while writing it) is as good as a dead holder's.
    return { pid: -1, host: '?', since: new Date(0).toISOString(), what: 'unknown (unreadable lock)' };
  }
}

/** The lock as it stands, for status and /ops: who holds it and whether it is stale. */
export async function readLock(storage: ReleaseStorage, options: LockOptions = {}): Promise<HeldLock | null> {
  const info = parse(await storage.readText(LOCK_KEY));
  if (!info) return null;
  const because = staleness(info, maxAge(options));
  return { ...info, stale: because !== null, staleBecause: because };
}

/**
 * Breaks the lock if (and only if) it is still the stale one that was read: it is moved
 * aside under a unique name first, and put back if another release replaced it meanwhile.
 */
async function breakStaleLock(storage: ReleaseStorage, seen: string, because: string, log: (line: string) => void): Promise<void> {
  const aside = `${LOCK_KEY}.broken-${process.pid}-${Date.now()}`;
  if (!(await storage.rename(LOCK_KEY, aside))) return;
  const moved = await storage.readText(aside);
  if (moved !== seen) {
    // Someone else's fresh lock: give it back (if they have not finished meanwhile).
    if (moved !== null) await storage.createExclusive(LOCK_KEY, moved);
    await storage.remove(aside);
    return;
  }
  await storage.remove(aside);
  log(`broke a stale release lock (${because}): ${seen}`);
}

export async function withReleaseLock<T>(
  storage: ReleaseStorage,
  what: string,
  action: () => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const waitMs = options.waitMs ?? Number(process.env.RELEASE_LOCK_WAIT_MS ?? 60_000);
  const pollMs = options.pollMs ?? 100;
  const log = options.log ?? ((line: string) => process.stderr.write(`[release] ${line}\n`));
  const info: LockInfo = { pid: process.pid, host: hostname(), since: new Date().toISOString(), what };
  const deadline = Date.now() + waitMs;
  while (!(await storage.createExclusive(LOCK_KEY, JSON.stringify(info)))) {
    const seen = await storage.readText(LOCK_KEY);
    const holder = parse(seen);
    const because = holder ? staleness(holder, maxAge(options)) : null;
    if (seen !== null && because) {
      await breakStaleLock(storage, seen, because, log);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new ReleaseRefused(
        'lock_held',
        holder
          ? `Another release holds the lock: ${holder.what} (pid ${holder.pid} on ${holder.host} since ${holder.since}). Nothing was changed. It is broken automatically once its process is gone or after ${Math.round(maxAge(options) / 60_000)} min.`
          : 'Another release holds the lock. Nothing was changed.',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  try {
    return await action();
  } finally {
    await storage.remove(LOCK_KEY);
  }
}
