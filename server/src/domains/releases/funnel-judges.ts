/**
 * The canary watch's funnel guardrails, per area version, the canary against the stable one since
 * the canary started, from the telemetry sessions (client_sessions: each session once, however
 * often it reports; a session's flags are only ever raised):
 * - catalog canaries: of the sessions that showed a product page of that version, the share that
 *   added to the basket on a page of it (the kernel bus's `basket:added`, forwarded by the shell);
 * - checkout canaries, per step: of the sessions that showed the basket step, the share that went on
 *   to the contact step; of those at the contact step, the share that went on to the order step
 *   (placed orders per order-step visit are commerce-judge.ts's).
 * With at least the minimum sessions at the step on each side, a canary whose share is lower than
 * the stable one's by more than the allowed relative drop is aborted, the reason naming the step and
 * both sides' figures; with fewer, no verdict: the canary is neither promoted nor moved on meanwhile,
 * as with orders (a funnel step every shopper passes gathers sessions as fast as the traffic does).
 * A session that has not gone on counts once it has sent nothing for `funnelSettleMs`: a shopper
 * still filling in the contact step is not one who left it.
 */
import type { CanaryJudge } from '@shop/release';
import type { Db } from '../../db/database.ts';
import { funnelStep, type FunnelStep, type SessionFlag } from '../ops/telemetry/client-sessions.repository.ts';
import { shareDropVerdict, type CommercePolicy, type ShareSide } from './commerce-judge.ts';

type Step = {
  /** The judge's name (the watch's logs and its start line). */
  name: string;
  /** The measure, as the history's reasons and /ops name it. */
  measure: string;
  /** What the minimum counts, in the figures' "treba aspoň N …". */
  base: string;
  part: 'catalog' | 'checkout';
  /** The area's label in /ops (server/console/src/sections/csp.tsx). */
  areaLabel: string;
  from: SessionFlag;
  to: SessionFlag;
  rule: (policy: CommercePolicy) => { min: number; drop: number };
};

const productRule = (policy: CommercePolicy) => ({ min: policy.minProductViews, drop: policy.basketAddDrop });
const stepRule = (policy: CommercePolicy) => ({ min: policy.minStepVisits, drop: policy.stepDrop });

export const BASKET_ADDS: Step = {
  name: 'basket-adds',
  measure: 'pridania do košíka na zobrazenie produktu',
  base: 'relácií so stránkou produktu',
  part: 'catalog',
  areaLabel: 'katalóg',
  from: 'product_view',
  to: 'basket_add',
  rule: productRule,
};

export const BASKET_TO_CONTACT: Step = {
  name: 'checkout-basket-step',
  measure: 'pokračovanie z košíka na kontaktné údaje',
  base: 'návštev košíka',
  part: 'checkout',
  areaLabel: 'pokladňa',
  from: 'basket_step',
  to: 'contact_step',
  rule: stepRule,
};

export const CONTACT_TO_ORDER: Step = {
  name: 'checkout-contact-step',
  measure: 'pokračovanie z kontaktných údajov na krok objednávky',
  base: 'návštev kontaktných údajov',
  part: 'checkout',
  areaLabel: 'pokladňa',
  from: 'contact_step',
  to: 'order_step',
  rule: stepRule,
};

const side = ({ reached, wentOn }: FunnelStep): ShareSide => ({ hits: wentOn, base: reached });

/** The verdict on one step's two sides (pure). */
export function funnelVerdict(step: Step, stable: FunnelStep, canary: FunnelStep, policy: CommercePolicy) {
  return shareDropVerdict({ name: step.measure, base: step.base }, side(stable), side(canary), step.rule(policy));
}

/** The judge the canary watch asks about canaries of the step's area; `now`: the clock the settling is measured on. */
export function funnelJudge(db: Db, step: Step, policy: CommercePolicy, now: () => number = Date.now): CanaryJudge {
  return {
    name: step.name,
    label: `${step.measure} (${step.areaLabel})`,
    areas: [step.part],
    async judge({ canary, stable, since }) {
      const settledBefore = new Date(now() - policy.funnelSettleMs);
      const read = (version: string) => funnelStep(db, { part: step.part, version, from: step.from, to: step.to, since, settledBefore });
      const none: FunnelStep = { reached: 0, wentOn: 0 };
      const [canarySide, stableSide] = await Promise.all([read(canary), stable ? read(stable) : Promise.resolve(none)]);
      return funnelVerdict(step, stableSide, canarySide, policy);
    },
  };
}

/** Every funnel guardrail, in the funnel's order. */
export function funnelJudges(db: Db, policy: CommercePolicy, now?: () => number): CanaryJudge[] {
  return [BASKET_ADDS, BASKET_TO_CONTACT, CONTACT_TO_ORDER].map((step) => funnelJudge(db, step, policy, now));
}
