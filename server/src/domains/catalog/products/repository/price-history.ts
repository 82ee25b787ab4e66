/**
 * Repository layer: the 30-day lowest price of discounted variants, read from `price_history`
 * (one query for all the variants) with the rule that applies to the rows.
 */
import { unitPriceBeforeSale, unitPriceWithVat } from '@shop/shared-kernel/rules';
import type { VariantData } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../../../db/database.ts';

const DAY = 86_400_000;
export const LOWEST_PRICE_DAYS = 30;

type HistoryRow = { ph_price: number; ph_from: string };

/**
 * The lowest price of the 30 days before a discount (Slovak law, after the EU Omnibus directive):
 * the discount started when the current price came into force (the newest history row when it
 * holds the current price, else now); every price in force at some moment of the 30 days before
 * that counts. Without such history the price before the sale is the answer.
 */
export function lowestPriceBefore(rows: HistoryRow[], current: number, regular: number, now: number): number {
  const sorted = [...rows].sort((a, b) => a.ph_from.localeCompare(b.ph_from));
  const last = sorted[sorted.length - 1];
  const start = last && last.ph_price === current ? Date.parse(last.ph_from) : now;
  const windowStart = start - LOWEST_PRICE_DAYS * DAY;
  let lowest: number | null = null;
  for (let i = 0; i < sorted.length; i++) {
    const row = sorted[i]!;
    const from = Date.parse(row.ph_from);
    if (from >= start) continue;
    const next = sorted[i + 1];
    const until = next ? Math.min(Date.parse(next.ph_from), start) : start;
    if (until <= windowStart) continue;
    lowest = lowest === null ? row.ph_price : Math.min(lowest, row.ph_price);
  }
  return lowest ?? regular;
}

/** A variant's price history row. */
export type VariantHistoryRow = HistoryRow & { v_id: number };

/** The 30-day lowest price of each discounted variant among `variants`, by v_id. */
export async function lowestPrices(db: DbOrTrx, variants: VariantData[], now = Date.now()): Promise<Map<number, number>> {
  const discounted = variants.filter((v) => v.v_sale > 0);
  if (discounted.length === 0) return new Map();
  const rows = await db
    .selectFrom('price_history')
    .select(['v_id', 'ph_price', 'ph_from'])
    .where(
      'v_id',
      'in',
      discounted.map((v) => v.v_id),
    )
    .execute();
  return lowestPricesFromHistory(rows, discounted, now);
}

/** The 30-day lowest price of each discounted variant among `variants`, by v_id, from their history rows (other variants' rows are ignored). */
export function lowestPricesFromHistory(
  rows: readonly VariantHistoryRow[],
  variants: VariantData[],
  now = Date.now(),
): Map<number, number> {
  const out = new Map<number, number>();
  const byVariant = new Map<number, HistoryRow[]>();
  for (const row of rows) {
    const list = byVariant.get(row.v_id);
    if (list) list.push(row);
    else byVariant.set(row.v_id, [row]);
  }
  for (const v of variants) {
    if (v.v_sale > 0) out.set(v.v_id, lowestPriceBefore(byVariant.get(v.v_id) ?? [], unitPriceWithVat(v), unitPriceBeforeSale(v), now));
  }
  return out;
}
