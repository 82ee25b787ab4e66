/**
 * The outbox worker on the real database (the table on SQLite, pg-boss on PostgreSQL): a job
 * commits with its cause or not at all, runs at least once with retries and back-off, gives up
 * visibly, is taken by one worker only when several run, and is taken again when the worker that
 * held it stalled or died.
 */
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, OutboxWorker, type JobHandler, type OutboxOptions } from '../../src/infra/outbox/outbox.ts';
import { PgBossJobStore } from '../../src/infra/outbox/outbox-pg-boss.repository.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

const FAST: OutboxOptions = { pollMs: 20, leaseMs: 5_000, maxAttempts: 3, backoffMs: 0, maxBackoffMs: 0, concurrency: 4 };
type Logged = { level: string; obj: Record<string, unknown>; msg: string };

async function worker(
  topic: string,
  handler: JobHandler,
  options: Partial<OutboxOptions> = {},
  logged: Logged[] = [],
  events: string[] = [],
) {
  const log = (level: string) => (obj: Record<string, unknown>, msg: string) => void logged.push({ level, obj, msg });
  const logger = { error: log('error'), warn: log('warn'), info: log('info') } as unknown as FastifyBaseLogger;
  const w = new OutboxWorker(
    api.db,
    logger,
    {
      done: (t) => events.push(`done:${t}`),
      retry: (t) => events.push(`retry:${t}`),
      dead: (t) => events.push(`dead:${t}`),
    },
    { ...FAST, ...options },
  );
  w.handle(topic, handler);
  await w.prepare();
  return w;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  for (const deadline = Date.now() + ms; !check(); await sleep(20))
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
}

