import type { CouponValidation } from '@shop/shared-kernel/contract';
import type { CouponRow } from '../../../db/coupon.table.ts';
import { toEuros } from '../../../infra/pure/format.ts';
import { formatPrice, basketTotal as rulesBasketTotal } from '@shop/shared-kernel/rules';
import type { CouponRepository } from './coupon.repository.ts';

export const COUPON_MESSAGES = {
  empty: 'Kód je prázdny',
  unknown: 'Kupón neexistuje alebo už neplatí',
  exhausted: 'Kupón už bol vyčerpaný',
  used: 'Tento kupón ste už použili',
  minTotal: (min: number) => `Kupón platí pri nákupe od ${formatPrice(min)}`,
  applied: 'Kupón bol uplatnený',
} as const;

export type CartLineInput = { v_id: number; amount: number };

export const isCouponCurrent = (coupon: CouponRow, now: Date): boolean => {
  const t = now.toISOString();
  return coupon.valid_from <= t && t <= coupon.valid_to;
};

const invalid = (message: string): CouponValidation => ({ valid: false, message, coupon: null, discount: 0 });

/**
 * Validates a coupon for a user against the basket re-priced from the database (client prices
 * and totals are ignored). A valid coupon becomes the user's active one. Any refused code clears
 * the active coupon, as the basket's coupon store does on the client (requirements R4.4), so both
 * sides agree after a reload.
 */
export async function validateCoupon(
  repo: CouponRepository,
  input: { userId: number; code: string; cart: CartLineInput[]; now?: Date },
): Promise<CouponValidation> {
  const code = input.code.trim().toUpperCase();
  if (code === '') return invalid(COUPON_MESSAGES.empty);
  const outcome = await check(repo, code, input.userId, input.cart, input.now ?? new Date());
  if (!outcome.ok) {
    await repo.clearActive(input.userId);
    return invalid(outcome.message);
  }
  await repo.setActive(input.userId, outcome.coupon.coupon_id);
  return {
    valid: true,
    message: COUPON_MESSAGES.applied,
    coupon: { code: outcome.coupon.code },
    discount: toEuros(outcome.discount),
  };
}

/** The user's active coupon while it is current, else null. */
export async function activeCoupon(repo: CouponRepository, userId: number, now = new Date()): Promise<{ code: string } | null> {
  const active = await repo.activeCoupon(userId);
  return active && isCouponCurrent(active, now) ? { code: active.code } : null;
}

type Outcome = { ok: true; coupon: CouponRow; discount: number } | { ok: false; message: string };

/** The coupon rules: exists and is current, use limits, minimum total; then the discount. */
export async function check(repo: CouponRepository, code: string, userId: number, cart: CartLineInput[], now: Date): Promise<Outcome> {
  const coupon = await repo.byCode(code);
  if (!coupon || !isCouponCurrent(coupon, now)) return { ok: false, message: COUPON_MESSAGES.unknown };

  const refused = await usesLeft(repo, coupon, userId);
  if (refused) return { ok: false, message: refused };

  const total = await basketTotal(repo, cart);
  if (total < coupon.min_total) return { ok: false, message: COUPON_MESSAGES.minTotal(coupon.min_total) };
  return { ok: true, coupon, discount: couponDiscount(coupon, total) };
}

const isLimited = (coupon: CouponRow) => coupon.max_uses !== null || coupon.once_per_customer === 1;

/** The use limits (in all, once per customer): the refusal's message, or null while the coupon may be used. */
async function usesLeft(repo: CouponRepository, coupon: CouponRow, userId: number): Promise<string | null> {
  if (!isLimited(coupon)) return null;
  const uses = await repo.redemptionCounts(coupon.coupon_id, userId);
  if (coupon.max_uses !== null && uses.total >= coupon.max_uses) return COUPON_MESSAGES.exhausted;
  if (coupon.once_per_customer === 1 && uses.byUser > 0) return COUPON_MESSAGES.used;
  return null;
}

/**
 * Records an order's use of a coupon, in the order's transaction: the use limits are counted again
 * under the coupon's row lock, so concurrent orders of one customer (or the last uses of a limited
 * coupon) cannot all pass the check made while pricing. Answers the refusal's message, or null when
 * recorded; the caller rolls the order back on a refusal.
 */
export async function redeemCoupon(
  repo: CouponRepository,
  coupon: CouponRow,
  userId: number,
  orderRef: string,
  at: string,
): Promise<string | null> {
  if (isLimited(coupon)) {
    await repo.lock(coupon.coupon_id);
    const refused = await usesLeft(repo, coupon, userId);
    if (refused) return refused;
  }
  await repo.redeem(coupon.coupon_id, userId, orderRef, at);
  await repo.clearActive(userId);
  return null;
}

/** Discount of a coupon on a total, thousandths of a euro; never more than the total. */
export function couponDiscount(coupon: Pick<CouponRow, 'kind' | 'value'>, total: number): number {
  const raw = coupon.kind === 'percent' ? Math.round((total * coupon.value) / 100_000) : coupon.value;
  return Math.max(0, Math.min(raw, total));
}

/**
 * Basket total with VAT in thousandths, from database prices and the shared price rules
 * (unit price with VAT in whole cents times the amount); unknown variants count as nothing.
 */
export async function basketTotal(repo: CouponRepository, cart: CartLineInput[]): Promise<number> {
  const prices = await repo.variantPrices([...new Set(cart.map((l) => l.v_id))]);
  const byId = new Map(prices.map((p) => [p.v_id, { v_sellPrice: p.v_sell_price, v_vat: p.v_vat, v_sale: p.v_sale }]));
  const lines = cart.flatMap((line) => {
    const variantData = byId.get(line.v_id);
    return variantData ? [{ amount: line.amount, variantData }] : [];
  });
  return Math.round(rulesBasketTotal(lines));
}
