/**
 * The facets of a listing counted in SQL over its products: the filter's reference meaning
 * (product-filter.ts applyProductFilter) that the shop's own ways of answering them, the counts
 * kept per category (facet-counts.ts) and the listing index (listing-index.ts), are held equal to.
 * Disjunctive counts: every facet counts the products matching all other active filters, so
 * ticking a value does not hide its siblings.
 */
import type { ListingFacets } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../src/db/database.ts';
import { shapeFacets, type AttrRow } from '../../src/domains/catalog/products/repository/facets.ts';
import {
  applyProductFilter,
  priceColumn,
  withoutFacet,
  type ProductFilter,
} from '../../src/domains/catalog/products/repository/product-filter.ts';

export async function listingFacets(db: DbOrTrx, filter: ProductFilter): Promise<ListingFacets> {
  /** The listing's products without one facet's own filter. */
  const without = (f: ProductFilter) => applyProductFilter(db.selectFrom('products as p'), f);

  const brands = without(withoutFacet(filter, 'brands'))
    .innerJoin('brands as b', 'b.b_id', 'p.b_id')
    .select((eb) => ['b.b_url', 'b.b_name', eb.fn.countAll<number>().as('n')])
    .groupBy(['b.b_id', 'b.b_url', 'b.b_name'])
    .execute();

  const availability = db
    .selectFrom('variants as v')
    .select((eb) => ['v.v_availability', eb.fn.count<number>('v.p_id').distinct().as('n')])
    .where('v.p_id', 'in', without(withoutFacet(filter, 'availability')).select('p.p_id'))
    .$if(Boolean(filter.saleOnly), (q) => q.where('v.v_sale', '>', 0))
    .groupBy('v.v_availability')
    .execute();

  const price = priceColumn(filter);
  const priceRange = without(withoutFacet(filter, 'price'))
    .select((eb) => [eb.fn.min<number | null>(price).as('lo'), eb.fn.max<number | null>(price).as('hi')])
    .executeTakeFirst();

  const active = [...new Set([...(filter.attrValues ?? []), ...(filter.attrRanges ?? [])].map((f) => f.attrId))];
  /** The counts of one attribute (`attrId`), or of every attribute without an active filter. */
  const attributeCounts = (f: ProductFilter, attrId?: number) =>
    db
      .selectFrom('attribute_values as av')
      .innerJoin('attributes as a', 'a.attr_id', 'av.attr_id')
      .select((eb) => [
        'av.attr_id',
        'a.attr_name',
        'a.unit_name',
        'av.av_string',
        eb.fn.count<number>('av.p_id').distinct().as('n'),
        eb.fn.min<number | null>('av.av_integer').as('lo'),
        eb.fn.max<number | null>('av.av_integer').as('hi'),
      ])
      .where('a.use_attr', '=', 1)
      .where('av.p_id', 'in', without(f).select('p.p_id'))
      .$if(attrId !== undefined, (q) => q.where('av.attr_id', '=', attrId!))
      .$if(attrId === undefined && active.length > 0, (q) => q.where('av.attr_id', 'not in', active))
      .groupBy(['av.attr_id', 'a.attr_name', 'a.unit_name', 'av.av_string'])
      .execute() as Promise<AttrRow[]>;

  const [brandRows, availabilityRows, priceRow, ...attributeRows] = await Promise.all([
    brands,
    availability,
    priceRange,
    attributeCounts(filter),
    ...active.map((attrId) => attributeCounts(withoutFacet(filter, `attr:${attrId}`), attrId)),
  ]);
  return shapeFacets({
    brands: brandRows.map((row) => ({ ...row, n: Number(row.n) })),
    availability: availabilityRows.map((row) => ({ ...row, n: Number(row.n) })),
    price: { lo: priceRow?.lo ?? null, hi: priceRow?.hi ?? null },
    attributes: attributeRows.flat(),
  });
}
