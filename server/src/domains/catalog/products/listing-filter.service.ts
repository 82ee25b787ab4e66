/**
 * Reading a listing query (GET /api/products and /api/products/facets) into a ProductFilter: the
 * request limits the schema cannot check (the counts of filters, values and brands, refused with
 * a Slovak 400 before any query runs), the price and attribute ranges, and the lookups of
 * brands and attributes through the repository (from memory: repository/catalog-names.ts).
 */
import type { Availability, ListingFacetsQuery } from '@shop/shared-kernel/contract';
import { LISTING_LIMITS } from '@shop/shared-kernel/schemas';
import { ApiError, notFound } from '../../../infra/http/errors.ts';
import type { CatalogRepository } from './repository/catalog.repository.ts';
import type { CategoryTree } from './repository/category-tree.ts';
import type { ProductFilter } from './repository/product-filter.ts';

/** Availability values (`avail`): in_stock, to_order, unavailable; a repeated one counts once. */
const AVAILABILITY_VALUES = 3;

export const LIMIT_MESSAGES = {
  attributeFilters: `Príliš veľa filtrov naraz (najviac ${LISTING_LIMITS.attributeFilters}). Zrušte niektoré filtre.`,
  valuesPerFilter: `Príliš veľa hodnôt jedného filtra (najviac ${LISTING_LIMITS.valuesPerFilter}).`,
  brands: `Príliš veľa značiek naraz (najviac ${LISTING_LIMITS.brands}).`,
  valueLength: `Hodnota filtra je príliš dlhá (najviac ${LISTING_LIMITS.valueLength} znakov).`,
} as const;

/** The listing's query after schema validation: the named parameters plus f{attr_id} and r{attr_id}. */
export type ListingFilterInput = Omit<ListingFacetsQuery, `f${number}` | `r${number}`> & { [key: string]: unknown };

const tooMany = (message: string) => new ApiError(400, 'validation_failed', message);

const ATTRIBUTE_KEY = /^[fr][1-9][0-9]{0,8}$/;

/** The distinct values of a multi-value filter ('|'-separated), refused past `max` values or the value length. */
function split(text: string | undefined, max: number, message: string): string[] {
  const values = [
    ...new Set(
      (text ?? '')
        .split('|')
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
  if (values.length > max) throw tooMany(message);
  if (values.some((v) => v.length > LISTING_LIMITS.valueLength)) throw tooMany(LIMIT_MESSAGES.valueLength);
  return values;
}

type AttributeRequest = { attrId: number } & ({ values: string[] } | { min: number | null; max: number | null });

/** The filters a query asks for, within LISTING_LIMITS (refused past them); runs no query. */
function boundedFilters(query: ListingFilterInput) {
  const attributeKeys = Object.keys(query).filter((key) => ATTRIBUTE_KEY.test(key));
  if (attributeKeys.length > LISTING_LIMITS.attributeFilters) throw tooMany(LIMIT_MESSAGES.attributeFilters);
  const attributes: AttributeRequest[] = [];
  for (const key of attributeKeys) {
    const value = query[key];
    if (typeof value !== 'string') continue;
    const attrId = Number(key.slice(1));
    if (key.startsWith('f')) {
      const values = split(value, LISTING_LIMITS.valuesPerFilter, LIMIT_MESSAGES.valuesPerFilter);
      if (values.length > 0) attributes.push({ attrId, values });
    } else {
      const range = parseRange(value);
      if (range.min !== null || range.max !== null) attributes.push({ attrId, ...range });
    }
  }
  return {
    brandUrls: split(query.brands, LISTING_LIMITS.brands, LIMIT_MESSAGES.brands),
    // The schema admits only the three availability values, so no more than three are distinct.
    availability: split(query.avail, AVAILABILITY_VALUES, LIMIT_MESSAGES.valuesPerFilter) as Availability[],
    attributes,
  };
}

/** The largest value of the 32-bit integer columns ranges compare with (prices, numeric attributes). */
const INT32_MAX = 2_147_483_647;

/**
 * "10-50", "10-", "-50" (decimal comma or dot) in thousandths of the unit; null for an open side.
 * A bound past the columns' range is taken as their largest value (PostgreSQL refuses to compare
 * an integer column with a larger number).
 */
export function parseRange(text: string): { min: number | null; max: number | null } {
  const [lo = '', hi = ''] = text.split('-');
  const value = (part: string) => (part === '' ? null : Math.min(INT32_MAX, Math.round(Number(part.replace(',', '.')) * 1000)));
  const min = value(lo);
  const max = value(hi);
  return min !== null && max !== null && min > max ? { min: max, max: min } : { min, max };
}

/**
 * Turns the listing query into a filter: category and brand pages (404 when unknown), the sale
 * listing, and the facet filters (unknown brands and attributes in a shared URL are ignored).
 * The limits are checked first, so a refused request looks nothing up; an accepted one looks its
 * brands and attributes up in memory, however many filters it has.
 */
export async function toProductFilter(catalog: CatalogRepository, tree: CategoryTree, query: ListingFilterInput): Promise<ProductFilter> {
  const { brandUrls, availability, attributes } = boundedFilters(query);
  const filter: ProductFilter = { saleOnly: query.sale === 1 };
  if (query.category !== undefined) {
    const found = tree.findByUrl(query.category);
    if (!found) throw notFound('Kategória sa nenašla.');
    filter.categoryId = found.cat_id;
    filter.categoryIds = tree.subtreeIds(found.cat_id);
  }
  if (query.brand !== undefined) {
    const brandId = await catalog.brandIdByUrl(query.brand);
    if (brandId === undefined) throw notFound('Značka sa nenašla.');
    filter.brandId = brandId;
  }
  if (brandUrls.length > 0) {
    const brandIds = await catalog.brandIdsByUrls(brandUrls);
    if (brandIds.length > 0) filter.brandIds = brandIds;
  }
  if (availability.length > 0) filter.availability = availability;
  if (query.price) {
    const { min, max } = parseRange(query.price);
    if (min !== null) filter.priceMin = min;
    if (max !== null) filter.priceMax = max;
  }
  // Only attributes that exist and are offered as filters count; the rest of a shared URL is ignored (one query for all).
  const requested = [...new Set(attributes.map((a) => a.attrId))];
  if (requested.length === 0) return filter;
  const known = await catalog.filterableAttributeIds(requested);
  for (const attribute of attributes) {
    if (!known.has(attribute.attrId)) continue;
    if ('values' in attribute) (filter.attrValues ??= []).push(attribute);
    else (filter.attrRanges ??= []).push(attribute);
  }
  return filter;
}
