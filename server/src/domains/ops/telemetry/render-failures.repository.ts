/**
 * The render_failures table: server renders that failed in the sandbox, from every server, the
 * newest RENDER_FAILURES_KEPT kept, and what /ops reads back.
 */
import type { RenderFailureEntry } from '@shop/shared-kernel/contract';
import type { Db } from '../../../db/database.ts';

/** Rows kept: a storm of failures replaces older ones, never grows the table. */
export const RENDER_FAILURES_KEPT = 500;
/** Rows /ops is given. */
export const RENDER_FAILURES_SHOWN = 100;

export type RenderFailureRecord = Omit<RenderFailureEntry, 'at'> & { at: Date };

/** Records one failure and drops what falls past the kept number (the newest are kept). */
export async function recordRenderFailure(db: Db, failure: RenderFailureRecord): Promise<void> {
  const inserted = await db
    .insertInto('render_failures')
    .values({
      at: failure.at.toISOString(),
      part: failure.part.slice(0, 20),
      version: failure.version.slice(0, 64),
      reason: failure.reason.slice(0, 20),
      path: failure.path.slice(0, 200),
      request_id: failure.requestId.slice(0, 100),
      server: failure.server.slice(0, 100),
      message: failure.message.slice(0, 500),
    })
    .returning('failure_id')
    .executeTakeFirstOrThrow();
  await db
    .deleteFrom('render_failures')
    .where('failure_id', '<=', inserted.failure_id - RENDER_FAILURES_KEPT)
    .execute();
}

/** The newest failures, newest first. */
export async function recentRenderFailures(db: Db, limit = RENDER_FAILURES_SHOWN): Promise<RenderFailureEntry[]> {
  const rows = await db.selectFrom('render_failures').selectAll().orderBy('failure_id', 'desc').limit(limit).execute();
  return rows.map((row) => ({
    at: row.at,
    part: row.part,
    version: row.version,
    reason: row.reason,
    path: row.path,
    requestId: row.request_id,
    server: row.server,
    message: row.message,
  }));
}
