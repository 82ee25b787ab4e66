/**
 * The registry in force, kept in the shop's database (the release tool's RegistryBook): the state
 * with a revision that only grows, every move, and the floors (versions marked never to be put in
 * force again). Every release operation of the server (the console's, an upload's, an applied move
 * request's, the canary watch's and the integrity watch's) commits here, in one transaction with
 * its moves, its floors and its rows in the audit log. A commit made against another revision than
 * the one in force is refused, so two servers never overwrite each other's move.
 * The origin's `builds/latest.json` and `builds/history.jsonl` are only an export (move-requests.ts).
 */
import {
  emptyRegistry,
  ReleaseRefused,
  type Floor,
  type FloorChange,
  type HistoryEntry,
  type PartName,
  type Registry,
  type RegistryBook,
} from '@shop/release';
import { PostgresAdapter } from 'kysely';
import type { Db, DbOrTrx } from '../../db/database.ts';
import { appendAudit } from './audit-log.repository.ts';

const ROW = 1;
/** How long a read of the state in force is reused (ms): a move by another server is seen within it. */
const READ_TTL_MS = 250;

export type TrustedRegistry = RegistryBook & {
  /** The revision in force, read from the database now (not the reused copy). */
  revisionNow(): Promise<string>;
  /** Told after each commit of this process, before the commit returns (the origin's export). */
  onCommit(listener: (registry: Registry) => Promise<void>): void;
};

function entryOf(row: {
  at: string;
  part: string;
  action: string;
  from_version: string | null;
  to_version: string;
  share: number | null;
  who: string;
  reason: string | null;
  commit_ref: string | null;
  dirty: number | null;
}): HistoryEntry {
  return {
    at: row.at,
    part: row.part as PartName,
    action: row.action as HistoryEntry['action'],
    from: row.from_version,
    to: row.to_version,
    ...(row.share !== null ? { share: row.share } : {}),
    who: row.who,
    reason: row.reason,
    commit: row.commit_ref,
    dirty: row.dirty === null ? null : row.dirty === 1,
  };
}

async function readState(db: DbOrTrx): Promise<Registry | null> {
  const row = await db.selectFrom('release_registry').selectAll().where('registry_id', '=', ROW).executeTakeFirst();
  if (!row) return null;
  return { ...(JSON.parse(row.state) as Registry), revision: String(row.revision), updatedAt: row.updated_at };
}

/** The registry in force as the database holds it now (inside the caller's transaction when given one); null before the first release. */
export async function registryInForce(db: DbOrTrx): Promise<Registry | null> {
  return readState(db);
}

/** The floors in force (not lifted), of one part or of all. */
export async function activeFloors(db: DbOrTrx, part?: string): Promise<Floor[]> {
  let query = db.selectFrom('release_floors').selectAll().where('lifted_at', 'is', null);
  if (part) query = query.where('part', '=', part);
  const rows = await query.orderBy('floored_at').execute();
  return rows.map((row) => ({
    part: row.part as PartName,
    version: row.version,
    at: row.floored_at,
    by: row.floored_by,
    reason: row.reason,
  }));
}

async function writeFloor(trx: DbOrTrx, floor: FloorChange, at: string): Promise<void> {
  await trx
    .insertInto('release_floors')
    .values({ part: floor.part, version: floor.version, floored_at: at, floored_by: floor.by, reason: floor.reason?.slice(0, 500) ?? null })
    .onConflict((conflict) =>
      conflict.columns(['part', 'version']).doUpdateSet({
        floored_at: at,
        floored_by: floor.by,
        reason: floor.reason?.slice(0, 500) ?? null,
        lifted_at: null,
        lifted_by: null,
        lift_reason: null,
      }),
    )
    .execute();
  await appendAudit(trx, {
    actor: floor.by,
    action: 'floor',
    part: floor.part,
    allowed: true,
    detail: `${floor.version}: ${floor.reason ?? ''}`,
  });
}

