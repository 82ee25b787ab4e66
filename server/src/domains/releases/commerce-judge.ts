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
};

export const DEFAULT_COMMERCE_POLICY: CommercePolicy = { minOrderVisits: 50, orderDrop: 0.3, minCardPayments: 30, cardFailureRise: 0.1 };

/** CANARY_MIN_ORDER_VISITS and CANARY_ORDER_DROP, strictly read: a bad value refuses the start. */
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
  };
}

/** The measure, as the history's reasons and /ops name it. */
const MEASURE = 'objednávky na návštevu kroku objednávky';
export const ORDER_PLACEMENT_LABEL = `${MEASURE} (pokladňa)`;

export type OrderPlacement = { orders: number; visits: number };

const ratio = (side: OrderPlacement) => side.orders / Math.max(side.visits, 1);
const shown = (side: OrderPlacement) => `${side.orders}/${side.visits} (${Math.round(ratio(side) * 100)} %)`;

/** The verdict on the two sides' figures (pure: the rule in one place). */
export function orderPlacementVerdict(stable: OrderPlacement, canary: OrderPlacement, policy: CommercePolicy): CanaryJudgeVerdict {
  const both = `kanárik ${shown(canary)}, stabilná ${shown(stable)}`;
  if (canary.visits < policy.minOrderVisits || stable.visits < policy.minOrderVisits) {
    return {
      verdict: 'unknown',
      figures: `${MEASURE}: málo údajov (${both}; treba aspoň ${policy.minOrderVisits} návštev na každej strane)`,
    };
  }
  const allowed = `povolený pokles ${Math.round(policy.orderDrop * 100)} %`;
  if (ratio(canary) < ratio(stable) * (1 - policy.orderDrop)) {
    const drop = Math.round((1 - ratio(canary) / ratio(stable)) * 100);
    return { verdict: 'regressed', figures: `${MEASURE}: ${both}; menej o ${drop} %, ${allowed}` };
  }
  return { verdict: 'healthy', figures: `${MEASURE}: ${both}; ${allowed}` };
}

/** The judge the canary watch asks about checkout canaries. */
export function orderPlacementJudge(db: Db, policy: CommercePolicy): CanaryJudge {
  const side = async (version: string, since: Date): Promise<OrderPlacement> => {
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
      const [canarySide, stableSide] = await Promise.all([side(canary, since), stable ? side(stable, since) : Promise.resolve(none)]);
      return orderPlacementVerdict(stableSide, canarySide, policy);
    },
  };
}
