/**
 * The client_error_groups table: client errors grouped by area, version, route and top frame of
 * the stack as mapped with the version's source maps (stack-mapper.ts). One row a group, counted
 * up in one statement (the same group reported by two servers at once counts twice); bounded:
 * groups not reported for GROUPS_KEPT_DAYS, and past the newest GROUPS_KEPT, are dropped.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { ClientErrorGroup, MappedStackFrame, TelemetryArea } from '@shop/shared-kernel/contract';
import type { Db } from '../../../db/database.ts';

/** Groups kept at most: a flood of distinct stacks replaces older groups, never grows the table. */
export const GROUPS_KEPT = 2000;
/** Days a group is kept after its last report. */
export const GROUPS_KEPT_DAYS = 30;
/** Groups /ops is given at most. */
export const GROUPS_SHOWN = 100;

export type ClientErrorRecord = {
  area: string;
  version: string;
  route: string;
  kind: string;
  message: string;
  stack: MappedStackFrame[];
  topFrame: string;
  at: Date;
};

/** The group's key: area, version, route and top frame; an error without a stack (a failed load) by its kind and message instead. */
const groupKey = (record: ClientErrorRecord) =>
  createHash('sha256')
    .update([record.area, record.version, record.route, record.topFrame || `\0${record.kind}\0${record.message}`].join('\0'))
    .digest('hex')
    .slice(0, 32);

/** Counts one report into its group (created on its first report). */
export async function recordClientError(db: Db, record: ClientErrorRecord): Promise<void> {
  const at = record.at.toISOString();
  const values = {
    kind: record.kind.slice(0, 20),
    message: record.message.slice(0, 300),
    stack: JSON.stringify(record.stack.slice(0, 16)),
  };
  await db
    .insertInto('client_error_groups')
    .values({
      group_key: groupKey(record),
      area: record.area.slice(0, 20),
      version: record.version.slice(0, 64),
      route: record.route.slice(0, 40),
      top_frame: record.topFrame.slice(0, 300),
      ...values,
      count: 1,
      first_at: at,
      last_at: at,
    })
    .onConflict((conflict) =>
      conflict.column('group_key').doUpdateSet({ ...values, count: sql<number>`client_error_groups.count + 1`, last_at: at }),
    )
    .execute();
}

/** Drops groups not reported for GROUPS_KEPT_DAYS and those past the newest GROUPS_KEPT. */
export async function pruneClientErrors(db: Db, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - GROUPS_KEPT_DAYS * 86_400_000).toISOString();
  await db.deleteFrom('client_error_groups').where('last_at', '<', cutoff).execute();
  const oldestKept = await db
    .selectFrom('client_error_groups')
    .select('last_at')
    .orderBy('last_at', 'desc')
    .offset(GROUPS_KEPT - 1)
    .limit(1)
    .executeTakeFirst();
  if (oldestKept) await db.deleteFrom('client_error_groups').where('last_at', '<', oldestKept.last_at).execute();
}

/** The groups last reported since `since` (of one area, and version, when given), most reports first. */
export async function clientErrorGroups(
  db: Db,
  filter: { since: Date; area?: string; version?: string; limit?: number },
): Promise<ClientErrorGroup[]> {
  let query = db.selectFrom('client_error_groups').selectAll().where('last_at', '>=', filter.since.toISOString());
  if (filter.area) query = query.where('area', '=', filter.area);
  if (filter.version) query = query.where('version', '=', filter.version);
  const rows = await query
    .orderBy('count', 'desc')
    .orderBy('last_at', 'desc')
    .limit(filter.limit ?? GROUPS_SHOWN)
    .execute();
  return rows.map((row) => ({
    area: row.area as TelemetryArea,
    version: row.version,
    route: row.route,
    topFrame: row.top_frame,
    kind: row.kind,
    message: row.message,
    stack: parseStack(row.stack),
    count: Number(row.count),
    firstAt: row.first_at,
    lastAt: row.last_at,
  }));
}

function parseStack(text: string): MappedStackFrame[] {
  try {
    const stack = JSON.parse(text) as unknown;
    return Array.isArray(stack) ? (stack as MappedStackFrame[]) : [];
  } catch {
    return [];
  }
}

/** The most reported error group of an area version since a time, as one line (a canary's abort names it); null: none. */
export async function topClientError(db: Db, area: string, version: string, since: Date): Promise<string | null> {
  const [group] = await clientErrorGroups(db, { since, area, version, limit: 1 });
  if (!group) return null;
  const where = group.topFrame ? ` at ${group.topFrame}` : '';
  return `"${group.message}"${where}${group.route ? ` on ${group.route}` : ''}, ${group.count} reports`;
}
