/**
 * The outbox: every side effect that must happen (an e-mail, a refund, a payment cancellation) is
 * written as a job in the same transaction as its cause, so a crash either loses both or neither.
 * A worker carries the jobs out after the commit, at least once: a job is taken with a lease
 * (safe with several workers), marked done only after its handler succeeded, and retried with
 * exponential back-off on failure until it gives up ("dead", logged and counted). A job
 * interrupted by a crash is taken again when its lease runs out, so handlers must be idempotent
 * towards the outside world (e-mails carry a stable Message-ID derived from the job, the
 * gateway's refund and cancel are idempotent per payment).
 *
 * Where the jobs are kept depends on the database (`jobStoreFor`):
 * - PostgreSQL: pg-boss's queue (infra/outbox/outbox-pg-boss.repository.ts), sent in the cause's transaction;
 * - SQLite, the embedded default with one process: the `outbox` table (infra/outbox/outbox.repository.ts).
 * This file is the worker both share: polling, the kick after a commit, concurrency, the events.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTrx } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import { PgBossJobStore, sendWithPgBoss } from './outbox-pg-boss.repository.ts';
import { insertJob, TableJobStore } from './outbox.repository.ts';

/** `attempts` counts this one (1 on the first run). */
export type OutboxJob = { id: string; topic: string; key: string; payload: unknown; attempts: number };
export type JobHandler = (job: OutboxJob) => Promise<void>;

export type OutboxOptions = {
  /** How often the worker looks for due jobs besides being kicked after a commit (ms). */
  pollMs: number;
  /** How long a taken job is held before another worker may take it (ms). */
  leaseMs: number;
  /** Attempts before a job is given up. */
  maxAttempts: number;
  /** First retry delay, doubled per attempt (0: retry at once). */
  backoffMs: number;
  /** The longest retry delay (the table; pg-boss doubles without a ceiling and adds jitter). */
  maxBackoffMs: number;
  /** Jobs run at once by one worker. */
  concurrency: number;
};

export const DEFAULT_OUTBOX: OutboxOptions = {
  pollMs: 1000,
  // Longer than any job takes (gateway calls time out after 10 s); after a crash, the jobs that
  // were running are taken again once it has passed.
  leaseMs: 20_000,
  maxAttempts: 12,
  backoffMs: 2000,
  maxBackoffMs: 15 * 60_000,
  concurrency: 4,
};

/** Where jobs wait and how they are taken: the table or pg-boss. */
export interface JobStore {
  /** Makes ready what the jobs of these topics need (pg-boss: its schema and a queue per topic). */
  prepare(topics: string[]): Promise<void>;
  /** Takes up to `limit` due jobs of these topics, each held for the lease. */
  take(topics: string[], limit: number): Promise<OutboxJob[]>;
  done(job: OutboxJob): Promise<void>;
  /** Records a failed attempt: the job is due again later, or given up. */
  failed(job: OutboxJob, error: string): Promise<{ dead: boolean; retryInMs: number | null }>;
  /** Jobs not done (pending) and given up (dead). */
  backlog(): Promise<{ pending: number; dead: number }>;
  /** Periodic upkeep while a worker runs (pg-boss: jobs whose lease ran out become due again). */
  maintain(): Promise<void>;
  close(): Promise<void>;
}

/** The job store for a database: pg-boss on PostgreSQL, the outbox table on SQLite. */
export function jobStoreFor(db: Db, options: OutboxOptions): JobStore {
  return dialectOf(db) === 'postgres' ? new PgBossJobStore(db, options) : new TableJobStore(db, options);
}

/**
 * Records a job in the caller's transaction; a second job with the same key is ignored.
 * On PostgreSQL the topic's queue must exist (the worker's `prepare`, run when the app starts).
 */
export async function enqueue(db: DbOrTrx, topic: string, key: string, payload: object): Promise<void> {
  if (dialectOf(db) === 'postgres') await sendWithPgBoss(db, topic, key, payload);
  else await insertJob(db, topic, key, payload);
}

