/**
 * The catalog's queries: the category tree, brands, variants, listing pages and their counts,
 * product tiles and detail, and the lookups a listing query needs. With its query builders in this
 * folder (product-filter.ts, facets.ts, price-history.ts) it is the catalog's repository layer:
 * nothing outside it runs a catalog query.
 */
import { sql } from 'kysely';
import type {
  AttributeEntry,
  Brand,
  ListingFacets,
  ProductAccessory,
  ProductSort,
  ProductSummary,
  VariantData,
} from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../../../db/database.ts';
import { reusableIdsQuery, reusableQuery } from '../../../../db/reusable-query.ts';
import { perCatalogVersion } from '../../../../infra/cache/catalog-version.ts';
import { loadCatalogNames, type CatalogNames } from './catalog-names.ts';
import { CategoryTree } from './category-tree.ts';
import { applyProductFilter, priceColumn } from './product-filter.ts';
import type { ProductFilter } from './product-filter.ts';
import { lowestPrices, lowestPricesFromHistory, type VariantHistoryRow } from './price-history.ts';
import { categoryFacets, categoryProductCount, isCategoryWithBrands, isWholeCategory, keptTotalOf } from './facet-counts.ts';
import { listedInMemory, ListingIndex } from './listing-index.ts';
import { LISTING_ORDER } from './listing-order.ts';
import { productImageUrl, toBrand, toVariantData } from './mappers.ts';
import type { VariantWithProduct } from './mappers.ts';
import { salePercent } from '@shop/shared-kernel/rules';

const VARIANT_COLUMNS = [
  'v.v_id',
  'v.v_code',
  'v.v_name',
  'v.v_sell_price',
  'v.v_vat',
  'v.v_sale',
  'v.v_stock',
  'v.v_availability',
  'v.v_weight',
  'v.v_unit',
  'v.v_base_amount',
  'v.v_base_unit',
  'p.p_id',
  'p.p_name',
  'p.p_url',
] as const;

export type { ProductFilter } from './product-filter.ts';

type SummaryRow = Awaited<ReturnType<typeof popularTilesInCategory>>[number];

/** A product tile's columns (a listing's, or a product page's related products). */
const SUMMARY_COLUMNS = [...VARIANT_COLUMNS, 'b.b_id', 'b.b_url', 'b.b_name', 'p.p_variant_count', 'p.p_max_sale'] as const;

// A product page's queries, compiled once (db/reusable-query.ts).
/** The `limit` most popular products listed under a category, without the product `pId`, as tiles: read in order through category_listing_popular_idx. */
const popularTilesInCategory = reusableQuery((db: DbOrTrx, catId: number, pId: number, limit: number) =>
  db
    .selectFrom('category_listing as cl')
    .innerJoin('products as p', 'p.p_id', 'cl.p_id')
    .innerJoin('variants as v', 'v.v_id', 'p.p_tile_v_id')
    .leftJoin('brands as b', 'b.b_id', 'p.b_id')
    .select(SUMMARY_COLUMNS)
    .where('cl.anc_cat_id', '=', catId)
    .where('cl.p_id', '!=', pId)
    .orderBy('cl.p_popularity', 'desc')
    .orderBy('cl.p_id')
    .limit(limit),
);
/** A product and its variants in one read: the product's columns on each variant's row (one row without a variant's columns for a product without variants). */
const productByUrl = reusableQuery((db: DbOrTrx, url: string) =>
  db
    .selectFrom('products as p')
    .leftJoin('brands as b', 'b.b_id', 'p.b_id')
    .leftJoin('variants as v', 'v.p_id', 'p.p_id')
    .select([...VARIANT_COLUMNS, 'p.p_description', 'p.cat_id', 'b.b_id', 'b.b_url', 'b.b_name'])
    .where('p.p_url', '=', url)
    .orderBy('v.v_id'),
);
/** The id of the product at `url`, for the product page's reads keyed by its URL: they run beside the product's own read, not after it. */
const productIdAt = (db: DbOrTrx, url: string) => db.selectFrom('products as me').select('me.p_id').where('me.p_url', '=', url);
const productAttributes = reusableQuery((db: DbOrTrx, url: string) =>
  db
    .selectFrom('attribute_values as av')
    .innerJoin('attributes as a', 'a.attr_id', 'av.attr_id')
    .select(['a.attr_id', 'a.attr_name', 'a.unit_name', 'a.use_attr', 'av.av_string', 'av.av_integer'])
    .where('av.p_id', '=', productIdAt(db, url))
    .orderBy('a.attr_id')
    .orderBy('av.av_id'),
);
/**
 * The `limit` most popular products listed under the category of the product at `url`, as tiles
 * (the product itself may be among them): read beside the product, in order through
 * category_listing_popular_idx (the category is a scalar subquery, so the index's order holds).
 */
