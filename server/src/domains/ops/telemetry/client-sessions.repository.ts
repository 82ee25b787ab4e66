/**
 * The client_sessions table: per telemetry session and part version, whether the session showed a
 * page of it, showed a product page, added to the basket, showed the checkout's basket, contact and
 * order steps, met an error in it, and its worst LCP and INP. What the canary watch judges is read
 * from here (client-health.ts, sessionVitals, orderStepSessions, funnelStep): a session counts once,
 * whatever it sends.
 */
import type { TelemetryEvent } from '@shop/shared-kernel/contract';
import type { Db } from '../../../db/database.ts';

/** How long a session's rows are kept (a canary is judged over hours, not weeks). */
export const SESSION_ROWS_KEPT_MS = 7 * 24 * 60 * 60_000;
/** The most sessions a version's p75 is read over (the latest). */
const VITALS_READ = 20_000;

/**
 * The checkout's order step (/checkout/order) as a page view names it: the route's name the checkout
 * area declares for it (mf-checkout/vite.config.ts). The commerce guardrail's denominator.
 */
export const ORDER_STEP = { part: 'checkout', route: 'checkout-order' } as const;

/**
 * The pages the funnel guardrails count (funnel-judges.ts), by the route names their areas declare
 * (mf-catalog/vite.config.ts, mf-checkout/vite.config.ts): each sets its flag on the session's row.
 */
const FUNNEL_PAGES = [
  { part: 'catalog', route: 'product', flag: 'product_view' },
  { part: 'checkout', route: 'checkout-cart', flag: 'basket_step' },
  { part: 'checkout', route: 'checkout-contact', flag: 'contact_step' },
  { part: ORDER_STEP.part, route: ORDER_STEP.route, flag: 'order_step' },
] as const;

/** The flags of a session's row: once raised, never lowered. */
const FLAGS = ['viewed', 'order_step', 'errored', 'product_view', 'basket_add', 'basket_step', 'contact_step'] as const;
export type SessionFlag = (typeof FLAGS)[number];

type SessionRow = { part: string; version: string; lcp: number | null; inp: number | null } & Record<SessionFlag, number>;

const noFlags = () => Object.fromEntries(FLAGS.map((flag) => [flag, 0])) as Record<SessionFlag, number>;

