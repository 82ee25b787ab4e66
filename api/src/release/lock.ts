/**
 * One release at a time: a lock file on the origin, created exclusively.
 * A second release waits for it (serialised); past the wait it is refused
 * with a clear message and changes nothing.
 */
import { hostname } from 'node:os';
import { ReleaseRefused } from './refusal.ts';
import type { ReleaseStorage } from './storage.ts';

export const LOCK_KEY = 'builds/.release.lock';

type LockInfo = { pid: number; host: string; since: string; what: string };

export async function withReleaseLock<T>(
  storage: ReleaseStorage,
  what: string,
  action: () => Promise<T>,
  options: { waitMs?: number; pollMs?: number } = {},
): Promise<T> {
  const waitMs = options.waitMs ?? Number(process.env.RELEASE_LOCK_WAIT_MS ?? 60_000);
  const pollMs = options.pollMs ?? 100;
  const info: LockInfo = { pid: process.pid, host: hostname(), since: new Date().toISOString(), what };
  const deadline = Date.now() + waitMs;
  while (!(await storage.createExclusive(LOCK_KEY, JSON.stringify(info)))) {
    if (Date.now() >= deadline) {
      const held = await storage.readText(LOCK_KEY);
      const holder = held ? (JSON.parse(held) as LockInfo) : null;
      throw new ReleaseRefused(
        'lock_held',
        holder
          ? `Another release holds the lock: ${holder.what} (pid ${holder.pid} on ${holder.host} since ${holder.since}). Nothing was changed. If that process is gone, remove ${LOCK_KEY} on the origin.`
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