const popularTilesBesideProduct = reusableQuery((db: DbOrTrx, url: string, limit: number) =>
  db
    .selectFrom('category_listing as cl')
    .innerJoin('products as p', 'p.p_id', 'cl.p_id')
    .innerJoin('variants as v', 'v.v_id', 'p.p_tile_v_id')
    .leftJoin('brands as b', 'b.b_id', 'p.b_id')
    .select(SUMMARY_COLUMNS)
    .where('cl.anc_cat_id', '=', (eb) => eb.selectFrom('products as me').select('me.cat_id').where('me.p_url', '=', url))
    .orderBy('cl.p_popularity', 'desc')
    .orderBy('cl.p_id')
    .limit(limit),
);
/** Product tiles by their products' ids, in any order: a product row and a variant row per tile, by their keys. */
const tilesByIds = reusableIdsQuery((db: DbOrTrx, ids: readonly number[]) =>
  db
    .selectFrom('products as p')
    .innerJoin('variants as v', 'v.v_id', 'p.p_tile_v_id')
    .leftJoin('brands as b', 'b.b_id', 'p.b_id')
    .select(SUMMARY_COLUMNS)
    .where('p.p_id', 'in', ids),
);

/**
 * The price history of the discounted tile variants of products `ids`: read beside their tiles
 * (the tiles' variants are the products' p_tile_v_id), not after them, so on PostgreSQL a page of
 * tiles takes no round trip of its own for it.
 */
const tileVariantHistory = reusableIdsQuery((db: DbOrTrx, ids: readonly number[]) =>
  db
    .selectFrom('products as p')
    .innerJoin('variants as v', 'v.v_id', 'p.p_tile_v_id')
    .innerJoin('price_history as ph', 'ph.v_id', 'v.v_id')
    .select(['ph.v_id', 'ph.ph_price', 'ph.ph_from'])
    // A literal: the kept query's parameters are the ids alone.
    .where('v.v_sale', '>', sql.lit(0))
    .where('p.p_id', 'in', ids),
);

const productAccessories = reusableQuery((db: DbOrTrx, url: string) =>
  db
    .selectFrom('product_accessories as pa')
    .innerJoin('variants as v', 'v.v_id', 'pa.v_id')
    .innerJoin('products as p', 'p.p_id', 'v.p_id')
    .select([...VARIANT_COLUMNS, 'pa.pa_kind', 'pa.pa_amount'])
    .where('pa.p_id', '=', productIdAt(db, url))
    .orderBy('pa.pa_position')
    .orderBy('pa.pa_id'),
);

/**
 * A listing's page (its products' ids) and total, read in SQL: the count (unless `knownTotal` is
 * given), then the page in the sort's order.
 */
export async function listingPageInSql(
  db: DbOrTrx,
  filter: ProductFilter,
  sort: ProductSort,
  page: { limit: number; offset: number },
  knownTotal?: Promise<number>,
): Promise<{ ids: number[]; total: number }> {
  // The total and the page at once (on PostgreSQL on two connections, in one round trip).
  const [total, rows] = await Promise.all([
    knownTotal ??
      applyProductFilter(db.selectFrom('products as p'), filter)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.n)),
    listingPageQuery(db, filter, sort, page).execute(),
  ]);
  return { ids: page.offset >= total ? [] : rows.map((r) => r.p_id), total };
}

