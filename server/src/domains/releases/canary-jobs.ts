/**
 * The canaries in a server process: the watch that aborts or promotes them (run by the process that
 * runs background work) and their series in every server's metrics. A canary is judged on the
 * shoppers' telemetry: its client error rate, its field Web Vitals (per telemetry session, each its
 * worst value, as the error rate is), and, in an abort for errors, its most reported error group (its
 * stack mapped with the canary's source maps); a checkout canary also on how many of its shoppers go
 * on from the basket and contact steps (funnel-judges.ts), its orders per order-step visit
 * (commerce-judge.ts) and its card payments that fail (card-payment-judge.ts); a catalog canary on
 * its additions to the basket per product-page session (funnel-judges.ts). A version it promotes is
 * checked against its signed files.
 */
import type { FastifyBaseLogger } from 'fastify';
import { startCanaryWatch, type AreaName, type CanaryJudge, type CanaryPolicy, type VersionHealth, type VitalsReader } from '@shop/release';
import type { Db } from '../../db/database.ts';
import { canaryMetrics, type Metrics } from '../../infra/observability/metrics.ts';
import { clientHealth } from '../ops/telemetry/client-health.ts';
import { sessionVitals } from '../ops/telemetry/client-sessions.repository.ts';
import { topClientError } from '../ops/telemetry/client-errors.repository.ts';
import type { ShopReleases } from './shop-releases.ts';
import { cardPaymentJudge } from './card-payment-judge.ts';
import { DEFAULT_COMMERCE_POLICY, orderPlacementJudge, type CommercePolicy } from './commerce-judge.ts';
import { funnelJudges } from './funnel-judges.ts';

type CanaryInputs = {
  health: (since: Date) => Promise<VersionHealth[]>;
  /** The field Web Vitals per area version; absent: the watch judges error rates only. */
  vitals?: VitalsReader;
  integrity: ShopReleases['integrity'];
  policy: Required<CanaryPolicy>;
  book: ShopReleases['book'];
  /** The canary's most reported client error group, named in an abort for errors. */
  topError: (area: AreaName, version: string, since: Date) => Promise<string | null>;
  /** The judges beyond errors and speed. */
  judges: readonly CanaryJudge[];
};

/**
 * The judges beyond errors and speed that the watch asks (and /ops names): each aborts a canary of
 * the areas it judges on its own regression and must be healthy before such a canary is promoted or
 * moves on to its next stage. The commerce guardrails, in the funnel's order (the first that
 * regressed names the abort): additions to the basket per product page (catalog); going on from the
 * basket and contact steps, orders per order-step visit, and the share of card payments that fail
 * (checkout).
 */
function moreJudges(db: Db, commerce: CommercePolicy): CanaryJudge[] {
  return [...funnelJudges(db, commerce), orderPlacementJudge(db, commerce), cardPaymentJudge(db, commerce)];
}

/**
 * What the canary watch judges a canary of an area on, as /ops names it: errors, speed and the
 * judges of that area (the labels do not depend on the settings).
 */
export function canaryJudged(db: Db): (area: string) => string[] {
  const judges = moreJudges(db, DEFAULT_COMMERCE_POLICY);
  return (area) => [
    'chybovosť (chyby v prehliadači)',
    'rýchlosť (INP, LCP)',
    ...judges.filter((judge) => !judge.areas || (judge.areas as readonly string[]).includes(area)).map((judge) => judge.label),
  ];
}

export type CanaryJobs = {
  /** Watches the canaries until the answer's `close()` (the process's stop). */
  start(log: FastifyBaseLogger): { close(): Promise<void> };
  /** The start's line about the watch: what aborts a canary, and whether one is promoted on its own. */
  description: string;
};

export function canaryJobs(options: {
  db: Db;
  releases: ShopReleases;
  policy: Required<CanaryPolicy>;
  /** The commerce guardrails' settings (CANARY_MIN_ORDER_VISITS, CANARY_ORDER_DROP, …: commercePolicyFrom). */
  commerce: CommercePolicy;
}): CanaryJobs {
  const { db, releases } = options;
  const inputs: CanaryInputs = {
    health: (since) => clientHealth(db, since),
    integrity: releases.integrity,
    policy: options.policy,
    vitals: sessionVitals(db),
    book: releases.book,
    topError: (area, version, since) => topClientError(db, area, version, since),
    judges: moreJudges(db, options.commerce),
  };
  return {
    start(log) {
      const watch = startCanaryWatch({ storage: releases.storage, ...inputs, log: log.child({ component: 'canary-watch' }) });
      return { close: async () => watch.stop() };
    },
    description: describeCanaryWatch(inputs),
  };
}

/** The canaries in /api/metrics, from the registry and its history: the same on every server. */
export function canarySeries(metrics: Metrics, book: ShopReleases['book']): void {
  canaryMetrics(metrics.registry, async () => {
    const [registry, history] = await Promise.all([book.read(), book.history()]);
    return {
      areas: Object.keys(registry.areas),
      running: Object.entries(registry.canaries ?? {}).map(([area, canary]) => ({ area, share: canary?.share ?? 0 })),
      aborts: history
        .filter((move) => move.action === 'abort')
        .map((move) => ({ area: move.part, who: move.who, reason: move.reason ?? null })),
      advances: history.filter((move) => move.action === 'advance').map((move) => ({ area: move.part })),
    };
  });
}

function describeCanaryWatch({ policy, vitals, judges }: CanaryInputs): string {
  const { speed } = policy;
  const speedRule = vitals
    ? `, or their field p75 INP/LCP is worse by > ${Math.round(speed.margin * 100)} % and > ${speed.floorMs.inp}/${speed.floorMs.lcp} ms over ≥ ${speed.minSamples} samples each side`
    : ' (speed not judged: no Web Vitals reader)';
  const promotion =
    policy.autoPromoteMs > 0
      ? `promoted automatically after ${policy.autoPromoteMs / 1000} s without regression`
      : 'promoted by an operator (CANARY_AUTO_PROMOTE_MS=0)';
  const more = judges.length ? `, or on ${judges.map((judge) => judge.name).join(', ')}` : '';
  return `canaries aborted when their client error rate exceeds the stable one by ${(policy.margin * 100).toFixed(1)} points over ≥ ${policy.minViews} page views${speedRule}${more}; ${promotion}; staged ones move on after each stage without regression (default stage ${policy.stageMs / 1000} s) (checked every ${policy.intervalMs / 1000} s)`;
}
