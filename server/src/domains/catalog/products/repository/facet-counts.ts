/**
 * Repository layer: the facets of a category page without filters (or with only a brand filter),
 * summed from counts kept per category and brand (migrations category-facet-counts,
 * facet-counts-per-brand) instead of counted over the category's products.
 *
 * A product sits in one category, so the counts of a category and its subcategories add up
 * exactly: products per brand, per availability, per attribute value; ranges take the smallest
 * and the largest. Triggers move a category's revision whenever a row its counts depend on
 * changes; counts computed at an older revision are counted again (for that one category) when
 * next asked for, in one transaction that holds the category's row so two recounts take turns.
 * Names (brands, attributes) and whether an attribute is a filter are looked up at answer time
 * (catalog-names.ts), so renaming one needs no recount.
 */
import { sql } from 'kysely';
import type { ExpressionBuilder, Transaction } from 'kysely';
import type { ListingFacets } from '@shop/shared-kernel/contract';
import type { Database, DbOrTrx } from '../../../../db/database.ts';
import { shapeFacets, type AttrRow, type FacetCounts } from './facets.ts';
import type { ProductFilter } from './product-filter.ts';
import type { CatalogNames } from './catalog-names.ts';

type CountKind = Database['category_facet_counts']['kind'];

/** The kinds of count kept for every listed product, and their names for the products on sale. */
const FACET_KINDS = ['brand', 'availability', 'price', 'attr', 'attr_range'] as const;
type FacetKind = (typeof FACET_KINDS)[number];
const kindOf = (kind: FacetKind, sale: boolean): CountKind => (sale ? `sale_${kind}` : kind);

/**
 * The facets of the categories `catIds` (a category and its subcategories) together, of their
 * products on sale only with `sale` (the sale listing's), of the products of `brandIds` when given
 * (the brand facet itself counts every brand: ticking a brand does not hide the others), or of one
 * brand's products only with `brandId` (a brand page's: its brand facet is that brand alone).
 */
export async function categoryFacets(
  db: DbOrTrx,
  names: CatalogNames,
  catIds: number[],
  { brandIds = [], brandId, sale = false }: { brandIds?: number[]; brandId?: number; sale?: boolean } = {},
): Promise<ListingFacets> {
  const rows =
    catIds.length === 0
      ? []
      : await readFresh(db, catIds, () =>
          db
            .selectFrom('category_facet_counts')
            .select((eb) => [
              'kind',
              'ref_id',
              'value',
              eb.fn.sum<number>('n').as('n'),
              eb.fn.min<number | null>('lo').as('lo'),
              eb.fn.max<number | null>('hi').as('hi'),
              staleCount(eb, catIds),
            ])
            .where('cat_id', 'in', catIds)
            .where(
              'kind',
              'in',
              FACET_KINDS.map((kind) => kindOf(kind, sale)),
            )
            .$if(brandId !== undefined, (q) => q.where('b_id', '=', brandId!))
            .$if(brandIds.length > 0, (q) => q.where((eb) => eb.or([eb('kind', '=', kindOf('brand', sale)), eb('b_id', 'in', brandIds)])))
            .groupBy(['kind', 'ref_id', 'value'])
            .execute(),
        );
  const of = (kind: FacetKind) => rows.filter((row) => row.kind === kindOf(kind, sale));
  const price = of('price')[0];
  const counts: FacetCounts = {
    brands: of('brand').flatMap((row) => {
      const brand = names.brandById(row.ref_id);
      return brand ? [{ b_url: brand.b_url, b_name: brand.b_name, n: Number(row.n) }] : [];
    }),
    availability: of('availability').map((row) => ({
      v_availability: row.value as FacetCounts['availability'][number]['v_availability'],
      n: Number(row.n),
    })),
    price: { lo: price?.lo == null ? null : Number(price.lo), hi: price?.hi == null ? null : Number(price.hi) },
    attributes: [...of('attr'), ...of('attr_range')].flatMap((row): AttrRow[] => {
      const attribute = names.filterAttribute(row.ref_id);
      if (!attribute) return [];
      return [
        {
          attr_id: row.ref_id,
          attr_name: attribute.attr_name,
          unit_name: attribute.unit_name,
          av_string: row.kind === kindOf('attr', sale) ? row.value : null,
          n: Number(row.n),
          lo: row.lo == null ? null : Number(row.lo),
          hi: row.hi == null ? null : Number(row.hi),
        },
      ];
    }),
  };
  return shapeFacets(counts);
}

/** Which products a kept total counts: every listed one, those on sale, or one brand's. */
export type KeptTotal = { of: 'listed' } | { of: 'sale' } | { of: 'brand'; brandId: number };

/**
 * The number of listed products in the categories `catIds` together (a whole category listing's
 * total), or of those on sale or of one brand among them, summed from the kept counts (one row per
 * category and brand) instead of counted over the listing's index: a few rows summed instead of
 * every product of a large category, or of the whole sale.
 */