/** The ids of one page of a listing, in its sort's order (ties by id), ranked in SQL. */
export function listingPageQuery(db: DbOrTrx, filter: ProductFilter, sort: ProductSort, page: { limit: number; offset: number }) {
  let q = applyProductFilter(db.selectFrom('products as p'), filter).select('p.p_id');
  for (const [column, direction] of LISTING_ORDER[sort])
    q = q.orderBy(column === 'p_price' ? priceColumn(filter) : `p.${column}`, direction);
  return q.limit(page.limit).offset(page.offset);
}

/** A product's attribute rows (in attribute order) grouped into one entry per attribute with its values. */
function toAttributeEntries(rows: Awaited<ReturnType<typeof productAttributes>>): AttributeEntry[] {
  const entries = new Map<number, AttributeEntry>();
  for (const r of rows) {
    let entry = entries.get(r.attr_id);
    if (!entry) {
      entry = {
        attr_id: r.attr_id,
        attr_name: r.attr_name,
        use_attr: r.use_attr === 1 ? 1 : 0,
        attributeValues: [],
        units: r.unit_name === null ? null : { unit_name: r.unit_name },
      };
      entries.set(r.attr_id, entry);
    }
    entry.attributeValues.push({ av_string: r.av_string, av_integer: r.av_integer });
  }
  return [...entries.values()];
}

export class CatalogRepository {
  /** The whole category tree (shared between requests: read-only), loaded again once the catalog has changed. */
  readonly categoryTree: () => Promise<CategoryTree> = perCatalogVersion(() => this.loadCategoryTree());
  /** Brands and attributes from memory (catalog-names.ts), as the tree. */
  readonly names: () => Promise<CatalogNames> = perCatalogVersion(() => loadCatalogNames(this.db));
  /** Filtered category listings and their facets, from memory (shared between requests: kept per category revision). */
  private readonly listingIndex: ListingIndex;

  constructor(private readonly db: DbOrTrx) {
    this.listingIndex = new ListingIndex(db, this.names);
  }

  /**
   * Counts again the categories whose kept counts are stale (after a migration that adds a kind,
   * every one, which a large catalog feels) and loads every category's filtered-listing data
   * (listing-index.ts) until `stopped()`; answers how many categories it loaded.
   */
  async warmListings(stopped: () => boolean): Promise<number> {
    const catIds = (await this.categoryTree()).all().map((category) => category.cat_id);
    await categoryProductCount(this.db, catIds);
    return this.listingIndex.warm(catIds, stopped);
  }

  private async loadCategoryTree(): Promise<CategoryTree> {
    const rows = await this.db
      .selectFrom('categories')
      .select(['cat_id', 'cat_parent_id', 'cat_url', 'cat_name', 'cat_description'])
      .orderBy('cat_position')
      .orderBy('cat_id')
      .execute();
    return new CategoryTree(rows);
  }

  /** Every brand, by name. */
  async brands(): Promise<Brand[]> {
    return [...(await this.names()).brands];
  }

  async brandByUrl(url: string): Promise<Brand | undefined> {
    return (await this.names()).brandByUrl(url);
  }

  /** The id of a brand page's brand, or undefined when the url is unknown. */
  async brandIdByUrl(url: string): Promise<number | undefined> {
    return (await this.names()).brandByUrl(url)?.b_id;
  }

  /** The ids of the brands with these urls (unknown urls are left out). */
  async brandIdsByUrls(urls: string[]): Promise<number[]> {
    const names = await this.names();
    return urls.flatMap((url) => names.brandByUrl(url)?.b_id ?? []);
  }

  /** Which of these attribute ids exist and are offered as filters (use_attr = 1). */
  async filterableAttributeIds(ids: number[]): Promise<Set<number>> {
    const names = await this.names();
    return new Set(ids.filter((id) => names.filterAttribute(id) !== undefined));
  }

