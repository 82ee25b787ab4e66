/**
 * The outbox: every side effect that must happen (an e-mail, a refund, a payment cancellation) is
 * written as a job in the same transaction as its cause, so a crash either loses both or neither.
 * A worker carries the jobs out after the commit, at least once: a job is taken with a lease
 * (a conditional update, safe with several workers), marked done only after its handler
 * succeeded, and retried with exponential back-off on failure until it gives up ("dead", logged
 * and counted). A job interrupted by a crash is taken again when its lease runs out, so handlers
 * must be idempotent towards the outside world (e-mails carry a stable Message-ID derived from the
 * job, the gateway's refund and cancel are idempotent per payment).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTrx } from '../db/database.ts';
import { insertJob, OutboxRepository } from './outbox.repository.ts';

export type OutboxJob = { id: number; topic: string; key: string; payload: unknown; attempts: number };
export type JobHandler = (job: OutboxJob) => Promise<void>;

export type OutboxOptions = {
  /** How often the worker looks for due jobs besides being kicked after a commit (ms). */
  pollMs: number;
  /** How long a taken job is held before another worker may take it (ms). */
  leaseMs: number;
  /** Attempts before a job is given up. */
  maxAttempts: number;
  /** First retry delay; doubled per attempt up to maxBackoffMs. */
  backoffMs: number;
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

/** Records a job in the caller's transaction; a second job with the same key is ignored. */
export async function enqueue(db: DbOrTrx, topic: string, key: string, payload: unknown): Promise<void> {
  await insertJob(db, topic, key, payload);
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
  private readonly jobs: OutboxRepository;

  constructor(
    db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly events: OutboxEvents,
    private readonly options: OutboxOptions = DEFAULT_OUTBOX,
  ) {
    this.jobs = new OutboxRepository(db);
  }

  /** Registers what carries out the jobs of a topic. */
  handle(topic: string, handler: JobHandler): void {
    this.handlers.set(topic, handler);
  }

  start(): void {
    if (!this.stopped) return;
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
      const due = await this.jobs.dueIds(Date.now(), 1);
      if (due.length === 0 && !this.polling && this.running === 0) return;
      if ((await this.runDue()) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Resolves when no job of this worker is running. */
  private async settled(): Promise<void> {
    while (this.running > 0) await new Promise<void>((resolve) => this.settledWaiters.push(resolve));
  }

  /** Jobs waiting (pending, due or not) and given up, for metrics and readiness. */
  async backlog(): Promise<{ pending: number; dead: number }> {
    const rows = await this.jobs.countsByStatus();
    const count = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
    return { pending: count('pending'), dead: count('dead') };
  }

  private async poll(): Promise<void> {
    while (!this.stopped && (await this.runDue()) > 0) {
      // Keep going while jobs are found; each round takes up to the free slots.
    }
  }

  /** Takes due jobs up to the free slots, starts them, and answers how many it took. */
  private async runDue(): Promise<number> {
    const free = this.options.concurrency - this.running;
    if (free <= 0) return 0;
    const now = Date.now();
    const candidates = await this.jobs.dueIds(now, free);
    let taken = 0;
    for (const job_id of candidates) {
      const job = await this.claim(job_id, now);
      if (!job) continue;
      taken += 1;
      this.running += 1;
      void this.execute(job).finally(() => {
        this.running -= 1;
        if (this.running === 0) for (const resolve of this.settledWaiters.splice(0)) resolve();
      });
    }
    return taken;
  }

  /** Takes a job with a lease; another worker that took it first makes this answer null. */
  private async claim(jobId: number, now: number): Promise<OutboxJob | null> {
    const row = await this.jobs.claim(jobId, now, now + this.options.leaseMs);
    if (!row) return null;
    return { id: row.job_id, topic: row.topic, key: row.job_key, payload: JSON.parse(row.payload) as unknown, attempts: row.attempts };
  }

  private async execute(job: OutboxJob): Promise<void> {
    const handler = this.handlers.get(job.topic);
    try {
      if (!handler) throw new Error(`no handler for outbox topic ${job.topic}`);
      await handler(job);
      await this.jobs.markDone(job.id);
      this.events.done(job.topic);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const dead = job.attempts >= this.options.maxAttempts;
      const delay = Math.min(this.options.backoffMs * 2 ** (job.attempts - 1), this.options.maxBackoffMs);
      await this.jobs
        .markFailed(job.id, dead, Date.now() + delay, message)
        .catch((e: unknown) => this.log.error({ err: e, jobId: job.id }, 'outbox could not record a failure'));
      if (dead) {
        this.log.error({ err: error, jobId: job.id, topic: job.topic, key: job.key, attempts: job.attempts }, 'outbox job gave up');
        this.events.dead(job.topic);
      } else {
        this.log.warn({ err: error, jobId: job.id, topic: job.topic, key: job.key, attempts: job.attempts, retryInMs: delay }, 'outbox job failed, will retry');
        this.events.retry(job.topic);
      }
    }
  }
}