/** A batch folded per part version: seen (and which funnel pages), erred, added to the basket, and the worst LCP and INP (whole ms). */
export function sessionRows(events: readonly TelemetryEvent[]): SessionRow[] {
  const rows = new Map<string, SessionRow>();
  for (const event of events) {
    const id = `${event.area}\u0000${event.version}`;
    const row = rows.get(id) ?? { part: event.area, version: event.version, ...noFlags(), lcp: null, inp: null };
    if (event.type === 'view') {
      row.viewed = 1;
      const page = FUNNEL_PAGES.find((funnel) => funnel.part === event.area && funnel.route === event.route);
      if (page) row[page.flag] = 1;
    } else if (event.type === 'error') row.errored = 1;
    else if (event.type === 'basket-add') row.basket_add = 1;
    else if ((event.metric === 'lcp' || event.metric === 'inp') && event.value !== undefined) {
      const value = Math.round(event.value);
      row[event.metric] = Math.max(row[event.metric] ?? value, value);
    }
    rows.set(id, row);
  }
  // In a fixed order, so that concurrent batches of one session take the rows' locks in the same order.
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/** Adds a batch to its session's rows: one upsert per part version, flags and worst values only ever raised. */
export async function recordSession(db: Db, session: string, events: readonly TelemetryEvent[], at: Date): Promise<void> {
  const rows = sessionRows(events);
  if (rows.length === 0) return;
  const seen = at.toISOString();
  await db
    .insertInto('client_sessions')
    .values(rows.map((row) => ({ session, ...row, first_seen: seen, last_seen: seen })))
    .onConflict((oc) =>
      oc.columns(['session', 'part', 'version']).doUpdateSet((eb) => {
        // The larger of the kept and the new value, written the same on both engines (no max/greatest).
        const raised = (column: SessionFlag) =>
          eb
            .case()
            .when(eb.ref(`excluded.${column}`), '>', eb.ref(`client_sessions.${column}`))
            .then(eb.ref(`excluded.${column}`))
            .else(eb.ref(`client_sessions.${column}`))
            .end();
        const worst = (column: 'lcp' | 'inp') =>
          eb
            .case()
            .when(eb.ref(`excluded.${column}`), 'is', null)
            .then(eb.ref(`client_sessions.${column}`))
            .when(eb.ref(`client_sessions.${column}`), 'is', null)
            .then(eb.ref(`excluded.${column}`))
            .when(eb.ref(`excluded.${column}`), '>', eb.ref(`client_sessions.${column}`))
            .then(eb.ref(`excluded.${column}`))
            .else(eb.ref(`client_sessions.${column}`))
            .end();
        return {
          last_seen: eb.ref('excluded.last_seen'),
          ...(Object.fromEntries(FLAGS.map((flag) => [flag, raised(flag)])) as Record<SessionFlag, ReturnType<typeof raised>>),
          lcp: worst('lcp'),
          inp: worst('inp'),
        };
      }),
    )
    .execute();
}

/** Per part version, the sessions that showed it and those that met an error in it, among the sessions seen since `since`. */
export async function sessionCountsSince(db: Db, since: Date) {
  const rows = await db
    .selectFrom('client_sessions')
    .select(['part', 'version'])
    .select((eb) => [eb.fn.sum<number | string>('viewed').as('views'), eb.fn.sum<number | string>('errored').as('errors')])
    .where('last_seen', '>=', since.toISOString())
    .groupBy(['part', 'version'])
    .execute();
  // PostgreSQL's sum of integers is a bigint, which the driver hands over as text.
  return rows.map((row) => ({ area: row.part, version: row.version, views: Number(row.views), errors: Number(row.errors) }));
}

/** The sessions seen since `since` that showed the checkout's order step in this version of it. */
export async function orderStepSessions(db: Db, version: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('client_sessions')
    .select((eb) => eb.fn.countAll<number | string>().as('sessions'))
    .where('part', '=', ORDER_STEP.part)
    .where('version', '=', version)
    .where('last_seen', '>=', since.toISOString())
    .where('order_step', '=', 1)
    .executeTakeFirst();
  // PostgreSQL's count is a bigint, which the driver hands over as text.
  return Number(row?.sessions ?? 0);
}

/** A funnel step of one part version: the sessions that reached it, and how many of them went on. */
export type FunnelStep = { reached: number; wentOn: number };

/**
 * The sessions seen since `since` that reached `from` in this part version, and those of them that
 * went on to `to` (in the same version). A session that has not gone on counts only once it has sent
 * nothing since `settledBefore`: a shopper still on the step (or whose next report is on its way) is
 * not yet one who left.
 */
export async function funnelStep(
  db: Db,
  step: { part: string; version: string; from: SessionFlag; to: SessionFlag; since: Date; settledBefore: Date },
): Promise<FunnelStep> {
  const row = await db
    .selectFrom('client_sessions')
    .select((eb) => [eb.fn.countAll<number | string>().as('reached'), eb.fn.sum<number | string | null>(step.to).as('went_on')])
    .where('part', '=', step.part)
    .where('version', '=', step.version)
    .where('last_seen', '>=', step.since.toISOString())
    .where(step.from, '=', 1)
    .where((eb) => eb.or([eb(step.to, '=', 1), eb('last_seen', '<=', step.settledBefore.toISOString())]))
    .executeTakeFirst();
  // PostgreSQL's count and sum are bigints, which the driver hands over as text; a sum over no rows is null.
  return { reached: Number(row?.reached ?? 0), wentOn: Number(row?.went_on ?? 0) };
}

/** The 75th percentile of the sessions' worst values (nearest rank), and how many sessions reported one. */
export function p75OfSessions(values: readonly number[]): { p75: number | null; samples: number } {
  if (values.length === 0) return { p75: null, samples: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  return { p75: sorted[Math.ceil(0.75 * sorted.length) - 1]!, samples: sorted.length };
}

/** What the canary watch reads of speed (release's VitalsReader): one value per session, its worst. */
export function sessionVitals(db: Db) {
  return {
    async p75(part: string, version: string, metric: 'lcp' | 'inp', since: Date) {
      const rows = await db
        .selectFrom('client_sessions')
        .select(metric)
        .where('part', '=', part)
        .where('version', '=', version)
        .where('last_seen', '>=', since.toISOString())
        .where(metric, 'is not', null)
        .orderBy('last_seen', 'desc')
        .limit(VITALS_READ)
        .execute();
      return p75OfSessions(rows.map((row) => Number(row[metric])));
    },
  };
}

/** Forgets sessions not seen for SESSION_ROWS_KEPT_MS. */
export async function pruneSessions(db: Db, now: Date): Promise<void> {
  await db
    .deleteFrom('client_sessions')
    .where('last_seen', '<', new Date(now.getTime() - SESSION_ROWS_KEPT_MS).toISOString())
    .execute();
}
