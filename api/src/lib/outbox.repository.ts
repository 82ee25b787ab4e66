/** The outbox table: jobs recorded with their cause, taken by workers with a lease. */
import type { Db, DbOrTrx } from '../db/database.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** Records a job in the caller's transaction; a second job with the same key is ignored. */
export async function insertJob(db: DbOrTrx, topic: string, key: string, payload: unknown): Promise<void> {
  const now = iso(Date.now());
  await db
    .insertInto('outbox')
    .values({ topic, job_key: key, payload: JSON.stringify(payload), run_after: now, created_at: now, locked_until: null, last_error: null, done_at: null })
    .onConflict((oc) => oc.column('job_key').doNothing())
    .execute();
}

export class OutboxRepository {
  constructor(private readonly db: Db) {}

  /** Ids of pending jobs due at `now` that no worker holds, oldest first. */
  async dueIds(now: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('outbox')
      .select('job_id')
      .where('status', '=', 'pending')
      .where('run_after', '<=', iso(now))
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', iso(now))]))
      .orderBy('job_id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.job_id);
  }

  /** Jobs not done, counted per status. */
  async countsByStatus(): Promise<{ status: string; n: number }[]> {
    const rows = await this.db.selectFrom('outbox').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).where('status', '!=', 'done').groupBy('status').execute();
    return rows.map((row) => ({ status: row.status, n: Number(row.n) }));
  }

  /** Takes a job with a lease until `leaseUntil` (one conditional update); null when another worker took it first. */
  async claim(jobId: number, now: number, leaseUntil: number) {
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

  async markDone(jobId: number): Promise<void> {
    await this.db.updateTable('outbox').set({ status: 'done', done_at: iso(Date.now()), locked_until: null, last_error: null }).where('job_id', '=', jobId).execute();
  }

  /** A failed attempt: due again at `runAfter`, or given up (`dead`). */
  async markFailed(jobId: number, dead: boolean, runAfter: number, error: string): Promise<void> {
    await this.db
      .updateTable('outbox')
      .set({ status: dead ? 'dead' : 'pending', run_after: iso(runAfter), locked_until: null, last_error: error.slice(0, 1000) })
      .where('job_id', '=', jobId)
      .execute();
  }
}
