/**
 * The outbox table: the job store of the embedded default (SQLite, one process). Jobs are
 * recorded with their cause and taken by workers with a lease (one conditional update each).
 */
import type { Db, DbOrTrx } from '../../db/database.ts';
import type { JobStore, OutboxJob, OutboxOptions } from './outbox.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** Records a job in the caller's transaction; a second job with the same key is ignored. */
export async function insertJob(db: DbOrTrx, topic: string, key: string, payload: object): Promise<void> {
  const now = iso(Date.now());
  await db
    .insertInto('outbox')
    .values({
      topic,
      job_key: key,
      payload: JSON.stringify(payload),
      run_after: now,
      created_at: now,
      locked_until: null,
      last_error: null,
      done_at: null,
    })
    .onConflict((oc) => oc.column('job_key').doNothing())
    .execute();
}

export class TableJobStore implements JobStore {
  constructor(
    private readonly db: Db,
    private readonly options: OutboxOptions,
  ) {}

  async prepare(): Promise<void> {
    // The table comes with the database's migrations.
  }

  async maintain(): Promise<void> {
    // A lapsed lease is part of what makes a job due (dueIds).
  }

  async close(): Promise<void> {}

  async take(topics: string[], limit: number): Promise<OutboxJob[]> {
    const now = Date.now();
    const taken: OutboxJob[] = [];
    for (const jobId of await this.dueIds(topics, now, limit)) {
      const row = await this.claim(jobId, now, now + this.options.leaseMs);
      if (row)
        taken.push({
          id: String(row.job_id),
          topic: row.topic,
          key: row.job_key,
          payload: JSON.parse(row.payload) as unknown,
          attempts: row.attempts,
        });
    }
    return taken;
  }

  async done(job: OutboxJob): Promise<void> {
    await this.db
      .updateTable('outbox')
      .set({ status: 'done', done_at: iso(Date.now()), locked_until: null, last_error: null })
      .where('job_id', '=', Number(job.id))
      .execute();
  }

  /** Due again after a back-off doubled per attempt (up to maxBackoffMs), or given up after maxAttempts. */
  async failed(job: OutboxJob, error: string): Promise<{ dead: boolean; retryInMs: number | null }> {
    const { maxAttempts, backoffMs, maxBackoffMs } = this.options;
    const dead = job.attempts >= maxAttempts;
    const delay = Math.min(backoffMs * 2 ** (job.attempts - 1), maxBackoffMs);
    await this.db
      .updateTable('outbox')
      .set({ status: dead ? 'dead' : 'pending', run_after: iso(Date.now() + delay), locked_until: null, last_error: error.slice(0, 1000) })
      .where('job_id', '=', Number(job.id))
      .execute();
    return { dead, retryInMs: dead ? null : delay };
  }

  async backlog(): Promise<{ pending: number; dead: number }> {
    const rows = await this.db
      .selectFrom('outbox')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('status', '!=', 'done')
      .groupBy('status')
      .execute();
    const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
    return { pending: count('pending'), dead: count('dead') };
  }

  /** Ids of pending jobs due at `now` that no worker holds, oldest first. */
  private async dueIds(topics: string[], now: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('outbox')
      .select('job_id')
      .where('status', '=', 'pending')
      .where('topic', 'in', topics)
      .where('run_after', '<=', iso(now))
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', iso(now))]))
      .orderBy('job_id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.job_id);
  }

  /** Takes a job with a lease until `leaseUntil`; null when another worker took it first. */
  private async claim(jobId: number, now: number, leaseUntil: number) {
    const result = await this.db
      .updateTable('outbox')
      .set((eb) => ({ locked_until: iso(leaseUntil), attempts: eb('attempts', '+', 1) }))
      .where('job_id', '=', jobId)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', iso(now))]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return null;
    return this.db.selectFrom('outbox').selectAll().where('job_id', '=', jobId).executeTakeFirstOrThrow();
  }
}
