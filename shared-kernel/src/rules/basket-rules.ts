/**
 * Rules of the basket that the stores apply and the pages show: the pieces
 * in it, the total after the coupon, and how each line differs from what the
 * shopper saw when adding it. Pure: the stores keep the one basket, every part
 * may bundle these.
 */
import type { BasketLine } from '../contract/index.ts';
import { basketTotal, priceAfterCoupon, unitPriceWithVat } from './money.ts';

/** sessionStorage key of the checkout draft (the checkout store). */
export const CHECKOUT_DRAFT_KEY = 'checkoutDraft';
/** localStorage key of the price and availability each line had when it was put in the basket. */
export const BASKET_SEEN_KEY = 'cartSeen';

/** Number of pieces in the basket (sum of amounts), e.g. for the header badge. */
export function basketCount(lines: readonly BasketLine[]): number {
  let count = 0;
  for (const line of lines) count += line.amount;
  return count;
}

/** The basket total after the coupon discount, never below 0. */
export function finalTotal(lines: readonly BasketLine[], discount: number): number {
  return priceAfterCoupon(basketTotal(lines), discount);
}

/** Unit price with VAT and availability of a line as the shopper last accepted them. */
export type SeenLine = { price: number; available: boolean };

export type LineChange = {
  v_id: number;
  /** Price the shopper saw, and the current one (thousandths, with VAT). */
  seenPrice: number;
  price: number;
  priceChanged: boolean;
  unavailable: boolean;
};

/** A line's unit price with VAT and availability now. */
export function seenLine(line: BasketLine): SeenLine {
  return { price: unitPriceWithVat(line.variantData), available: line.variantData.v_availability !== 'unavailable' };
}

/** How each line differs from what the shopper saw when adding it (only changed lines). */
export function basketChanges(lines: readonly BasketLine[], seen: Record<string, SeenLine>): LineChange[] {
  const changes: LineChange[] = [];
  for (const line of lines) {
    const now = seenLine(line);
    const before = seen[String(line.v_id)] ?? now;
    const priceChanged = before.price !== now.price;
    const unavailable = !now.available;
    if (priceChanged || unavailable) {
      changes.push({ v_id: line.v_id, seenPrice: before.price, price: now.price, priceChanged, unavailable });
    }
  }
  return changes;
}
