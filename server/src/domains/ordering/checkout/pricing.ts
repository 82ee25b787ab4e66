/**
 * The server's price of a basket: every price, weight and discount comes from the
 * database and the kernel's price rules; nothing the client sends about money is used.
 */
import type { CheckoutLineInput } from '@shop/shared-kernel/contract';
import { BASKET_LIMITS } from '@shop/shared-kernel/schemas';
import type { CheckoutMethod, CheckoutQuote, Coupon, OrderLine } from '@shop/shared-kernel/contract';
import { couponAmountOff, orderTotals, priceAfterCoupon, unitPriceWithVat } from '@shop/shared-kernel/rules';
import type { CouponRow } from '../../../db/coupon.table.ts';
import type { DbOrTrx } from '../../../db/database.ts';
import { CheckoutRepository } from './checkout.repository.ts';
import { ApiError } from '../../../infra/http/errors.ts';
import { CouponRepository } from '../coupon/coupon.repository.ts';
import { check as checkCoupon, couponDiscount } from '../coupon/coupon.service.ts';
import { methodSwitchesNow, paymentSwitchedOff, shippingSwitchedOff, type MethodSwitches } from './method-switches.ts';

/** Payment codes paid in cash: the amount due is rounded to 0.05 € (Slovak law). */
export const CASH_PAYMENTS = new Set(['cod', 'cash']);
/** One pallet carries up to a tonne. */
export const PALLET_GRAMS = 1_000_000;
/** Above this weight the parcel services (courier, pickup point) give way to a pallet. */
export const PARCEL_LIMIT_GRAMS = 30_000;

export type PricedVariant = {
  v_id: number;
  p_id: number;
  v_code: string;
  v_name: string;
  v_unit: string;
  p_name: string;
  v_sell_price: number;
  v_vat: number;
  v_sale: number;
  v_stock: number;
  v_availability: string;
  v_weight: number;
};

export type PricingInput = {
  lines: CheckoutLineInput[];
  shippingCode?: string | null;
  paymentCode?: string | null;
  couponCode?: string | null;
  /** The user of the Bearer token; coupons apply only with one. */
  userId: number | null;
  /** The browser's canary bucket: the checkout's feature switches are decided for it, as its pages do. */
  bucket: number | null;
  now?: Date;
};

export type Pricing = {
  quote: CheckoutQuote;
  variants: Map<number, PricedVariant>;
  coupon: CouponRow | null;
  shipping: (CheckoutMethod & { vat: number }) | null;
  payment: (CheckoutMethod & { vat: number }) | null;
  /** The feature switches the methods were offered under (the caller's refusals name them). */
  switches: MethodSwitches;
};

export const PRICING_MESSAGES = {
  gone: 'Niektorý tovar v košíku sa už nepredáva. Odstráňte ho, prosím, z košíka.',
  signedOut: 'Kupón môže uplatniť iba prihlásený zákazník',
  empty: 'Košík je prázdny.',
};

const basketTooLarge = (message: string) => new ApiError(422, 'validation_failed', `${message} Pre väčší odber nás, prosím, kontaktujte.`);

/**
 * What one basket may hold, checked after repeated lines of a variant are merged (so repeating a
 * line cannot get past the per-line limit): pieces of one item, pieces in all, distinct items.
 */
function checkBasketLimits(lines: CheckoutLineInput[]): void {
  if (lines.length > BASKET_LIMITS.lines)
    throw basketTooLarge(`V jednej objednávke môže byť najviac ${BASKET_LIMITS.lines} rôznych položiek.`);
  if (lines.some((l) => l.amount > BASKET_LIMITS.lineAmount))
    throw basketTooLarge(`Jednej položky môžete objednať najviac ${BASKET_LIMITS.lineAmount.toLocaleString('sk-SK')} ks.`);
  if (lines.reduce((sum, l) => sum + l.amount, 0) > BASKET_LIMITS.totalAmount) {
    throw basketTooLarge(`Objednávka môže mať spolu najviac ${BASKET_LIMITS.totalAmount.toLocaleString('sk-SK')} ks tovaru.`);
  }
}

/** Lines merged by variant (amounts added), in first-seen order. */
export function mergeLines(lines: CheckoutLineInput[]): CheckoutLineInput[] {
  const byId = new Map<number, number>();
  for (const line of lines) byId.set(line.v_id, (byId.get(line.v_id) ?? 0) + line.amount);
  return [...byId].map(([v_id, amount]) => ({ v_id, amount }));
}

async function loadVariants(db: DbOrTrx, ids: number[]): Promise<Map<number, PricedVariant>> {
  const rows = await new CheckoutRepository(db).variants(ids);
  return new Map(rows.map((r) => [r.v_id, r]));
}

export const gross = (net: number, vat: number) => unitPriceWithVat({ v_sellPrice: net, v_vat: vat, v_sale: 0 });

/** Which payment goes with which shipping: the reason a payment is not offered, or null. */
export function paymentRestriction(paymentCode: string, shippingCode: string | null): string | null {
  if (paymentCode === 'cash' && shippingCode !== 'pickup') return 'Len pri osobnom odbere na predajni.';
  if (paymentCode === 'cod' && shippingCode === 'pickup') return 'Pri osobnom odbere platíte na predajni.';
  return null;
}
const kg = (grams: number) => `${Math.round(grams / 1000)} kg`;

