/**
 * Money rules (requirements R9.1, R9.3–R9.6). Every amount is an integer in thousandths
 * of a euro (12.50 € = 12500). Prices shown to the shopper include VAT and
 * are rounded to whole cents, so the displayed unit price is exactly the
 * number a line total multiplies.
 */
import type { BasketLine, VariantData } from '../contract/index.ts';

/** Amounts are held in thousandths of a euro. */
export const AMOUNT_SCALE = 1000;
/** VAT in percent used when a variant carries none. */
export const DEFAULT_VAT = 23;

/** One cent in thousandths. */
const CENT = 10;

/** The price fields the rules need; v_vat and v_sale may be missing. */
export type PriceInput = {
  v_sellPrice: number;
  v_vat?: number | null;
  v_sale?: number | null;
};

/** A line as the total rules need it. */
export type PricedLine = Pick<BasketLine, 'amount'> & { variantData: PriceInput };

/** Integer division of a by b (b > 0) rounded half away from zero. */
function divRound(a: bigint, b: bigint): bigint {
  const negative = a < 0n;
  const abs = negative ? -a : a;
  const q = (abs + b / 2n) / b;
  return negative ? -q : q;
}

function vatOf(v: PriceInput): number {
  return v.v_vat ?? DEFAULT_VAT;
}

function saleOf(v: PriceInput): number {
  return v.v_sale ?? 0;
}

/**
 * sellPrice × (100 + vat) / 100 × (100000 − sale) / 100000, rounded to whole
 * cents. Integer inputs are computed exactly with BigInt (one rounding,
 * half away from zero); non-integer VAT or sale fall back to floats with a
 * guard against binary representation error.
 */
function priceWithVat(sellPrice: number, vat: number, sale: number): number {
  if (Number.isInteger(sellPrice) && Number.isInteger(vat) && Number.isInteger(sale)) {
    const numerator = BigInt(sellPrice) * BigInt(100 + vat) * BigInt(100_000 - sale);
    // numerator / (100 × 100000) gives thousandths; divide by 10 more for cents.
    const cents = divRound(numerator, 100n * 100_000n * BigInt(CENT));
    return Number(cents) * CENT + 0;
  }
  const exact = ((sellPrice * (100 + vat)) / 100) * ((100_000 - sale) / 100_000);
  const cents = Number((exact / CENT).toFixed(6));
  return Math.sign(cents) * Math.round(Math.abs(cents)) * CENT + 0;
}

/** Unit price with VAT and after the sale discount, in thousandths, whole cents. */
export function unitPriceWithVat(v: PriceInput): number {
  return priceWithVat(v.v_sellPrice, vatOf(v), saleOf(v));
}

/** Unit price with VAT before the sale discount (the struck-through price). */
export function unitPriceBeforeSale(v: PriceInput): number {
  return priceWithVat(v.v_sellPrice, vatOf(v), 0);
}

/** The sale discount as an integer percent (v_sale is in thousandths of a percent). */
export function salePercent(v: Pick<PriceInput, 'v_sale'>): number {
  return Math.round((v.v_sale ?? 0) / 1000) + 0;
}

/** Rounded unit price times the amount. */
export function lineTotal(line: PricedLine): number {
  return unitPriceWithVat(line.variantData) * line.amount;
}

/** Sum of the line totals. */
export function basketTotal(lines: readonly PricedLine[]): number {
  let total = 0;
  for (const line of lines) total += lineTotal(line);
  return total;
}

/**
 * The coupon discount of a validation answer (in euros) as thousandths:
 * rounded to whole cents, never negative. 2.5 → 2500, 1.005 → 1010.
 */
export function couponDiscountAmount(discountEur: number): number {
  if (!Number.isFinite(discountEur) || discountEur <= 0) return 0;
  // toFixed strips binary noise such as 1.005 * 100 = 100.49999999999999.
  const cents = Math.round(Number((discountEur * 100).toFixed(6)));
  return cents * CENT;
}

/** Thousandths rounded to whole cents, half away from zero: 1005 → 1010, 1004 → 1000, −1005 → −1010. */
export function roundToCents(amount: number): number {
  return Math.sign(amount) * Math.round(Math.abs(amount) / CENT) * CENT + 0;
}

/**
 * A coupon's discount on the goods (both in thousandths, requirements R9.5), kept in thousandths:
 * rounded to whole cents, never negative and never more than the goods, so the price after it is
 * never below 0.
 */
export function couponAmountOff(discount: number, goods: number): number {
  if (!Number.isFinite(discount) || discount <= 0) return 0;
  return Math.min(Math.max(0, goods), roundToCents(discount));
}

/** The total after the coupon discount; never below 0. */
export function priceAfterCoupon(total: number, discountAmount: number): number {
  return Math.max(0, total - Math.max(0, discountAmount));
}

/** Rounds thousandths to the nearest 0.05 € (50 thousandths), half away from zero. */
export function roundTo005(amount: number): number {
  return Math.sign(amount) * Math.round(Math.abs(amount) / 50) * 50 + 0;
}

/**
 * Price per base unit (per kg, per m², per l, …) from v_baseAmount (base units
 * per piece, in thousandths) and v_baseUnit, rounded to whole cents.
 * Null when the variant has no base unit or no positive base amount.
 */
export function basePrice(v: VariantData): { price: number; unit: string } | null {
  if (v.v_baseAmount === null || v.v_baseUnit === null) return null;
  if (!(v.v_baseAmount > 0)) return null;
  const unitPrice = unitPriceWithVat(v);
  const perUnitCents = divRound(BigInt(unitPrice) * BigInt(AMOUNT_SCALE), BigInt(Math.round(v.v_baseAmount)) * BigInt(CENT));
  return { price: Number(perUnitCents) * CENT + 0, unit: v.v_baseUnit };
}
