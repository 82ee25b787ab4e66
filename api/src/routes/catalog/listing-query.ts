import type { Availability } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../db/database.ts';
import { ApiError, notFound } from '../../lib/errors.ts';
import { LIMIT_MESSAGES, LISTING_LIMITS } from './limits.ts';
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

const tooMany = (message: string) => new ApiError(400, 'validation_failed', message);

/** The values of a multi-value filter ('|'-separated), refused past `max` values or the value length. */
function split(text: string | undefined, max: number, message: string): string[] {
  const values = (text ?? '')
    .split('|')
    .map((v) => v.trim())
    .filter(Boolean);
  if (values.length > max) throw tooMany(message);
  if (values.some((v) => v.length > LISTING_LIMITS.valueLength)) throw tooMany(LIMIT_MESSAGES.valueLength);
  return values;
}

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
  const attributeKeys = Object.keys(query).filter((key) => /^[fr][1-9][0-9]{0,8}$/.test(key));
  if (attributeKeys.length > LISTING_LIMITS.attributeFilters) throw tooMany(LIMIT_MESSAGES.attributeFilters);
  const brandUrls = split(query.brands, LISTING_LIMITS.brands, LIMIT_MESSAGES.brands);
  if (brandUrls.length > 0) {
    const rows = await db.selectFrom('brands').select('b_id').where('b_url', 'in', brandUrls).execute();
    if (rows.length > 0) filter.brandIds = rows.map((r) => r.b_id);
  }
  const availability = split(query.avail, 3, LIMIT_MESSAGES.valuesPerFilter) as Availability[];
  if (availability.length > 0) filter.availability = availability;
  if (query.price) {
    const { min, max } = parseRange(query.price);
    if (min !== null) filter.priceMin = min;
    if (max !== null) filter.priceMax = max;
  }
  // Only attributes that exist and are offered as filters count; the rest of a shared URL is ignored (one query for all).
  const requested = [...new Set(attributeKeys.map((key) => Number(key.slice(1))))];
  const known = requested.length === 0 ? new Set<number>() : new Set(
    (await db.selectFrom('attributes').select('attr_id').where('attr_id', 'in', requested).where('use_attr', '=', 1).execute()).map((r) => r.attr_id),
  );
  for (const key of attributeKeys) {
    const value = query[key];
    const attrId = Number(key.slice(1));
    if (typeof value !== 'string' || !known.has(attrId)) continue;
    if (key.startsWith('f')) {
      const values = split(value, LISTING_LIMITS.valuesPerFilter, LIMIT_MESSAGES.valuesPerFilter);
      if (values.length > 0) (filter.attrValues ??= []).push({ attrId, values });
    } else {
      const range = parseRange(value);
      if (range.min !== null || range.max !== null) (filter.attrRanges ??= []).push({ attrId, ...range });
    }
  }
  return filter;
}