async function shippingMethods(db: DbOrTrx, weight: number, itemsAfterDiscount: number, switches: MethodSwitches) {
  const methodsOf = new CheckoutRepository(db);
  const [methods, bands] = await Promise.all([methodsOf.shippingMethods(), methodsOf.weightBands()]);
  return methods.map((m): CheckoutMethod & { vat: number } => {
    let net = m.sm_price;
    let reason: string | null = null;
    const ownBands = bands.filter((b) => b.sm_code === m.sm_code);
    if (m.sm_max_weight !== null && weight > m.sm_max_weight) reason = `Len pre objednávky do ${kg(m.sm_max_weight)}.`;
    else if (ownBands.length > 0) {
      const band = ownBands.find((b) => weight <= b.max_weight);
      if (band) net = band.price;
      else reason = `Len pre objednávky do ${kg(ownBands.at(-1)!.max_weight)}.`;
    }
    if (m.sm_code === 'pallet') {
      if (weight <= PARCEL_LIMIT_GRAMS) reason = `Pre ťažké a objemné objednávky nad ${kg(PARCEL_LIMIT_GRAMS)}.`;
      net = m.sm_price * Math.max(1, Math.ceil(weight / PALLET_GRAMS));
    }
    reason = shippingSwitchedOff(m.sm_code, switches) ?? reason;
    const free = m.sm_free_from !== null && itemsAfterDiscount >= m.sm_free_from;
    return {
      code: m.sm_code,
      name: m.sm_name,
      description: free ? `${m.sm_description} Pri tejto objednávke zadarmo.` : m.sm_description,
      price: free ? 0 : gross(net, m.sm_vat),
      vat: m.sm_vat,
      available: reason === null,
      reason,
    };
  });
}

async function paymentMethods(db: DbOrTrx, shippingCode: string | null, switches: MethodSwitches) {
  const methods = await new CheckoutRepository(db).paymentMethods();
  return methods.map((m): CheckoutMethod & { vat: number } => {
    const reason = paymentSwitchedOff(m.pm_code, switches) ?? paymentRestriction(m.pm_code, shippingCode);
    return {
      code: m.pm_code,
      name: m.pm_name,
      description: m.pm_description,
      price: gross(m.pm_price, m.pm_vat),
      vat: m.pm_vat,
      available: reason === null,
      reason,
    };
  });
}

/**
 * Prices a basket. Unknown variants make it fail (409); the chosen shipping and payment are
 * null when not given, unknown or not available for this basket (the caller decides whether
 * that is an error). A coupon that does not validate for the user is reported in couponMessage.
 */
export async function priceBasket(db: DbOrTrx, input: PricingInput): Promise<Pricing> {
  const merged = mergeLines(input.lines);
  checkBasketLimits(merged);
  const variants = await loadVariants(
    db,
    merged.map((l) => l.v_id),
  );
  if (merged.some((l) => !variants.has(l.v_id))) throw new ApiError(409, 'conflict', PRICING_MESSAGES.gone);

  const lines: OrderLine[] = merged.map(({ v_id, amount }) => {
    const v = variants.get(v_id)!;
    const unitPrice = unitPriceWithVat({ v_sellPrice: v.v_sell_price, v_vat: v.v_vat, v_sale: v.v_sale });
    return {
      v_id,
      v_code: v.v_code,
      p_name: v.p_name,
      v_name: v.v_name,
      v_unit: v.v_unit,
      amount,
      unitPrice,
      vat: v.v_vat,
      lineTotal: unitPrice * amount,
    };
  });
  const itemsTotal = lines.reduce((sum, l) => sum + l.lineTotal, 0);
  const weight = merged.reduce((sum, l) => sum + variants.get(l.v_id)!.v_weight * l.amount, 0);

  let coupon: CouponRow | null = null;
  let couponInfo: Coupon | null = null;
  let discount = 0;
  let couponMessage: string | null = null;
  const code = input.couponCode?.trim().toUpperCase() ?? '';
  if (code) {
    if (input.userId === null) couponMessage = PRICING_MESSAGES.signedOut;
    else {
      const outcome = await checkCoupon(new CouponRepository(db), code, input.userId, merged, input.now ?? new Date());
      if (outcome.ok) {
        coupon = outcome.coupon;
        couponInfo = { code: outcome.coupon.code };
        // Thousandths throughout, rounded to whole cents, never more than the goods (requirements R9.5).
        discount = couponAmountOff(couponDiscount(outcome.coupon, itemsTotal), itemsTotal);
      } else couponMessage = outcome.message;
    }
  }
  const itemsAfterDiscount = priceAfterCoupon(itemsTotal, discount);

  const switches = await methodSwitchesNow(db, input.bucket);
  const shippingList = await shippingMethods(db, weight, itemsAfterDiscount, switches);
  const shipping = shippingList.find((m) => m.code === input.shippingCode && m.available) ?? null;
  const paymentList = await paymentMethods(db, shipping?.code ?? input.shippingCode ?? null, switches);
  const payment = paymentList.find((m) => m.code === input.paymentCode && m.available) ?? null;

  const { total, amountDue, vat } = orderTotals({ lines, discount, shipping, payment, cash: !!payment && CASH_PAYMENTS.has(payment.code) });

  const strip = ({ vat: _vat, ...method }: CheckoutMethod & { vat: number }): CheckoutMethod => method;
  return {
    quote: {
      lines,
      weight,
      itemsTotal,
      coupon: couponInfo,
      discount,
      couponMessage,
      shipping: shippingList.map(strip),
      payment: paymentList.map(strip),
      shippingPrice: shipping?.price ?? 0,
      paymentPrice: payment?.price ?? 0,
      total,
      amountDue,
      vat,
    },
    variants,
    coupon,
    shipping,
    payment,
    switches,
  };
}