  /**
   * A category's facets, the sale's or a brand page's or not (alone or with a brand filter), from the counts kept per
   * category and brand (facet-counts.ts); with other filters counted in memory (listing-index.ts),
   * the sale's too. A listing without a category (all products, a brand page, the sale) is every
   * category's together, as every product sits in one: counting its facets in SQL does not scale to
   * a large catalog (figures: tools/bench/results.md; test/helpers/facets-in-sql.ts still counts
   * them so, as the reference the tests hold these equal to).
   */
  async facets(filter: ProductFilter): Promise<ListingFacets> {
    const categoryIds = filter.categoryIds ?? (await this.categoryTree()).all().map((category) => category.cat_id);
    const scoped = { ...filter, categoryIds };
    if (isCategoryWithBrands(scoped)) {
      return categoryFacets(this.db, await this.names(), scoped.categoryIds, {
        brandIds: scoped.brandIds,
        brandId: scoped.brandId,
        sale: Boolean(scoped.saleOnly),
      });
    }
    return this.listingIndex.facets(scoped);
  }

  async variant(vId: number): Promise<VariantData | undefined> {
    const row = await this.db
      .selectFrom('variants as v')
      .innerJoin('products as p', 'p.p_id', 'v.p_id')
      .select(VARIANT_COLUMNS)
      .where('v.v_id', '=', vId)
      .executeTakeFirst();
    return row ? toVariantData(row as VariantWithProduct) : undefined;
  }

  /**
   * One page of product tiles plus the number of matching products: a whole category's from
   * category_listing; the whole catalog's, the whole sale's and a brand page's in indexed, bounded
   * queries with their totals from the kept counts (listingPageInSql); any listing narrowed by
   * filters from memory (listing-index.ts), over every category when it has none (in SQL, the
   * sale narrowed by availability does not scale to a large catalog; figures: tools/bench/results.md).
   */
  async listProducts(
    filter: ProductFilter,
    sort: ProductSort,
    page: { limit: number; offset: number },
  ): Promise<{ items: ProductSummary[]; total: number }> {
    if (filter.categoryIds?.length === 0) return { items: [], total: 0 };
    if (isWholeCategory(filter) && filter.categoryId !== undefined)
      return this.listCategory(filter.categoryId, filter.categoryIds, sort, page);
    // The whole catalog's total, the whole sale's or a brand page's: every product sits in a category, so the categories' kept counts add up to it.
    const kept = keptTotalOf(filter);
    const everyCategory = () => this.categoryTree().then((tree) => tree.all().map((category) => category.cat_id));
    const knownTotal = kept ? everyCategory().then((catIds) => categoryProductCount(this.db, catIds, kept)) : undefined;
    // Any other listing without a category (the sale or a brand page narrowed by filters) is every category's together, from memory as its facets are.
    const scoped = kept || filter.categoryIds !== undefined ? filter : { ...filter, categoryIds: await everyCategory() };
    const { ids, total } = listedInMemory(scoped)
      ? await this.listingIndex.page(scoped, sort, page)
      : await listingPageInSql(this.db, filter, sort, page, knownTotal);
    return { items: await this.summaries(ids), total };
  }

  /**
   * A whole category's page (no other filter) from category_listing (migration category-listing):
   * the page read in order through the sort's index; the total from the counts kept per category
   * (`subtreeIds`: the category and its subcategories), which the facets read too.
   */
  private async listCategory(
    catId: number,
    subtreeIds: number[],
    sort: ProductSort,
    page: { limit: number; offset: number },
  ): Promise<{ items: ProductSummary[]; total: number }> {
    let q = this.db.selectFrom('category_listing').select('p_id').where('anc_cat_id', '=', catId);
    for (const [column, direction] of LISTING_ORDER[sort]) q = q.orderBy(column, direction);
    // The total and the page at once (on PostgreSQL on two connections, in one round trip).
    const [total, rows] = await Promise.all([categoryProductCount(this.db, subtreeIds), q.limit(page.limit).offset(page.offset).execute()]);
    if (page.offset >= total) return { items: [], total };
    return { items: await this.summaries(rows.map((r) => r.p_id)), total };
  }

