/**
 * The outbox worker on the real database: a job commits with its cause or not at all, runs at
 * least once with retries and back-off, gives up visibly, is taken by one worker only when
 * several run, and is taken again when the worker that held it died.
 */
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, OutboxWorker, type OutboxOptions } from '../src/lib/outbox.ts';
import { startTestApi, type TestApi } from './helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

const FAST: OutboxOptions = { pollMs: 20, leaseMs: 5_000, maxAttempts: 3, backoffMs: 10, maxBackoffMs: 40, concurrency: 4 };
type Logged = { level: string; obj: Record<string, unknown>; msg: string };

function worker(logged: Logged[] = [], events: string[] = [], options: Partial<OutboxOptions> = {}) {
  const log = (level: string) => (obj: Record<string, unknown>, msg: string) => void logged.push({ level, obj, msg });
  const logger = { error: log('error'), warn: log('warn'), info: log('info') } as unknown as FastifyBaseLogger;
  return new OutboxWorker(api.db, logger, {
    done: (t) => events.push(`done:${t}`),
    retry: (t) => events.push(`retry:${t}`),
    dead: (t) => events.push(`dead:${t}`),
  }, { ...FAST, ...options });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const row = (key: string) => api.db.selectFrom('outbox').selectAll().where('job_key', '=', key).executeTakeFirstOrThrow();

describe('outbox', () => {
  it('a job queued in a transaction that rolls back never exists; one key queues one job', async () => {
    await api.db.transaction().execute(async (trx) => {
      await enqueue(trx, 'test', 'rolled-back', {});
      throw new Error('cause failed');
    }).catch(() => undefined);
    expect(await api.db.selectFrom('outbox').select('job_id').where('job_key', '=', 'rolled-back').execute()).toHaveLength(0);
    await enqueue(api.db, 'test', 'once', { n: 1 });
    await enqueue(api.db, 'test', 'once', { n: 2 });
    const rows = await api.db.selectFrom('outbox').selectAll().where('job_key', '=', 'once').execute();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.payload)).toEqual({ n: 1 });
    await api.db.deleteFrom('outbox').where('job_key', '=', 'once').execute(); // no handler: keep it out of the next tests
  });

  it('retries a failing job with back-off until it succeeds', async () => {
    const events: string[] = [];
    const w = worker([], events);
    const attempts: number[] = [];
    w.handle('flaky', async (job) => {
      attempts.push(Date.now());
      if (job.attempts < 3) throw new Error(`try ${job.attempts} failed`);
    });
    await enqueue(api.db, 'flaky', 'flaky-1', {});
    w.start();
    for (let i = 0; i < 100 && !events.includes('done:flaky'); i++) await sleep(20);
    await w.stop();
    expect(events).toEqual(['retry:flaky', 'retry:flaky', 'done:flaky']);
    expect(attempts).toHaveLength(3);
    expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(19); // the second back-off is twice the first (10 ms, then 20 ms)
    expect(await row('flaky-1')).toMatchObject({ status: 'done', attempts: 3, last_error: null });
  });

  it('gives up after the last attempt: the job is dead, its error kept and logged', async () => {
    const logged: Logged[] = [];
    const events: string[] = [];
    const w = worker(logged, events);
    w.handle('broken', async () => {
      throw new Error('SMTP refused');
    });
    await enqueue(api.db, 'broken', 'broken-1', {});
    w.start();
    for (let i = 0; i < 100 && !events.includes('dead:broken'); i++) await sleep(20);
    await w.stop();
    expect(await row('broken-1')).toMatchObject({ status: 'dead', attempts: 3, last_error: 'SMTP refused' });
    expect(logged.filter((l) => l.level === 'warn')).toHaveLength(2);
    expect(logged.find((l) => l.level === 'error')).toMatchObject({ msg: 'outbox job gave up', obj: { topic: 'broken', key: 'broken-1', attempts: 3 } });
    expect(await w.backlog()).toMatchObject({ dead: 1 });
  });

  it('two workers on one database run each job exactly once', async () => {
    const runs = new Map<string, number>();
    const workers = [worker(), worker()];
    for (const w of workers) {
      w.handle('pair', async (job) => {
        await sleep(5);
        runs.set(job.key, (runs.get(job.key) ?? 0) + 1);
      });
    }
    for (let i = 0; i < 40; i++) await enqueue(api.db, 'pair', `pair-${i}`, {});
    await Promise.all(workers.map((w) => w.drain()));
    expect(runs.size).toBe(40);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
  });

  it('a job held by a worker that died is taken again when its lease runs out', async () => {
    await enqueue(api.db, 'orphan', 'orphan-1', {});
    // What a worker killed mid-job leaves behind: attempted once, still pending, leased.
    await api.db.updateTable('outbox').set({ attempts: 1, locked_until: new Date(Date.now() + 200).toISOString() }).where('job_key', '=', 'orphan-1').execute();
    const ran: number[] = [];
    const w = worker();
    w.handle('orphan', async (job) => void ran.push(job.attempts));
    await w.drain();
    expect(ran).toEqual([]); // still held
    await sleep(250);
    await w.drain();
    expect(ran).toEqual([2]);
    expect(await row('orphan-1')).toMatchObject({ status: 'done' });
  });
});
