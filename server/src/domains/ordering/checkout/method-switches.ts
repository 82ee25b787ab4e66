/**
 * Which checkout methods the checkout area's feature switches turn off, decided for one browser
 * (its canary bucket, as its pages decide them). The quote offers a switched-off method as not
 * available, with the reason; placing an order with one is refused with its own message.
 */
import { CHECKOUT_FLAGS, flagOn, type FlagShares } from '@shop/shared-kernel/rules';
import type { DbOrTrx } from '../../../db/database.ts';
import { flagShares } from '../../releases/feature-flags.repository.ts';

/** The shipping method that delivers to a pickup point the shopper chooses. */
export const PICKUP_POINT_SHIPPING = 'pickup-point';

/** What the quote says of a method while it is switched off. */
export const SWITCHED_OFF_REASON = {
  card: 'Platba kartou je práve vypnutá.',
  pickupPoint: 'Doprava na výdajné miesto je práve vypnutá.',
} as const;

export type MethodSwitches = { cardOff: boolean; pickupPointsOff: boolean };

export function methodSwitches(flags: FlagShares, bucket: number | null): MethodSwitches {
  return {
    cardOff: !flagOn(flags, 'checkout', CHECKOUT_FLAGS.cardPayment, bucket),
    pickupPointsOff: !flagOn(flags, 'checkout', CHECKOUT_FLAGS.pickupPoints, bucket),
  };
}

/** The switches in force now (the table, read in the caller's transaction when it has one). */
export async function methodSwitchesNow(db: DbOrTrx, bucket: number | null): Promise<MethodSwitches> {
  return methodSwitches(await flagShares(db), bucket);
}

/** The reason a shipping method is switched off for this browser, or null. */
export function shippingSwitchedOff(code: string, switches: MethodSwitches): string | null {
  return code === PICKUP_POINT_SHIPPING && switches.pickupPointsOff ? SWITCHED_OFF_REASON.pickupPoint : null;
}

/** The reason a payment method is switched off for this browser, or null. */
export function paymentSwitchedOff(code: string, switches: MethodSwitches): string | null {
  return code === 'card' && switches.cardOff ? SWITCHED_OFF_REASON.card : null;
}