  /**
   * Product tiles for the given ids, in that order. Every tile, in every listing (sale included),
   * shows the same "od" price: its representative variant's current price, sale included (the
   * cheapest purchasable one, kept in products.p_tile_v_id by a trigger on variants, migration
   * product-tile-columns); `saleUpTo` is the deepest discount among its variants (the sale
   * listing's badge). One query: a product row and a variant row per tile, by their keys.
   */
  async summaries(ids: number[]): Promise<ProductSummary[]> {
    const [rows, history] = await Promise.all([tilesByIds(this.db, ids), tileVariantHistory(this.db, ids)]);
    return this.toSummaries(rows, ids, history);
  }

  /**
   * Tiles of the products `ids`, in that order, from their rows (in any order), with their 30-day
   * lowest prices: from `history` (the tile variants' rows) when read already, else read now.
   */
  private async toSummaries(rows: SummaryRow[], ids: number[], history?: readonly VariantHistoryRow[]): Promise<ProductSummary[]> {
    const byProduct = new Map(rows.map((row) => [row.p_id, { row, variant: toVariantData(row as VariantWithProduct) }]));
    const variants = [...byProduct.values()].map((found) => found.variant);
    const lowest = history ? lowestPricesFromHistory(history, variants) : await lowestPrices(this.db, variants);
    return ids.flatMap((id) => {
      const found = byProduct.get(id);
      if (!found) return [];
      const { row, variant } = found;
      return [
        {
          p_id: row.p_id,
          p_url: row.p_url,
          p_name: row.p_name,
          p_image: productImageUrl(row.p_id),
          brand: toBrand(row),
          variantCount: Number(row.p_variant_count),
          variant,
          saleUpTo: salePercent({ v_sale: Number(row.p_max_sale) }),
          lowestPrice30: lowest.get(variant.v_id) ?? null,
        },
      ];
    });
  }

  /**
   * A product page's data by the product's URL: the product with its variants in their order, its
   * attributes, accessories and related products (`relatedCount` popular products of its category,
   * then of its parent's whole subtree), and the 30-day lowest prices of its discounted variants;
   * undefined when there is no such product. Every read is keyed by the URL, so all run at once:
   * on PostgreSQL in one round trip; a second only for the price history of discounted variants,
   * and for the parent's products when the category has too few.
   */
  async productPage(url: string, relatedCount = 4) {
    const [rows, attributeRows, accessoryRows, inCategory] = await Promise.all([
      productByUrl(this.db, url),
      productAttributes(this.db, url),
      productAccessories(this.db, url),
      // One more than needed: the product itself may be among them.
      popularTilesBesideProduct(this.db, url, relatedCount + 1),
    ]);
    const first = rows[0];
    if (!first) return undefined;
    const { p_id, p_url, p_name, p_description, cat_id, b_id, b_url, b_name } = first;
    const variants = rows.filter((row) => row.v_id !== null).map((row) => toVariantData(row as VariantWithProduct));
    const related = inCategory.filter((row) => row.p_id !== p_id).slice(0, relatedCount);
    const parent = related.length < relatedCount ? (await this.categoryTree()).path(cat_id).at(-2) : undefined;
    if (parent) {
      // The parent's most popular besides the product: at most related.length of them are listed already, so the rest fill the list.
      for (const row of await popularTilesInCategory(this.db, parent.cat_id, p_id, relatedCount)) {
        if (related.length < relatedCount && !related.some((listed) => listed.p_id === row.p_id)) related.push(row);
      }
    }
    const [lowest, relatedTiles] = await Promise.all([
      lowestPrices(this.db, variants),
      this.toSummaries(
        related,
        related.map((row) => row.p_id),
      ),
    ]);
    return {
      product: { p_id, p_url, p_name, p_description, cat_id, b_id, b_url, b_name },
      variants,
      attributes: toAttributeEntries(attributeRows),
      accessories: accessoryRows.map((r): ProductAccessory => ({
        kind: r.pa_kind,
        amount: r.pa_amount,
        variant: toVariantData(r as VariantWithProduct),
      })),
      lowest,
      related: relatedTiles,
    };
  }

  /** Root category url of a product, for its picture. */
  async productForImage(pId: number) {
    return this.db.selectFrom('products').select(['p_id', 'p_name', 'cat_id']).where('p_id', '=', pId).executeTakeFirst();
  }
}