export async function categoryProductCount(db: DbOrTrx, catIds: number[], total: KeptTotal = { of: 'listed' }): Promise<number> {
  if (catIds.length === 0) return 0;
  const [row] = await readFresh(db, catIds, () =>
    db
      .selectFrom('category_facet_counts')
      .select((eb) => [eb.fn.sum<number>('n').as('n'), staleCount(eb, catIds)])
      .where('cat_id', 'in', catIds)
      .$if(total.of === 'listed', (q) => q.where('kind', '=', 'price'))
      .$if(total.of === 'sale', (q) => q.where('kind', '=', 'sale_price'))
      .$if(total.of === 'brand', (q) => q.where('kind', '=', 'brand').where('ref_id', '=', total.of === 'brand' ? total.brandId : 0))
      .execute(),
  );
  return Number(row?.n ?? 0);
}

/**
 * How many categories of `catIds` have counts older than their revision (or none yet), as a column
 * of the statement that reads the counts: one snapshot, so the counts read are fresh when it is 0.
 */
function staleCount(eb: ExpressionBuilder<Database, 'category_facet_counts'>, catIds: number[]) {
  return eb
    .selectFrom('categories as k')
    .select((inner) => inner.fn.countAll<number>().as('n'))
    .where('k.cat_id', 'in', catIds)
    .where((inner) =>
      inner.not(
        inner.exists(
          inner
            .selectFrom('category_facet_computed as c')
            .select('c.cat_id')
            .whereRef('c.cat_id', '=', 'k.cat_id')
            .where('c.rev', '=', sql<number>`coalesce((select r.rev from category_facet_revs r where r.cat_id = k.cat_id), 0)`),
        ),
      ),
    )
    .as('stale');
}

/**
 * Reads kept counts with their staleness in one statement (one round trip where the counts are
 * fresh, as they are but after a catalog change); where any is stale (or no row tells), counts
 * those categories again and reads once more.
 */
async function readFresh<Row extends { stale: unknown }>(db: DbOrTrx, catIds: number[], read: () => Promise<Row[]>): Promise<Row[]> {
  const rows = await read();
  if (rows.length > 0 && Number(rows[0]!.stale) === 0) return rows;
  await recountStale(db, catIds);
  return read();
}

/** Counts again every category of `catIds` whose counts are older than its revision. */
async function recountStale(db: DbOrTrx, catIds: number[]): Promise<void> {
  if (catIds.length === 0) return;
  const [revs, computed] = await Promise.all([
    db.selectFrom('category_facet_revs').select(['cat_id', 'rev']).where('cat_id', 'in', catIds).execute(),
    db.selectFrom('category_facet_computed').select(['cat_id', 'rev']).where('cat_id', 'in', catIds).execute(),
  ]);
  const revOf = new Map(revs.map((row) => [row.cat_id, Number(row.rev)]));
  const computedOf = new Map(computed.map((row) => [row.cat_id, Number(row.rev)]));
  for (const catId of catIds) {
    if (computedOf.get(catId) === (revOf.get(catId) ?? 0)) continue;
    if (db.isTransaction) await recount(db as Transaction<Database>, catId);
    else await db.transaction().execute((trx) => recount(trx, catId));
  }
}

