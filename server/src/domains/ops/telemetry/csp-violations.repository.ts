/**
 * The csp_violations table: the pages' policy violations counted per server day, page type, part,
 * directive and blocked origin, and what /ops reads back of the last days.
 */
import { sql } from 'kysely';
import type { CspViolationReport } from '@shop/shared-kernel/contract';
import type { Db } from '../../../db/database.ts';

/** What one violation is counted under (each value bounded: a closed set or a short origin). */
export type CspViolationKey = { page: string; part: string; directive: string; blockedOrigin: string };

/**
 * Distinct keys a day keeps per bucket (CSP_BUCKETS); a key new to a full bucket is counted in that
 * bucket's `other` row. A report adds at most its own distinct keys (≤ 50) past the limit when it
 * lands just below it, and reports landing at once on PostgreSQL may each see the bucket just below
 * it: the table stays bounded. Who may add how many keys is bounded before this (csp-client-budget.ts).
 */
export const CSP_ROWS_PER_DAY = 500;
const OTHER = 'other';

/**
 * The checkout's pages (the basket, the checkout steps and the payment pages) have a bucket of their
 * own: violations on the pages where card data and addresses are typed are never crowded out by
 * reports about other pages.
 */
export const CHECKOUT_PAGES = ['cart', 'checkout'] as const;
export const CSP_BUCKETS = ['checkout', 'rest'] as const;
export type CspBucket = (typeof CSP_BUCKETS)[number];
export const bucketOf = (page: string): CspBucket => ((CHECKOUT_PAGES as readonly string[]).includes(page) ? 'checkout' : 'rest');

/**
 * The row a key goes to when its client's budget or its bucket is full: the checkout's keep their
 * page (so the overflow stays in the checkout's bucket and shows where it happened), the rest are `other`.
 */
export function overflowKey(key: CspViolationKey): CspViolationKey {
  return { page: bucketOf(key.page) === 'checkout' ? key.page : OTHER, part: OTHER, directive: OTHER, blockedOrigin: OTHER };
}

/** The server's day a moment falls in: `2026-11-27`. */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Adds one report's violations to the day's counts, in one statement on either engine: the keys
 * summed per report, a key its full bucket does not have yet moved to the bucket's `other` row, and
 * each row inserted or its count raised (so concurrent reports never lose a count).
 */
export async function countViolations(db: Db, keys: readonly CspViolationKey[], at: Date, rowsPerDay = CSP_ROWS_PER_DAY): Promise<void> {
  if (keys.length === 0) return;
  const counts = new Map<string, { key: CspViolationKey; n: number }>();
  for (const key of keys) {
    const id = [key.page, key.part, key.directive, key.blockedOrigin].join('\u0000');
    const entry = counts.get(id) ?? { key, n: 0 };
    entry.n += 1;
    counts.set(id, entry);
  }
  const day = dayOf(at);
  const seen = at.toISOString();
  // Sorted, so that concurrent reports take the rows' locks in the same order.
  const rows = [...counts.values()].sort((a, b) => (JSON.stringify(a.key) < JSON.stringify(b.key) ? -1 : 1));
  const values = sql.join(
    rows.map(({ key, n }) => sql`(${key.page}, ${key.part}, ${key.directive}, ${key.blockedOrigin}, cast(${n} as integer))`),
  );
  const checkoutPages = sql.join(CHECKOUT_PAGES.map((page) => sql`${page}`));
  // VALUES' columns are column1… on both engines. `where true`: SQLite's upsert after a SELECT needs a WHERE to parse.
  await sql`
    insert into csp_violations (day, page, part, directive, blocked_origin, violations, first_seen, last_seen)
    select ${day}, page, part, directive, blocked_origin, sum(n), ${seen}, ${seen}
    from (
      select
        case when kept or v.checkout then v.column1 else ${OTHER} end as page,
        case when kept then v.column2 else ${OTHER} end as part,
        case when kept then v.column3 else ${OTHER} end as directive,
        case when kept then v.column4 else ${OTHER} end as blocked_origin,
        v.column5 as n
      from (
        select v.*, (
          exists (
            select 1 from csp_violations c
            where c.day = ${day} and c.page = v.column1 and c.part = v.column2 and c.directive = v.column3 and c.blocked_origin = v.column4
          )
          or (
            select count(*) from csp_violations c
            where c.day = ${day} and (c.page in (${checkoutPages})) = (v.column1 in (${checkoutPages}))
          ) < ${rowsPerDay}
        ) as kept
        from (select v.*, v.column1 in (${checkoutPages}) as checkout from (values ${values}) as v) as v
      ) as v
    ) as k
    where true
    group by page, part, directive, blocked_origin
    on conflict (day, page, part, directive, blocked_origin) do update set
      violations = csp_violations.violations + excluded.violations,
      last_seen = excluded.last_seen
  `.execute(db);
}

/** The rows the day `at` falls in keeps per bucket (the metrics: an alert when a bucket is full). */
export async function rowsPerBucket(db: Db, at: Date): Promise<Record<CspBucket, number>> {
  const rows = await db
    .selectFrom('csp_violations')
    .select('page')
    .select((eb) => eb.fn.countAll<number | string>().as('rows'))
    .where('day', '=', dayOf(at))
    .groupBy('page')
    .execute();
  const counts: Record<CspBucket, number> = { checkout: 0, rest: 0 };
  for (const row of rows) counts[bucketOf(row.page)] += Number(row.rows);
  return counts;
}

/** The violations of the last `days` days (today included), summed per key, most frequent first. */
export async function violationsSince(db: Db, now: Date, days = 7, limit = 200): Promise<CspViolationReport> {
  const since = dayOf(new Date(now.getTime() - (days - 1) * 86_400_000));
  const rows = await db
    .selectFrom('csp_violations')
    .select(['page', 'part', 'directive', 'blocked_origin'])
    .select((eb) => [
      eb.fn.sum<number | string>('violations').as('count'),
      eb.fn.min('first_seen').as('first_seen'),
      eb.fn.max('last_seen').as('last_seen'),
    ])
    .where('day', '>=', since)
    .groupBy(['page', 'part', 'directive', 'blocked_origin'])
    .orderBy('count', 'desc')
    .orderBy('page')
    .orderBy('part')
    .orderBy('directive')
    .orderBy('blocked_origin')
    .limit(limit)
    .execute();
  return {
    since,
    // PostgreSQL's sum of integers is a bigint, which the driver hands over as text.
    groups: rows.map((row) => ({
      page: row.page,
      part: row.part,
      directive: row.directive,
      blockedOrigin: row.blocked_origin,
      count: Number(row.count),
      firstSeen: row.first_seen,
      lastSeen: row.last_seen,
    })),
  };
}
