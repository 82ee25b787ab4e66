/**
 * The canary watch's commerce guardrail for the checkout: order placement per order-step visit, per
 * checkout version, the canary against the stable one since the canary started.
 * - Visits: the telemetry sessions that showed the order step (/checkout/order) in that version
 *   (client_sessions, each session once however often it reports).
 * - Orders: the orders the server placed for browsers it decided were served that version
 *   (order_versions, written in the order's transaction from the bucket cookie and the registry).
 * With at least `minOrderVisits` visits on each side, a canary whose rate is below the stable one's
 * by more than `orderDrop` (relative) is aborted, the reason naming both figures; otherwise healthy.
 * With fewer, no verdict: the canary is neither promoted nor moved on meanwhile. Only checkout
 * canaries are judged. Telemetry sampling lowers the visits of both sides alike: the rates may pass
 * 100 %, their comparison holds.
 */
import { strictNumber, type CanaryJudge, type CanaryJudgeVerdict } from '@shop/release';
import type { Db } from '../../db/database.ts';
import { ORDER_STEP, orderStepSessions } from '../ops/telemetry/client-sessions.repository.ts';
import { ordersPlacedWith } from './order-versions.repository.ts';

export type CommercePolicy = {
  /** Order-step visits (telemetry sessions) each side needs before the canary is judged on orders. */
  minOrderVisits: number;
  /** How much lower (relative, 0.3 = 30 %) the canary's orders per visit may be than the stable one's. */
  orderDrop: number;
  /** Ended card payments each side needs before the canary is judged on them (card-payment-judge.ts). */
  minCardPayments: number;
  /** How many percentage points (0.1 = 10 points) more of the canary's card payments may fail than the stable one's. */
  cardFailureRise: number;
  /** Product-page sessions each side needs before a catalog canary is judged on additions to the basket (funnel-judges.ts). */
  minProductViews: number;
  /** How much lower (relative) the canary's share of product-page sessions that added to the basket may be. */
  basketAddDrop: number;
  /** Sessions at a checkout step (basket, contact) each side needs before a checkout canary is judged on going on from it. */
  minStepVisits: number;
  /** How much lower (relative) the canary's share of sessions that went on from a step may be. */
  stepDrop: number;
  /** How long a session that has not gone on must have sent nothing before it counts as one that did not (ms). */
  funnelSettleMs: number;
};

export const DEFAULT_COMMERCE_POLICY: CommercePolicy = {
  minOrderVisits: 50,
  orderDrop: 0.3,
  minCardPayments: 30,
  cardFailureRise: 0.1,
  minProductViews: 200,
  basketAddDrop: 0.3,
  minStepVisits: 50,
  stepDrop: 0.3,
  funnelSettleMs: 5 * 60_000,
};

const SESSIONS = { min: 1, max: 1_000_000, integer: true } as const;
const SHARE = { min: 0, max: 1 } as const;

/** The commerce guardrails' CANARY_* settings, strictly read: a bad value refuses the start. */
export function commercePolicyFrom(env: NodeJS.ProcessEnv): CommercePolicy {
  return {
    minOrderVisits: strictNumber(env, 'CANARY_MIN_ORDER_VISITS', DEFAULT_COMMERCE_POLICY.minOrderVisits, {
      min: 1,
      max: 1_000_000,
      integer: true,
      what: 'a whole number of sessions from 1 to 1000000, e.g. 50',
    }),
    orderDrop: strictNumber(env, 'CANARY_ORDER_DROP', DEFAULT_COMMERCE_POLICY.orderDrop, {
      min: 0,
      max: 1,
      what: 'a share from 0 to 1, e.g. 0.3: the canary may place 30 % fewer orders per visit',
    }),
    minCardPayments: strictNumber(env, 'CANARY_MIN_CARD_PAYMENTS', DEFAULT_COMMERCE_POLICY.minCardPayments, {
      min: 1,
      max: 1_000_000,
      integer: true,
      what: 'a whole number of card payments from 1 to 1000000, e.g. 30',
    }),
    cardFailureRise: strictNumber(env, 'CANARY_CARD_FAILURE_RISE', DEFAULT_COMMERCE_POLICY.cardFailureRise, {
      min: 0,
      max: 1,
      what: 'a share from 0 to 1, e.g. 0.1: up to 10 percentage points more of the canary’s card payments may fail',
    }),
    minProductViews: strictNumber(env, 'CANARY_MIN_PRODUCT_VIEWS', DEFAULT_COMMERCE_POLICY.minProductViews, {
      ...SESSIONS,
      what: 'a whole number of sessions from 1 to 1000000, e.g. 200',
    }),
    basketAddDrop: strictNumber(env, 'CANARY_BASKET_ADD_DROP', DEFAULT_COMMERCE_POLICY.basketAddDrop, {
      ...SHARE,
      what: 'a share from 0 to 1, e.g. 0.3: 30 % fewer of the canary’s product-page sessions may add to the basket',
    }),
    minStepVisits: strictNumber(env, 'CANARY_MIN_STEP_VISITS', DEFAULT_COMMERCE_POLICY.minStepVisits, {
      ...SESSIONS,
      what: 'a whole number of sessions from 1 to 1000000, e.g. 50',
    }),
    stepDrop: strictNumber(env, 'CANARY_STEP_DROP', DEFAULT_COMMERCE_POLICY.stepDrop, {
      ...SHARE,
      what: 'a share from 0 to 1, e.g. 0.3: 30 % fewer of the canary’s sessions at a checkout step may go on',
    }),
    funnelSettleMs: strictNumber(env, 'CANARY_FUNNEL_SETTLE_MS', DEFAULT_COMMERCE_POLICY.funnelSettleMs, {
      min: 0,
      max: 24 * 60 * 60_000,
      integer: true,
      what: 'milliseconds from 0 to 86400000, e.g. 300000',
    }),
  };
}

