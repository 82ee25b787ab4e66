/**
 * The canary watch's second commerce guardrail for the checkout: the share of card payments that do
 * not succeed, per checkout version, the canary against the stable one since the canary started.
 * Counted by the server alone: the payments the gateway ended (paid, failed or cancelled, as its
 * signed notifications said) of orders placed by browsers the server decided were served that
 * version (order_versions). Nothing a browser sends counts. With at least `minCardPayments` ended
 * payments on each side, a canary whose failed share is higher than the stable one's by more than
 * `cardFailureRise` (percentage points) is aborted, the reason naming both figures; with fewer, no
 * verdict, which holds nothing (`abort-only`): in a shop where most pay by transfer or on delivery
 * a good canary may never see enough card payments, and the orders guardrail still holds it.
 */
import type { CanaryJudge, CanaryJudgeVerdict } from '@shop/release';
import type { Db } from '../../db/database.ts';
import type { CommercePolicy } from './commerce-judge.ts';
import { cardPaymentsWith, type CardPaymentOutcomes } from './order-versions.repository.ts';

/** The measure, as the history's reasons and /ops name it. */
const MEASURE = 'neúspešné platby kartou';
export const CARD_PAYMENT_LABEL = `${MEASURE} (pokladňa)`;
const PART = 'checkout';

const share = (side: CardPaymentOutcomes) => side.failed / Math.max(side.finished, 1);
const shown = (side: CardPaymentOutcomes) => `${side.failed}/${side.finished} (${Math.round(share(side) * 100)} %)`;

/** The verdict on the two sides' figures (pure: the rule in one place). */
export function cardPaymentVerdict(
  stable: CardPaymentOutcomes,
  canary: CardPaymentOutcomes,
  policy: Pick<CommercePolicy, 'minCardPayments' | 'cardFailureRise'>,
): CanaryJudgeVerdict {
  const both = `kanárik ${shown(canary)}, stabilná ${shown(stable)}`;
  if (canary.finished < policy.minCardPayments || stable.finished < policy.minCardPayments) {
    return {
      verdict: 'unknown',
      figures: `${MEASURE}: málo údajov (${both}; treba aspoň ${policy.minCardPayments} ukončených platieb na každej strane)`,
    };
  }
  const allowed = `povolený nárast ${Math.round(policy.cardFailureRise * 100)} bodov`;
  const rise = share(canary) - share(stable);
  if (rise > policy.cardFailureRise) {
    return { verdict: 'regressed', figures: `${MEASURE}: ${both}; viac o ${Math.round(rise * 100)} bodov, ${allowed}` };
  }
  return { verdict: 'healthy', figures: `${MEASURE}: ${both}; ${allowed}` };
}

/** The judge the canary watch asks about checkout canaries. */
export function cardPaymentJudge(db: Db, policy: CommercePolicy): CanaryJudge {
  return {
    name: 'card-payments',
    label: CARD_PAYMENT_LABEL,
    areas: [PART],
    // Many good canaries see few card payments: too few holds nothing; a rise still aborts.
    role: 'abort-only',
    async judge({ canary, stable, since }) {
      const none: CardPaymentOutcomes = { failed: 0, finished: 0 };
      const [canarySide, stableSide] = await Promise.all([
        cardPaymentsWith(db, PART, canary, since),
        stable ? cardPaymentsWith(db, PART, stable, since) : Promise.resolve(none),
      ]);
      return cardPaymentVerdict(stableSide, canarySide, policy);
    },
  };
}
