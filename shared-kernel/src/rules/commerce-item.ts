/** The product of a commerce event (analytics, confirmations), from the variant the shopper sees. */
import type { CommerceItem } from '../singleton/event-bus.ts';
import type { BasketLine, VariantData } from '../contract/index.ts';
import { basketTotal, unitPriceWithVat } from './money.ts';

export function commerceItem(variant: VariantData, quantity = 1): CommerceItem {
  return { id: variant.v_code, name: variant.p_name, variant: variant.v_name, price: unitPriceWithVat(variant), quantity };
}

/** The basket's lines as commerce items and their value (goods with VAT, before a coupon). */
export function basketCommerce(lines: readonly BasketLine[]): { items: CommerceItem[]; value: number } {
  return { items: lines.map((line) => commerceItem(line.variantData, line.amount)), value: basketTotal(lines) };
}