export function registryBook(db: Db): TrustedRegistry {
  let cached: { at: number; registry: Promise<Registry> } | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const listeners: ((registry: Registry) => Promise<void>)[] = [];

  const read = () => {
    if (!cached || Date.now() - cached.at > READ_TTL_MS) {
      const registry = readState(db).then((state) => state ?? emptyRegistry());
      registry.catch(() => {
        cached = null;
      });
      cached = { at: Date.now(), registry };
    }
    return cached.registry;
  };

  return {
    read,
    async revisionNow() {
      const row = await db.selectFrom('release_registry').select('revision').where('registry_id', '=', ROW).executeTakeFirst();
      return String(row?.revision ?? 0);
    },
    async history() {
      const rows = await db.selectFrom('release_moves').selectAll().orderBy('move_id').execute();
      return rows.map(entryOf);
    },
    floors: (part) => activeFloors(db, part),
    async exists() {
      return (await readState(db)) !== null;
    },
    exclusive(_what, action) {
      // One move of this process at a time; another server's is caught by the revision at commit.
      // A move decides on the state in force: the reused read may be another process's move behind.
      const fresh = () => {
        cached = null;
        return action();
      };
      const run = queue.then(fresh, fresh);
      queue = run.catch(() => undefined);
      return run;
    },
    async commit(base, next, entries, floors = []) {
      const written = await db.transaction().execute(async (trx) => {
        let query = trx.selectFrom('release_registry').select('revision').where('registry_id', '=', ROW);
        // PostgreSQL: the row is held until the commit (SQLite's writer holds the whole file).
        if (db.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate();
        const current = (await query.executeTakeFirst())?.revision ?? 0;
        if (String(current) !== base.revision) {
          throw new ReleaseRefused(
            'registry_moved',
            `The registry moved (revision ${current}) since this move was asked for (revision ${base.revision}). Nothing was changed; ask again.`,
          );
        }
        const revision = current + 1;
        const updatedAt = new Date().toISOString();
        const { revision: _revision, updatedAt: _updatedAt, ...state } = next;
        const registry: Registry = { ...next, revision: String(revision), updatedAt };
        if (current === 0) {
          await trx
            .insertInto('release_registry')
            .values({ registry_id: ROW, revision, state: JSON.stringify(state), updated_at: updatedAt })
            .execute();
        } else {
          const result = await trx
            .updateTable('release_registry')
            .set({ revision, state: JSON.stringify(state), updated_at: updatedAt })
            .where('registry_id', '=', ROW)
            .where('revision', '=', current)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) !== 1)
            throw new ReleaseRefused('registry_moved', 'The registry moved meanwhile. Nothing was changed; ask again.');
        }
        for (const entry of entries) {
          await trx
            .insertInto('release_moves')
            .values({
              revision,
              at: updatedAt,
              part: entry.part,
              action: entry.action,
              from_version: entry.from,
              to_version: entry.to,
              share: entry.share ?? null,
              who: entry.who.slice(0, 200),
              reason: entry.reason?.slice(0, 500) ?? null,
              commit_ref: entry.commit?.slice(0, 40) ?? null,
              dirty: entry.dirty === null || entry.dirty === undefined ? null : entry.dirty ? 1 : 0,
            })
            .execute();
          await appendAudit(trx, {
            actor: entry.who,
            action: entry.action,
            part: entry.part,
            allowed: true,
            detail: `${entry.from ?? 'žiadna'} → ${entry.to}${entry.share ? ` (${entry.share} %)` : ''}; revízia ${revision}${entry.reason ? `; ${entry.reason}` : ''}`,
          });
        }
        for (const floor of floors) await writeFloor(trx, floor, updatedAt);
        return registry;
      });
      cached = { at: Date.now(), registry: Promise.resolve(written) };
      for (const listener of listeners) await listener(written);
      return written;
    },
    onCommit(listener) {
      listeners.push(listener);
    },
  };
}

/**
 * Marks a version of a part never to be served again, or lifts that mark (an operator's audited
 * override, or the owner's command). The version in force cannot be floored: roll back first.
 */
export async function setFloor(
  db: Db,
  book: RegistryBook,
  change: { part: PartName; version: string; floored: boolean; by: string; reason: string | null },
): Promise<void> {
  const registry = await book.read();
  const inForce = change.part === 'shell' ? registry.shell?.version : registry.areas[change.part]?.version;
  if (change.floored && inForce === change.version) {
    throw new ReleaseRefused(
      'floored',
      `${change.part} ${change.version} is in force: roll back from it first (a rollback marks it never to be served again). Nothing was changed.`,
    );
  }
  await db.transaction().execute(async (trx) => {
    const at = new Date().toISOString();
    if (change.floored) {
      await writeFloor(trx, { part: change.part, version: change.version, by: change.by, reason: change.reason }, at);
      return;
    }
    const lifted = await trx
      .updateTable('release_floors')
      .set({ lifted_at: at, lifted_by: change.by, lift_reason: change.reason?.slice(0, 500) ?? null })
      .where('part', '=', change.part)
      .where('version', '=', change.version)
      .where('lifted_at', 'is', null)
      .executeTakeFirst();
    if (Number(lifted.numUpdatedRows) === 0)
      throw new ReleaseRefused('not_pinned', `${change.part} ${change.version} is not marked never to be served. Nothing was changed.`);
    await appendAudit(trx, {
      actor: change.by,
      action: 'floor-lift',
      part: change.part,
      allowed: true,
      detail: `${change.version}: ${change.reason ?? ''}`,
    });
  });
}