/** Two sides' figures of a share: `hits` of `base` (orders of visits, sessions that went on of those at a step). */
export type ShareSide = { hits: number; base: number };

const shareOf = (side: ShareSide) => side.hits / Math.max(side.base, 1);
const shareShown = (side: ShareSide) => `${side.hits}/${side.base} (${Math.round(shareOf(side) * 100)} %)`;

/**
 * The rule of the commerce guardrails that compare a share (pure; one place): with fewer than `min`
 * of the base on either side, no verdict; a canary's share lower than the stable one's by more than
 * `drop` (relative), regressed; else healthy. The figures name the measure and both sides.
 */
export function shareDropVerdict(
  measure: { name: string; base: string },
  stable: ShareSide,
  canary: ShareSide,
  rule: { min: number; drop: number },
): CanaryJudgeVerdict {
  const both = `kanárik ${shareShown(canary)}, stabilná ${shareShown(stable)}`;
  if (canary.base < rule.min || stable.base < rule.min) {
    return {
      verdict: 'unknown',
      figures: `${measure.name}: málo údajov (${both}; treba aspoň ${rule.min} ${measure.base} na každej strane)`,
    };
  }
  const allowed = `povolený pokles ${Math.round(rule.drop * 100)} %`;
  if (shareOf(canary) < shareOf(stable) * (1 - rule.drop)) {
    const drop = Math.round((1 - shareOf(canary) / shareOf(stable)) * 100);
    return { verdict: 'regressed', figures: `${measure.name}: ${both}; menej o ${drop} %, ${allowed}` };
  }
  return { verdict: 'healthy', figures: `${measure.name}: ${both}; ${allowed}` };
}

/** The measure, as the history's reasons and /ops name it. */
const MEASURE = 'objednávky na návštevu kroku objednávky';
export const ORDER_PLACEMENT_LABEL = `${MEASURE} (pokladňa)`;

export type OrderPlacement = { orders: number; visits: number };

const side = ({ orders, visits }: OrderPlacement): ShareSide => ({ hits: orders, base: visits });

/** The verdict on the two sides' figures (pure). */
export function orderPlacementVerdict(
  stable: OrderPlacement,
  canary: OrderPlacement,
  policy: Pick<CommercePolicy, 'minOrderVisits' | 'orderDrop'>,
): CanaryJudgeVerdict {
  return shareDropVerdict({ name: MEASURE, base: 'návštev' }, side(stable), side(canary), {
    min: policy.minOrderVisits,
    drop: policy.orderDrop,
  });
}

/** The judge the canary watch asks about checkout canaries. */
export function orderPlacementJudge(db: Db, policy: CommercePolicy): CanaryJudge {
  const read = async (version: string, since: Date): Promise<OrderPlacement> => {
    const [orders, visits] = await Promise.all([
      ordersPlacedWith(db, ORDER_STEP.part, version, since),
      orderStepSessions(db, version, since),
    ]);
    return { orders, visits };
  };
  return {
    name: 'commerce',
    label: ORDER_PLACEMENT_LABEL,
    areas: [ORDER_STEP.part],
    async judge({ canary, stable, since }) {
      const none: OrderPlacement = { orders: 0, visits: 0 };
      const [canarySide, stableSide] = await Promise.all([read(canary, since), stable ? read(stable, since) : Promise.resolve(none)]);
      return orderPlacementVerdict(stableSide, canarySide, policy);
    },
  };
}
