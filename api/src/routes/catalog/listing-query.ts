import type { Availability } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../db/database.ts';
import { notFound } from '../../lib/errors.ts';
import type { CategoryTree } from './category-tree.ts';
import type { ProductFilter } from './product-filter.ts';

/** The listing's query after schema validation: fixed keys plus f{attr_id} and r{attr_id}. */
export type RawListingQuery = {
  category?: string;
  brand?: string;
  sale?: 0 | 1;
  brands?: string;
  avail?: string;
  price?: string;
  [key: string]: unknown;
};

const split = (text: string | undefined) =>
  (text ?? '')
    .split('|')
    .map((v) => v.trim())
    .filter(Boolean);

/** "10-50", "10-", "-50" (decimal comma or dot) in thousandths of the unit; null for an open side. */
export function parseRange(text: string): { min: number | null; max: number | null } {
  const [lo = '', hi = ''] = text.split('-');
  const value = (part: string) => (part === '' ? null : Math.round(Number(part.replace(',', '.')) * 1000));
  const min = value(lo);
  const max = value(hi);
  return min !== null && max !== null && min > max ? { min: max, max: min } : { min, max };
}

/**
 * Turns the listing query into a filter: category and brand pages (404 when unknown), the sale
 * listing, and the facet filters (unknown brands in a shared URL are ignored).
 */
export async function toProductFilter(db: DbOrTrx, tree: CategoryTree, query: RawListingQuery): Promise<ProductFilter> {
  const filter: ProductFilter = { saleOnly: query.sale === 1 };
  if (query.category !== undefined) {
    const found = tree.findByUrl(query.category);
    if (!found) throw notFound('Kategória sa nenašla.');
    filter.categoryIds = tree.subtreeIds(found.cat_id);
  }
  if (query.brand !== undefined) {
    const found = await db.selectFrom('brands').select('b_id').where('b_url', '=', query.brand).executeTakeFirst();
    if (!found) throw notFound('Značka sa nenašla.');
    filter.brandId = found.b_id;
  }
  const brandUrls = split(query.brands);
  if (brandUrls.length > 0) {
    const rows = await db.selectFrom('brands').select('b_id').where('b_url', 'in', brandUrls).execute();
    if (rows.length > 0) filter.brandIds = rows.map((r) => r.b_id);
  }
  const availability = split(query.avail) as Availability[];
  if (availability.length > 0) filter.availability = availability;
  if (query.price) {
    const { min, max } = parseRange(query.price);
    if (min !== null) filter.priceMin = min;
    if (max !== null) filter.priceMax = max;
  }
  for (const [key, value] of Object.entries(query)) {
    if (typeof value !== 'string') continue;
    const match = /^([fr])([1-9][0-9]{0,8})$/.exec(key);
    if (!match) continue;
    const attrId = Number(match[2]);
    if (match[1] === 'f') {
      const values = split(value).slice(0, 50);
      if (values.length > 0) (filter.attrValues ??= []).push({ attrId, values });
    } else {
      const range = parseRange(value);
      if (range.min !== null || range.max !== null) (filter.attrRanges ??= []).push({ attrId, ...range });
    }
  }
  return filter;
}