/** One category's counts, computed anew at its current revision (unless another recount just did). */
async function recount(trx: Transaction<Database>, catId: number): Promise<void> {
  // Holds the category's row until the end (PostgreSQL): a second recount waits, then finds the work done.
  await trx
    .insertInto('category_facet_computed')
    .values({ cat_id: catId, rev: -1 })
    .onConflict((conflict) => conflict.column('cat_id').doUpdateSet((eb) => ({ rev: eb.ref('category_facet_computed.rev') })))
    .execute();
  const rev = Number((await trx.selectFrom('category_facet_revs').select('rev').where('cat_id', '=', catId).executeTakeFirst())?.rev ?? 0);
  const done = Number((await trx.selectFrom('category_facet_computed').select('rev').where('cat_id', '=', catId).executeTakeFirst())?.rev);
  if (done === rev) return;
  await trx.deleteFrom('category_facet_counts').where('cat_id', '=', catId).execute();
  // The category's own listed products (with a price), as the listing counts them; then those on
  // sale, as the sale listing counts them (product-filter.ts: a sale price implies a price; its
  // availability counts the discounted variants only, facets.ts).
  const listed = trx.selectFrom('products as p').where('p.cat_id', '=', catId).where('p.p_price', 'is not', null);
  const cat = sql.lit(catId);
  // Every count per brand of the products (0: none), so a brand filter sums only its brands' rows.
  const brand = sql<number>`coalesce(p.b_id, 0)`;
  const columns = ['cat_id', 'b_id', 'kind', 'ref_id', 'value', 'n', 'lo', 'hi'] as const;
  const inserts = (
    [
      ['', listed],
      ['sale_', listed.where('p.p_sale_price', 'is not', null)],
    ] as const
  ).flatMap(([prefix, products]) => [
    products
      .where('p.b_id', 'is not', null)
      .select((eb) => [
        cat.as('cat_id'),
        'p.b_id as b_id',
        sql.lit(`${prefix}brand`).as('kind'),
        'p.b_id as ref_id',
        sql.lit('').as('value'),
        eb.fn.countAll().as('n'),
        sql.lit(null).as('lo'),
        sql.lit(null).as('hi'),
      ])
      .groupBy('p.b_id'),
    products
      .innerJoin('variants as v', 'v.p_id', 'p.p_id')
      .$if(prefix === 'sale_', (q) => q.where('v.v_sale', '>', 0))
      .select((eb) => [
        cat.as('cat_id'),
        brand.as('b_id'),
        sql.lit(`${prefix}availability`).as('kind'),
        sql.lit(0).as('ref_id'),
        'v.v_availability as value',
        eb.fn.count('v.p_id').distinct().as('n'),
        sql.lit(null).as('lo'),
        sql.lit(null).as('hi'),
      ])
      .groupBy([brand, 'v.v_availability']),
    products
      .select((eb) => [
        cat.as('cat_id'),
        brand.as('b_id'),
        sql.lit(`${prefix}price`).as('kind'),
        sql.lit(0).as('ref_id'),
        sql.lit('').as('value'),
        eb.fn.countAll().as('n'),
        eb.fn.min('p.p_price').as('lo'),
        eb.fn.max('p.p_price').as('hi'),
      ])
      .groupBy(brand),
    products
      .innerJoin('attribute_values as av', 'av.p_id', 'p.p_id')
      .where('av.av_string', 'is not', null)
      .select((eb) => [
        cat.as('cat_id'),
        brand.as('b_id'),
        sql.lit(`${prefix}attr`).as('kind'),
        'av.attr_id as ref_id',
        'av.av_string as value',
        eb.fn.count('av.p_id').distinct().as('n'),
        eb.fn.min('av.av_integer').as('lo'),
        eb.fn.max('av.av_integer').as('hi'),
      ])
      .groupBy([brand, 'av.attr_id', 'av.av_string']),
    products
      .innerJoin('attribute_values as av', 'av.p_id', 'p.p_id')
      .where('av.av_string', 'is', null)
      .select((eb) => [
        cat.as('cat_id'),
        brand.as('b_id'),
        sql.lit(`${prefix}attr_range`).as('kind'),
        'av.attr_id as ref_id',
        sql.lit('').as('value'),
        eb.fn.count('av.p_id').distinct().as('n'),
        eb.fn.min('av.av_integer').as('lo'),
        eb.fn.max('av.av_integer').as('hi'),
      ])
      .groupBy([brand, 'av.attr_id']),
  ]);
  for (const select of inserts) await trx.insertInto('category_facet_counts').columns(columns).expression(select).execute();
  await trx.updateTable('category_facet_computed').set({ rev }).where('cat_id', '=', catId).execute();
}

/** Whether a listing's filter is a category and nothing else: its facets come from the kept counts. */
export function isWholeCategory(filter: ProductFilter): filter is ProductFilter & { categoryIds: number[] } {
  return filter.categoryIds !== undefined && narrowing(filter, []).length === 0;
}

/**
 * Which of every category's kept counts a listing's total is the sum of: every listed product's
 * for a filter that narrows nothing, the sale's for the whole sale, a brand's for its brand page;
 * none for any other filter.
 */
export function keptTotalOf(filter: ProductFilter): KeptTotal | null {
  if (filter.categoryIds !== undefined) return null;
  if (narrowing(filter, []).length === 0) return { of: 'listed' };
  if (filter.saleOnly && narrowing(filter, ['saleOnly']).length === 0) return { of: 'sale' };
  if (filter.brandId !== undefined && narrowing(filter, ['brandId']).length === 0) return { of: 'brand', brandId: filter.brandId };
  return null;
}

/**
 * Whether a listing's filter is a category (the sale's or not, a brand page's or not) and at most a
 * brand filter (not both a brand page and a brand filter): its facets come from the kept counts too.
 */
export function isCategoryWithBrands(filter: ProductFilter): filter is ProductFilter & { categoryIds: number[] } {
  if (filter.brandId !== undefined && (filter.brandIds?.length ?? 0) > 0) return false;
  return filter.categoryIds !== undefined && narrowing(filter, ['brandIds', 'saleOnly', 'brandId']).length === 0;
}

/** The filter's conditions other than its categories (and the keys named). */
function narrowing(filter: ProductFilter, besides: (keyof ProductFilter)[]) {
  return Object.entries(filter).filter(
    ([key, value]) =>
      key !== 'categoryIds' &&
      key !== 'categoryId' &&
      !besides.includes(key as keyof ProductFilter) &&
      value !== undefined &&
      value !== false &&
      !(Array.isArray(value) && value.length === 0),
  );
}
