/**
 * An order's totals, computed once and laid out once for every place that shows them: the basket,
 * the checkout's order step and thank-you page, the account's order, the confirmation e-mail and
 * the invoice. Amounts in thousandths of a euro with VAT (requirements R9.1).
 *
 * - `orderTotals` computes: the goods, the coupon's discount (never more than the goods, R9.5),
 *   shipping and payment, the total, the amount due (rounded to 0.05 € for cash, R9.3) and the VAT
 *   per rate (`vatBreakdown`, in two steps: the discount is spread over the goods' rates only, then
 *   shipping and payment join their rates).
 * - `totalsRows` lays them out: which rows, in which order, with which Slovak label and shown
 *   amount. A part renders the rows in its medium (HTML, e-mail text, PDF).
 */
import type { VatLine } from '../contract/index.ts';
import { formatFee, formatPrice } from './format.ts';
import { DEFAULT_VAT, priceAfterCoupon, roundTo005 } from './money.ts';

/**
 * VAT per rate of prices that include VAT (thousandths): the gross amounts of one rate are summed,
 * the VAT is gross × rate / (100 + rate) rounded to whole cents, the base is the rest. A discount
 * (thousandths, with VAT) is spread over the rates in proportion to their gross amounts; the
 * highest rate takes the rounding remainder. Rates are listed from the highest.
 */
export function vatBreakdown(entries: readonly { gross: number; rate?: number | null }[], discount = 0): VatLine[] {
  const byRate = new Map<number, number>();
  for (const entry of entries) {
    const rate = entry.rate ?? DEFAULT_VAT;
    byRate.set(rate, (byRate.get(rate) ?? 0) + entry.gross);
  }
  const rates = [...byRate.keys()].sort((a, b) => b - a);
  const totalGross = rates.reduce((sum, rate) => sum + byRate.get(rate)!, 0);
  const cut = Math.max(0, Math.min(discount, totalGross));
  let remaining = cut;
  const lines: VatLine[] = [];
  rates.forEach((rate, i) => {
    const gross = byRate.get(rate)!;
    let share = 0;
    if (cut > 0 && totalGross > 0) {
      share = i === 0 ? 0 : Math.round((cut * gross) / totalGross / 10) * 10;
      if (i !== 0) remaining -= share;
    }
    lines.push({ rate, base: 0, vat: 0, total: gross - share });
  });
  if (lines[0] && cut > 0) lines[0].total -= remaining;
  for (const line of lines) {
    line.vat = Math.round((line.total * line.rate) / (100 + line.rate) / 10) * 10;
    line.base = line.total - line.vat;
  }
  return lines.filter((line) => line.total !== 0 || entries.length === 0);
}

/** A shipping or payment method as an order is charged for it: its price with VAT and its VAT rate. */
export type ChargedMethod = { price: number; vat: number };

export type TotalsInput = {
  /** The goods: each line's total with VAT and its VAT rate (the default rate when missing). */
  lines: readonly { lineTotal: number; vat?: number | null }[];
  /** The coupon's discount on the goods. */
  discount: number;
  shipping?: ChargedMethod | null;
  payment?: ChargedMethod | null;
  /** Paid in cash: the amount due is the total rounded to 0.05 €. */
  cash?: boolean;
};

export type OrderTotals = {
  itemsTotal: number;
  /** The discount applied: never more than the goods. */
  discount: number;
  total: number;
  amountDue: number;
  vat: VatLine[];
};

/** The totals of an order (or a basket, a quote) from its lines, discount and methods. */
export function orderTotals(input: TotalsInput): OrderTotals {
  const itemsTotal = input.lines.reduce((sum, line) => sum + line.lineTotal, 0);
  const discount = Math.min(itemsTotal, Math.max(0, input.discount));
  const charged = [input.shipping, input.payment].filter((method): method is ChargedMethod => !!method);
  const total = charged.reduce((sum, method) => sum + method.price, priceAfterCoupon(itemsTotal, discount));
  const goods = vatBreakdown(
    input.lines.map((line) => ({ gross: line.lineTotal, rate: line.vat })),
    discount,
  );
  const vat = vatBreakdown([
    ...goods.map((line) => ({ gross: line.total, rate: line.rate })),
    ...charged.map((method) => ({ gross: method.price, rate: method.vat })),
  ]);
  return { itemsTotal, discount, total, amountDue: input.cash ? roundTo005(total) : total, vat };
}

/** What the rows are laid out from: an order's, a quote's or a basket's figures. */
export type TotalsFigures = {
  itemsTotal: number;
  discount: number;
  couponCode: string | null;
  /** The chosen method's name and price; null when none is chosen (a basket, a quote before the choice). */
  shipping: { name: string; price: number } | null;
  payment: { name: string; price: number } | null;
  vat: readonly VatLine[];
  total: number;
  amountDue: number;
};

export type TotalsRowKind = 'items' | 'discount' | 'shipping' | 'payment' | 'vat' | 'total' | 'amountDue';

export type TotalsRow = {
  kind: TotalsRowKind;
  label: string;
  /** Thousandths; a discount is negative. */
  amount: number;
  /** The amount as shown: a price, a fee ("zadarmo" when free) or a discount (−…). */
  shown: string;
  /** The VAT of one rate (rows of kind 'vat'). */
  vat?: VatLine;
};

/**
 * The totals as every part shows them, in this order: the goods, the coupon's discount (when
 * there is one), shipping and payment (when chosen), the VAT per rate, the total, and the amount
 * due when it differs from the total (cash, rounded to 0.05 €).
 */
export function totalsRows(figures: TotalsFigures): TotalsRow[] {
  const rows: TotalsRow[] = [{ kind: 'items', label: 'Tovar spolu', amount: figures.itemsTotal, shown: formatPrice(figures.itemsTotal) }];
  if (figures.discount > 0)
    rows.push({
      kind: 'discount',
      label: figures.couponCode ? `Zľava (kupón ${figures.couponCode})` : 'Zľava',
      amount: -figures.discount,
      shown: `−${formatPrice(figures.discount)}`,
    });
  if (figures.shipping)
    rows.push({
      kind: 'shipping',
      label: `Doprava: ${figures.shipping.name}`,
      amount: figures.shipping.price,
      shown: formatFee(figures.shipping.price),
    });
  if (figures.payment)
    rows.push({
      kind: 'payment',
      label: `Platba: ${figures.payment.name}`,
      amount: figures.payment.price,
      shown: formatFee(figures.payment.price),
    });
  for (const vat of figures.vat)
    rows.push({ kind: 'vat', label: `z toho DPH ${vat.rate} %`, amount: vat.vat, shown: formatPrice(vat.vat), vat });
  rows.push({ kind: 'total', label: 'Spolu s DPH', amount: figures.total, shown: formatPrice(figures.total) });
  if (figures.amountDue !== figures.total)
    rows.push({
      kind: 'amountDue',
      label: 'Na úhradu v hotovosti (zaokrúhlené na 0,05 €)',
      amount: figures.amountDue,
      shown: formatPrice(figures.amountDue),
    });
  return rows;
}
