/**
 * Repository layer: what narrows a listing (ProductFilter) and the query builder that adds it to
 * a query over `products as p` (the listing, its count and its facets share it).
 */
import { sql } from 'kysely';
import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { Availability } from '@shop/shared-kernel/contract';
import type { Database } from '../../../../db/database.ts';

/** Everything that narrows a listing; all conditions apply to `products as p`. */
export type ProductFilter = {
  /** Category ids to list (a category and its subcategories); undefined: all. */
  categoryIds?: number[];
  /** The category page's own category (the first of categoryIds' subtree), when it is one. */
  categoryId?: number;
  /** The brand of a brand page. */
  brandId?: number;
  /** Only products with a variant on sale; the tile then shows that variant and its price. */
  saleOnly?: boolean;
  /** Brand facet: any of these brands. */
  brandIds?: number[];
  /** Availability facet: a variant with one of these. */
  availability?: Availability[];
  /** Tile price with VAT, thousandths, inclusive. */
  priceMin?: number;
  priceMax?: number;
  /** String attribute facets: the product has one of the values. */
  attrValues?: { attrId: number; values: string[] }[];
  /** Numeric attribute facets, thousandths, inclusive. */
  attrRanges?: { attrId: number; min: number | null; max: number | null }[];
};

/** A facet whose own filter is left out when its counts are computed. */
export type FacetKey = 'brands' | 'availability' | 'price' | `attr:${number}`;

export function withoutFacet(filter: ProductFilter, facet: FacetKey): ProductFilter {
  const out: ProductFilter = { ...filter };
  if (facet === 'brands') delete out.brandIds;
  else if (facet === 'availability') delete out.availability;
  else if (facet === 'price') {
    delete out.priceMin;
    delete out.priceMax;
  } else {
    const attrId = Number(facet.slice(5));
    out.attrValues = filter.attrValues?.filter((f) => f.attrId !== attrId);
    out.attrRanges = filter.attrRanges?.filter((f) => f.attrId !== attrId);
  }
  return out;
}

export type P = Database & { p: Database['products'] };

/**
 * The price column every listing shows, filters and sorts by: the tile's "od" price (its cheapest
 * purchasable variant's current price, sale included), the sale listing too.
 */
export const priceColumn = (_filter: ProductFilter) => 'p.p_price' as const;

/** Adds the filter's conditions to a query over `products as p`. */
export function applyProductFilter<O>(qb: SelectQueryBuilder<P, 'p', O>, filter: ProductFilter): SelectQueryBuilder<P, 'p', O> {
  const price = priceColumn(filter);
  // Listed: the product has a price. The sale listing: products with a discounted variant, which
  // have a price too (both are set from the product's variants by the same trigger, migration
  // catalog-listing-and-search), so its own condition stands for both: its count then reads one
  // column of its index, not the product rows.
  let q = filter.saleOnly ? qb.where('p.p_sale_price', 'is not', null) : qb.where(price, 'is not', null);
  if (filter.categoryIds) q = q.where('p.cat_id', 'in', filter.categoryIds.length > 0 ? filter.categoryIds : [-1]);
  if (filter.brandId !== undefined) q = q.where('p.b_id', '=', filter.brandId);
  if (filter.brandIds && filter.brandIds.length > 0) q = q.where('p.b_id', 'in', filter.brandIds);
  if (filter.priceMin !== undefined) q = q.where(price, '>=', filter.priceMin);
  if (filter.priceMax !== undefined) q = q.where(price, '<=', filter.priceMax);
  const availability = filter.availability;
  if (availability && availability.length > 0) {
    q = q.where((eb: ExpressionBuilder<P, 'p'>) =>
      eb.exists(
        eb
          .selectFrom('variants as v')
          .select(sql`1`.as('one'))
          .whereRef('v.p_id', '=', 'p.p_id')
          .where('v.v_availability', 'in', availability)
          .$if(Boolean(filter.saleOnly), (s) => s.where('v.v_sale', '>', 0)),
      ),
    );
  }
  for (const { attrId, values } of filter.attrValues ?? []) {
    if (values.length === 0) continue;
    q = q.where((eb: ExpressionBuilder<P, 'p'>) =>
      eb.exists(
        eb
          .selectFrom('attribute_values as av')
          .select(sql`1`.as('one'))
          .whereRef('av.p_id', '=', 'p.p_id')
          .where('av.attr_id', '=', attrId)
          .where('av.av_string', 'in', values),
      ),
    );
  }
  for (const { attrId, min, max } of filter.attrRanges ?? []) {
    if (min === null && max === null) continue;
    q = q.where((eb: ExpressionBuilder<P, 'p'>) =>
      eb.exists(
        eb
          .selectFrom('attribute_values as av')
          .select(sql`1`.as('one'))
          .whereRef('av.p_id', '=', 'p.p_id')
          .where('av.attr_id', '=', attrId)
          .$if(min !== null, (s) => s.where('av.av_integer', '>=', min!))
          .$if(max !== null, (s) => s.where('av.av_integer', '<=', max!)),
      ),
    );
  }
  return q;
}