describe('outbox', () => {
  it('a job queued in a transaction that rolls back never runs; one key queues one job', async () => {
    const runs: { key: string; payload: unknown }[] = [];
    const w = await worker('test', async (job) => void runs.push({ key: job.key, payload: job.payload }));
    await api.db
      .transaction()
      .execute(async (trx) => {
        await enqueue(trx, 'test', 'rolled-back', {});
        throw new Error('cause failed');
      })
      .catch(() => undefined);
    await enqueue(api.db, 'test', 'once', { n: 1 });
    await enqueue(api.db, 'test', 'once', { n: 2 });
    await w.drain();
    expect(runs).toEqual([{ key: 'once', payload: { n: 1 } }]);
    await w.close();
  });

  // The table accepts every topic; pg-boss needs the topic's queue, and the send says when it is missing.
  it.skipIf(!process.env.DATABASE_URL)(
    'on PostgreSQL (pg-boss), a job for a topic nobody prepared is refused, not lost silently',
    async () => {
      await expect(enqueue(api.db, 'never-prepared', 'lost-1', {})).rejects.toThrow(/has no queue/);
    },
  );

  it('retries a failing job with back-off until it succeeds', { timeout: 20_000 }, async () => {
    const events: string[] = [];
    const attempts: number[] = [];
    const w = await worker(
      'flaky',
      async (job) => {
        attempts.push(Date.now());
        if (job.attempts < 3) throw new Error(`try ${job.attempts} failed`);
      },
      { backoffMs: 1000, maxBackoffMs: 10_000 },
      [],
      events,
    );
    await enqueue(api.db, 'flaky', 'flaky-1', {});
    await w.start();
    await until('the third attempt', () => events.includes('done:flaky'));
    await w.close();
    expect(events).toEqual(['retry:flaky', 'retry:flaky', 'done:flaky']);
    expect(attempts).toHaveLength(3);
    // The first back-off is a second, the second at least twice that.
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(950);
    expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(1950);
  });

  it('gives up after the last attempt: the job is dead, logged with its error, and counted', async () => {
    const logged: Logged[] = [];
    const events: string[] = [];
    const w = await worker(
      'broken',
      async () => {
        throw new Error('SMTP refused');
      },
      {},
      logged,
      events,
    );
    await enqueue(api.db, 'broken', 'broken-1', {});
    await w.start();
    await until('the job to give up', () => events.includes('dead:broken'));
    await w.close();
    // Without back-off (FAST) the last attempt may run and give up before the second one has reported
    // its retry (the test below): what each reports is fixed, not the order the reports arrive in.
    expect([...events].sort()).toEqual(['dead:broken', 'retry:broken', 'retry:broken']);
    expect(logged.filter((l) => l.level === 'warn')).toHaveLength(2);
    const gaveUp = logged.find((l) => l.level === 'error');
    expect(gaveUp).toMatchObject({ msg: 'outbox job gave up', obj: { topic: 'broken', key: 'broken-1', attempts: 3 } });
    expect((gaveUp!.obj.err as Error).message).toBe('SMTP refused');
    expect(await w.backlog()).toMatchObject({ dead: 1 });
  });

  // The interleaving that made a worker report one job dead twice: with no back-off, the job's next
  // attempt ran, and failed for good, between the second attempt's failure and its look at the job.
  it.skipIf(!process.env.DATABASE_URL)(
    'on PostgreSQL, a failure reports what it did itself, whatever a later attempt did meanwhile',
    async () => {
      const store = new PgBossJobStore(api.db, FAST);
      await store.prepare(['interleaved']);
      const deadBefore = (await store.backlog()).dead;
      await enqueue(api.db, 'interleaved', 'interleaved-1', {});
      const attempt = async () => (await store.take(['interleaved'], 1))[0]!;
      const first = await attempt();
      expect(await store.failed(first, 'first')).toMatchObject({ dead: false });
      const second = await attempt();
      expect(second.attempts).toBe(2);
      const boss = (store as unknown as { boss: { getJobById: (...args: unknown[]) => Promise<unknown> } }).boss;
      const read = boss.getJobById.bind(boss);
      let third: Awaited<ReturnType<typeof store.failed>> | null = null;
      boss.getJobById = async (...args: unknown[]) => {
        boss.getJobById = read;
        third = await store.failed(await attempt(), 'third');
        return read(...args);
      };
      expect(await store.failed(second, 'second')).toMatchObject({ dead: false });
      expect(third).toEqual({ dead: true, retryInMs: null });
      expect((await store.backlog()).dead).toBe(deadBefore + 1);
      await store.close();
    },
  );

  it('two workers on one database run each job exactly once', async () => {
    const runs = new Map<string, number>();
    const count: JobHandler = async (job) => {
      await sleep(5);
      runs.set(job.key, (runs.get(job.key) ?? 0) + 1);
    };
    const workers = [await worker('pair', count), await worker('pair', count)];
    for (let i = 0; i < 40; i++) await enqueue(api.db, 'pair', `pair-${i}`, {});
    await Promise.all(workers.map((w) => w.drain()));
    expect(runs.size).toBe(40);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    await Promise.all(workers.map((w) => w.close()));
  });

  it('a job held by a worker that stalled is taken by another when its lease runs out', { timeout: 20_000 }, async () => {
    let release: () => void = () => undefined;
    let stalledTook = 0;
    // One slot, and its handler never returns: what a hung or killed worker leaves behind.
    const stalled = await worker(
      'orphan',
      async () => {
        stalledTook += 1;
        await new Promise<void>((resolve) => (release = resolve));
      },
      { leaseMs: 1000, concurrency: 1 },
    );
    await enqueue(api.db, 'orphan', 'orphan-1', {});
    await stalled.start();
    await until('the stalled worker to take the job', () => stalledTook === 1);
    const ran: number[] = [];
    const healthy = await worker('orphan', async (job) => void ran.push(job.attempts), { leaseMs: 1000 });
    await healthy.drain();
    expect(ran).toEqual([]); // still held
    await healthy.start();
    await until('the job to be taken again', () => ran.length > 0);
    expect(ran).toEqual([2]);
    release();
    await Promise.all([stalled.close(), healthy.close()]);
    expect(stalledTook).toBe(1);
  });
});
