/**
 * Feature switches per area: a small table (at most MAX_FLAGS_PER_AREA switches an area), read by
 * the pages (through the composition root), the registry events open tabs follow, and the rules
 * that must hold on the server too (an order's payment and delivery). Every change is one
 * transaction with its audit entry (who, which switch, before and after): a change that is not in
 * the audit log did not happen.
 */
import { sql } from 'kysely';
import { MAX_FLAGS_PER_AREA, type FlagShares } from '@shop/shared-kernel/rules';
import type { DbOrTrx } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import { appendAudit } from './audit-log.repository.ts';

/** The advisory lock changes of switches queue on (PostgreSQL): any fixed number the shop uses for nothing else. */
const FLAG_LOCK_KEY = 7_312_052;

/** An area has MAX_FLAGS_PER_AREA switches already: a new one is refused. */
export class TooManyFlags extends Error {}

export type FlagChange = { area: string; name: string; share: number; by: string };
export type FlagChanged = { area: string; name: string; before: number | null; after: number };
export type FlagListing = { area: string; name: string; share: number; updatedBy: string; updatedAt: string };

/** How the audit log names a share: on, off, or a percentage. */
export const shareText = (share: number | null) =>
  share === null ? 'nezadaný' : share >= 100 ? 'zapnutý' : share <= 0 ? 'vypnutý' : `${share} %`;

/** Every switch in force, area → name → share. */
export async function flagShares(db: DbOrTrx): Promise<FlagShares> {
  const rows = await db.selectFrom('feature_flags').select(['area', 'name', 'share']).orderBy('area').orderBy('name').execute();
  const shares: Record<string, Record<string, number>> = {};
  for (const row of rows) (shares[row.area] ??= {})[row.name] = Number(row.share);
  return shares;
}

/** Every switch with who set it last, by area and name. */
export async function listFlags(db: DbOrTrx): Promise<FlagListing[]> {
  const rows = await db.selectFrom('feature_flags').selectAll().orderBy('area').orderBy('name').execute();
  return rows.map((row) => ({
    area: row.area,
    name: row.name,
    share: Number(row.share),
    updatedBy: row.updated_by,
    updatedAt: row.updated_at,
  }));
}

/**
 * Sets one switch and audits it in the same transaction; the bound on switches per area is checked
 * in it too (serialised on PostgreSQL, SQLite has one writer). Throws TooManyFlags.
 */
export async function setFlag(db: DbOrTrx, change: FlagChange, now = new Date()): Promise<FlagChanged> {
  const run = async (trx: DbOrTrx): Promise<FlagChanged> => {
    if (dialectOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(${FLAG_LOCK_KEY})`.execute(trx);
    const before = await trx
      .selectFrom('feature_flags')
      .select('share')
      .where('area', '=', change.area)
      .where('name', '=', change.name)
      .executeTakeFirst();
    if (!before) {
      const count = await trx
        .selectFrom('feature_flags')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('area', '=', change.area)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_FLAGS_PER_AREA) throw new TooManyFlags();
    }
    const at = now.toISOString();
    await trx
      .insertInto('feature_flags')
      .values({ area: change.area, name: change.name, share: change.share, updated_by: change.by.slice(0, 200), updated_at: at })
      .onConflict((oc) =>
        oc.columns(['area', 'name']).doUpdateSet({ share: change.share, updated_by: change.by.slice(0, 200), updated_at: at }),
      )
      .execute();
    const previous = before ? Number(before.share) : null;
    await appendAudit(trx, {
      actor: change.by,
      action: 'flag',
      part: change.area,
      allowed: true,
      detail: `${change.name}: ${shareText(previous)} → ${shareText(change.share)}`,
    });
    return { area: change.area, name: change.name, before: previous, after: change.share };
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}
