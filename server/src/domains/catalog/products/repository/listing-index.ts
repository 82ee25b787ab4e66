/**
 * Repository layer: a category listing narrowed by filters (a price range, availability, attribute
 * values, brands together with any of these): its facets, its total and its pages, from memory.
 *
 * In SQL such facets do not scale to a large catalog (one query per facet and part, SQLite's
 * temporary B-trees for `group by` and `count(distinct)`), and neither does such a page (the
 * filters' correlated lookups for every product, once for the count and once for the page;
 * figures: tools/bench/results.md). Here each category keeps, in typed arrays, what its listed
 * products' filters and orders depend on: brand, price, the availabilities of their variants, the
 * sort columns (each sort's order presorted) and, per attribute value, a bitset of the products
 * that have it. A request reads the revisions of its
 * categories (category_facet_revs, moved by triggers whenever one of those rows changes: migrations
 * category-facet-counts and listing-order-revisions), loads again only the categories that moved
 * on, and evaluates each facet filter into a bitset of the products failing it. A product that
 * fails none is listed and counts in every facet; one that fails exactly one counts in that facet
 * only (disjunctive counts: ticking a value does not hide its siblings); one that fails more counts
 * nowhere. A value's count is the population count of its bitset and those masks. A page merges
 * the categories' presorted orders, skipping the products not listed, until it has the page.
 *
 * The revisions live in the database, so the arrays are right on every server of the shop and
 * after any writer (a script on the SQLite file too), without a broadcast. Names (brands,
 * attributes) and whether an attribute is a filter are looked up at answer time
 * (catalog-names.ts: kept per catalog version, as the category tree).
 *
 * The filter's meaning and the orders are the SQL ones (product-filter.ts applyProductFilter,
 * listing-order.ts LISTING_ORDER; names compare by code point, as SQLite and PostgreSQL's C
 * collation do); test/catalog/listing-index.test.ts holds them equal over many filters, every sort and
 * after every kind of change. The sale narrowed by filters is read here too: each category also
 * keeps the same arrays for its products on sale (p_sale_price set; about a quarter), with the
 * availabilities of their discounted variants only, as the sale's availability filter and facet
 * read them. A discount moves its category's revision (migration sale-facet-counts), so they
 * follow it.
 *
 * The work is cut in four: loading a category (listing-load.ts) into arrays (listing-data.ts),
 * evaluating a filter into bitsets (listing-bitsets.ts), counting the facets (listing-counts.ts)
 * and merging a page (listing-pages.ts); this class keeps the categories and answers.
 */
import type { ListingFacets, ProductSort } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../../../db/database.ts';
import type { CatalogNames } from './catalog-names.ts';
import { shapeFacets, type AttrRow } from './facets.ts';
import { evaluate } from './listing-bitsets.ts';
import { countFacets } from './listing-counts.ts';
import { ListingKeys, type CategoryData, type Products } from './listing-data.ts';
import { categoryRevisions, loadCategory } from './listing-load.ts';
import { listedTotal, pageIds } from './listing-pages.ts';
import type { ProductFilter } from './product-filter.ts';

/** Whether this listing is read from memory: a listing within categories (its sale too). */
export function listedInMemory(filter: ProductFilter): filter is ProductFilter & { categoryIds: number[] } {
  return filter.categoryIds !== undefined && filter.categoryIds.length > 0;
}

export class ListingIndex {
  private readonly categories = new Map<number, CategoryData>();
  private readonly loading = new Map<number, { rev: number; done: Promise<CategoryData> }>();
  /** The numbering of attribute values and brands every category's arrays share. */
  private readonly keys = new ListingKeys();

  constructor(
    private readonly db: DbOrTrx,
    private readonly names: () => Promise<CatalogNames>,
  ) {}

  /** The facets of a category listing narrowed by other filters (see listedInMemory). */
  async facets(filter: ProductFilter & { categoryIds: number[] }): Promise<ListingFacets> {
    const evaluated = evaluate(filter, await this.current(filter), this.keys);
    const { brands, attributes, ...counts } = countFacets(filter, evaluated, this.keys);
    const names = await this.names();
    return shapeFacets({
      ...counts,
      brands: [...brands].flatMap(([bId, n]) => {
        const brand = names.brandById(bId);
        return brand ? [{ b_url: brand.b_url, b_name: brand.b_name, n }] : [];
      }),
      attributes: attributes.flatMap(({ attrId, ...row }): AttrRow[] => {
        const attribute = names.filterAttribute(attrId);
        return attribute ? [{ attr_id: attrId, attr_name: attribute.attr_name, unit_name: attribute.unit_name, ...row }] : [];
      }),
    });
  }

  /**
   * A page of a category listing narrowed by other filters (see listedInMemory): its products' ids
   * in the sort's order, and how many products it lists.
   */
  async page(
    filter: ProductFilter & { categoryIds: number[] },
    sort: ProductSort,
    page: { limit: number; offset: number },
  ): Promise<{ ids: number[]; total: number }> {
    const evaluated = evaluate(filter, await this.current(filter), this.keys);
    const total = listedTotal(evaluated);
    return { ids: pageIds(evaluated, total, sort, page), total };
  }

  /** Loads the categories at their current revisions, one after another, until `stopped()`; answers how many it loaded. */
  async warm(catIds: number[], stopped: () => boolean): Promise<number> {
    const revOf = await categoryRevisions(this.db, catIds);
    let loaded = 0;
    for (const catId of catIds) {
      if (stopped()) break;
      await this.category(catId, revOf.get(catId) ?? 0);
      loaded++;
    }
    return loaded;
  }

  /** The filter's categories' products (or their sale's) at their current revisions (loading those that moved on). */
  private async current(filter: ProductFilter & { categoryIds: number[] }): Promise<Products[]> {
    const revOf = await categoryRevisions(this.db, filter.categoryIds);
    const out: Products[] = [];
    // One at a time: SQLite's one connection takes the queries in turn anyway, and a burst of loads holds the loop for less each.
    for (const catId of filter.categoryIds) {
      const data = await this.category(catId, revOf.get(catId) ?? 0);
      out.push(filter.saleOnly ? data.sale : data.all);
    }
    return out;
  }

  /** A category at a revision: kept, being loaded (the same load is shared), or loaded now. */
  private category(catId: number, rev: number): CategoryData | Promise<CategoryData> {
    const kept = this.categories.get(catId);
    if (kept?.rev === rev) return kept;
    const pending = this.loading.get(catId);
    if (pending?.rev === rev) return pending.done;
    const done = loadCategory(this.db, this.keys, catId, rev)
      .then((data) => {
        this.categories.set(catId, data);
        return data;
      })
      .finally(() => {
        if (this.loading.get(catId)?.done === done) this.loading.delete(catId);
      });
    this.loading.set(catId, { rev, done });
    return done;
  }
}
