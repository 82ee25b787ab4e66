/**
 * The outbox on PostgreSQL: pg-boss's queue. A job is sent in the cause's transaction (pg-boss
 * runs its insert on the transaction's connection), taken with `FOR UPDATE SKIP LOCKED` so that
 * exactly one worker gets it, held for the lease (`expireInSeconds`: a job whose worker died is
 * failed by the upkeep and retried), retried with exponential back-off and kept as `failed` once
 * its attempts are spent. Its id is derived from the job's key, so a key queues one job.
 *
 * pg-boss 10 is the line that runs on Node.js 20 (11 and later need 22); it keeps its tables in
 * their own schema, created and migrated by `start()` under an advisory lock (safe when several
 * processes start at once).
 */
import { createHash } from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import PgBoss from 'pg-boss';
import type { Db, DbOrTrx } from '../../db/database.ts';
import type { JobStore, OutboxJob, OutboxOptions } from './outbox.ts';

export const JOBS_SCHEMA = 'pgboss';

type JobData = { key: string; payload: object };

/** pg-boss's way into a database: here the shop's own connection pool, or one transaction's connection. */
function executorOf(db: DbOrTrx): PgBoss.Db {
  return {
    async executeSql(text, values) {
      const result = await db.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: [...result.rows] };
    },
  };
}

/** A job's id from its key: the same key always gives the same id, which pg-boss inserts once. */
export function jobIdOf(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

let sender: PgBoss | null = null;

/** Sends a job in the caller's transaction; a second job with the same key is ignored. */
export async function sendWithPgBoss(db: DbOrTrx, topic: string, key: string, payload: object): Promise<void> {
  // Sending needs no started instance: the insert runs on the connection passed with it.
  sender ??= new PgBoss({
    db: { executeSql: () => Promise.reject(new Error('pg-boss sender has no connection of its own')) },
    schema: JOBS_SCHEMA,
  });
  const id = jobIdOf(key);
  const data: JobData = { key, payload };
  if ((await sender.send(topic, data, { id, db: executorOf(db) })) !== null) return;
  // Nothing inserted: the key's job exists (fine), or the topic has no queue (a job would be lost).
  const existing = await sql`select 1 from ${sql.table(`${JOBS_SCHEMA}.job`)} where name = ${topic} and id = ${id}::uuid`.execute(db);
  if (existing.rows.length === 0) throw new Error(`outbox topic ${topic} has no queue: the job for ${key} was not recorded`);
}

/** The queue's policy from the outbox's options. */
function queuePolicy(options: OutboxOptions): PgBoss.Queue & { name: string } {
  const retryDelay = Math.round(options.backoffMs / 1000);
  return {
    name: '',
    retryLimit: Math.max(0, options.maxAttempts - 1),
    retryDelay,
    retryBackoff: retryDelay > 0,
    expireInSeconds: Math.max(1, Math.ceil(options.leaseMs / 1000)),
  };
}

export class PgBossJobStore implements JobStore {
  private readonly boss: PgBoss;
  private started: Promise<unknown> | null = null;
  private readonly prepared = new Set<string>();
  private lastUpkeep = 0;
  private nextTopic = 0;

  constructor(
    private readonly db: Db,
    private readonly options: OutboxOptions,
  ) {
    // No timers of its own: the worker's poll does the upkeep (maintain), and nothing is scheduled.
    this.boss = new PgBoss({ db: executorOf(db), schema: JOBS_SCHEMA, supervise: false, schedule: false, migrate: true });
    this.boss.on('error', () => undefined); // every call's failure reaches its caller, which logs it
  }

  async prepare(topics: string[]): Promise<void> {
    this.started ??= this.boss.start();
    await this.started;
    for (const topic of topics) {
      if (this.prepared.has(topic)) continue;
      const policy = { ...queuePolicy(this.options), name: topic };
      await this.boss.createQueue(topic, policy);
      await this.boss.updateQueue(topic, policy);
      this.prepared.add(topic);
    }
  }

  async take(topics: string[], limit: number): Promise<OutboxJob[]> {
    await this.prepare(topics);
    const taken: OutboxJob[] = [];
    // Start with a different topic each time, so a busy one does not starve the others.
    this.nextTopic = (this.nextTopic + 1) % Math.max(1, topics.length);
    const order = [...topics.slice(this.nextTopic), ...topics.slice(0, this.nextTopic)];
    for (const topic of order) {
      if (taken.length >= limit) break;
      const jobs = await this.boss.fetch<JobData>(topic, { batchSize: limit - taken.length, includeMetadata: true });
      for (const job of jobs) taken.push({ id: job.id, topic, key: job.data.key, payload: job.data.payload, attempts: job.retryCount + 1 });
    }
    return taken;
  }

  async done(job: OutboxJob): Promise<void> {
    await this.boss.complete(job.topic, job.id);
  }

  async failed(job: OutboxJob, error: string): Promise<{ dead: boolean; retryInMs: number | null }> {
    await this.boss.fail(job.topic, job.id, { message: error.slice(0, 1000) });
    // Whether this failure spent the last attempt follows from the attempt's own number (pg-boss's
    // rule: retried while retryCount < retryLimit). Reading the job's state back would not tell:
    // with no back-off the next attempt may already have run, and failed for good, in between.
    if (job.attempts >= this.options.maxAttempts) return { dead: true, retryInMs: null };
    const after = await this.boss.getJobById(job.topic, job.id);
    return { dead: false, retryInMs: after ? Math.max(0, new Date(after.startAfter).getTime() - Date.now()) : null };
  }

  async backlog(): Promise<{ pending: number; dead: number }> {
    const { rows } = await sql<{ state: string; n: string }>`
      select state, count(*) as n from ${sql.table(`${JOBS_SCHEMA}.job`)} where state in ('created', 'retry', 'active', 'failed') group by state
    `.execute(this.db);
    const count = (states: string[]) => rows.filter((r) => states.includes(r.state)).reduce((sum, r) => sum + Number(r.n), 0);
    return { pending: count(['created', 'retry', 'active']), dead: count(['failed']) };
  }

  /** Jobs whose lease ran out are failed (and so retried); old finished jobs are archived and dropped. */
  async maintain(): Promise<void> {
    const every = Math.max(500, this.options.leaseMs / 2);
    if (Date.now() - this.lastUpkeep < every) return;
    this.lastUpkeep = Date.now();
    await this.prepare([]);
    await this.boss.maintain();
  }

  async close(): Promise<void> {
    if (this.started) await this.boss.stop({ graceful: false, close: false });
  }
}