export type OutboxEvents = {
  done(topic: string): void;
  retry(topic: string): void;
  dead(topic: string): void;
};

export class OutboxWorker {
  private readonly handlers = new Map<string, JobHandler>();
  private timer: NodeJS.Timeout | null = null;
  private running = 0;
  private polling: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private readonly settledWaiters: (() => void)[] = [];
  private readonly jobs: JobStore;

  constructor(
    db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly events: OutboxEvents,
    private readonly options: OutboxOptions = DEFAULT_OUTBOX,
  ) {
    this.jobs = jobStoreFor(db, options);
  }

  /** Registers what carries out the jobs of a topic. */
  handle(topic: string, handler: JobHandler): void {
    this.handlers.set(topic, handler);
  }

  /** Makes the store ready for the registered topics (every process that queues jobs, before its first request). */
  prepare(extraTopics: string[] = []): Promise<void> {
    return this.jobs.prepare([...this.handlers.keys(), ...extraTopics]);
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    await this.prepare();
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.options.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Stops taking jobs and waits for the running ones (a graceful stop loses nothing). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.polling;
    await this.settled();
  }

  /** Stops and lets the store go (its connections, its upkeep). */
  async close(): Promise<void> {
    await this.stop();
    await this.jobs.close();
  }

  /** Looks for due jobs now (called after a transaction that queued one commits). */
  kick(): void {
    if (this.stopped) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    this.polling = this.poll()
      .catch((error: unknown) => this.log.error({ err: error }, 'outbox poll failed'))
      .finally(() => {
        this.polling = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Runs every job that is due now until none is left (tests and graceful stops). */
  async drain(): Promise<void> {
    for (let round = 0; round < 10_000; round++) {
      await this.polling;
      await this.settled();
      if ((await this.runDue()) === 0 && !this.polling && this.running === 0) return;
    }
  }

  /** Resolves when no job of this worker is running. */
  private async settled(): Promise<void> {
    while (this.running > 0) await new Promise<void>((resolve) => this.settledWaiters.push(resolve));
  }

  /** Jobs waiting (pending, due or not) and given up, for metrics and readiness. */
  backlog(): Promise<{ pending: number; dead: number }> {
    return this.jobs.backlog();
  }

  private async poll(): Promise<void> {
    await this.jobs.maintain();
    while (!this.stopped && (await this.runDue()) > 0) {
      // Keep going while jobs are found; each round takes up to the free slots.
    }
  }

  /** Takes due jobs up to the free slots, starts them, and answers how many it took. */
  private async runDue(): Promise<number> {
    const free = this.options.concurrency - this.running;
    if (free <= 0 || this.handlers.size === 0) return 0;
    const taken = await this.jobs.take([...this.handlers.keys()], free);
    for (const job of taken) {
      this.running += 1;
      void this.execute(job).finally(() => {
        this.running -= 1;
        if (this.running === 0) for (const resolve of this.settledWaiters.splice(0)) resolve();
      });
    }
    return taken.length;
  }

  private async execute(job: OutboxJob): Promise<void> {
    const handler = this.handlers.get(job.topic);
    try {
      if (!handler) throw new Error(`no handler for outbox topic ${job.topic}`);
      await handler(job);
      await this.jobs.done(job);
      this.events.done(job.topic);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const outcome = await this.jobs.failed(job, message).catch((e: unknown) => {
        this.log.error({ err: e, jobId: job.id }, 'outbox could not record a failure');
        return null;
      });
      const context = { err: error, jobId: job.id, topic: job.topic, key: job.key, attempts: job.attempts };
      if (outcome?.dead) {
        this.log.error(context, 'outbox job gave up');
        this.events.dead(job.topic);
      } else {
        this.log.warn({ ...context, retryInMs: outcome?.retryInMs ?? null }, 'outbox job failed, will retry');
        this.events.retry(job.topic);
      }
    }
  }
}
