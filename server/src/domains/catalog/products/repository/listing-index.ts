/**
 * Repository layer: a category listing narrowed by filters (a price range, availability, attribute
 * values, brands together with any of these): its facets, its total and its pages, from memory.
 *
 * In SQL such facets were far too slow on a large catalogue (one query per facet and part, SQLite's
 * temporary B-trees for `group by` and `count(distinct)`), and so was such a page (the filters'
 * correlated lookups for every product, once for the count and once for the page). Here each
 * category keeps, in typed arrays, what its listed products' filters and orders depend on: brand,
 * price, the availabilities of their variants, the sort columns (each sort's order presorted) and,
 * per attribute value, a bitset of the products that have it. A request reads the revisions of its
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
 * (catalogue-names.ts: kept per catalogue version, as the category tree).
 *
 * The filter's meaning and the orders are the SQL ones (product-filter.ts applyProductFilter,
 * listing-order.ts LISTING_ORDER; names compare by code point, as SQLite and PostgreSQL's C
 * collation do); test/listing-index.test.ts holds them equal over many filters, every sort and
 * after every kind of change. The sale narrowed by filters is read here too: each category also
 * keeps the same arrays for its products on sale (p_sale_price set; about a quarter), with the
 * availabilities of their discounted variants only, as the sale's availability filter and facet
 * read them. A discount moves its category's revision (migration sale-facet-counts), so they
 * follow it. Counted in SQL, the sale's facets narrowed by a price or availability were as slow as
 * a category's.
 */
import type { Availability, ListingFacets, ProductSort } from '@shop/shared-kernel/contract';
import { PRODUCT_SORTS } from './listing-order.ts';
import type { DbOrTrx } from '../../../../db/database.ts';
import type { CatalogueNames } from './catalogue-names.ts';
import { shapeFacets, type AttrRow, type FacetCounts } from './facets.ts';
import type { ProductFilter } from './product-filter.ts';

const AVAILABILITIES: readonly Availability[] = ['in_stock', 'to_order', 'unavailable'];
const AVAILABILITY_BIT = new Map(AVAILABILITIES.map((name, index) => [name, 1 << index]));

/** Products per part of a category's load: small enough that each part's three queries hold the event loop only briefly. */
const LOAD_PART = 1_000;

/** The sorts, numbered as Products.order holds them. */

/** Rows of an attribute with an integer (av_integer not null), in the integers' order. */
type IntegerRows = { product: Int32Array; integer: Float64Array };

/** Products of a category (its listed ones, or those on sale), as the listings need them. */
type Products = {
  size: number;
  /** 32-bit words of a bitset over the products. */
  words: number;
  pId: Int32Array;
  /** The brand's slot (ListingIndex.brandSlot), 0 for none. */
  brand: Int32Array;
  price: Float64Array;
  /** A bit per availability (AVAILABILITIES) that one of the product's variants has. */
  availability: Uint8Array;
  popularity: Float64Array;
  nameSort: string[];
  createdAt: string[];
  /** Per sort (PRODUCT_SORTS), the products' positions in that order. */
  order: Int32Array[];
  /** Per (attribute, string value or null) key of ListingIndex.keys: the products having it. */
  keyBits: Map<number, Uint32Array>;
  /** Per attribute, its rows with an integer: what its range filters read. */
  integerRows: Map<number, IntegerRows>;
  /** Per attribute, its rows with an integer and no string: what its range in the facets reads. */
  numericRows: Map<number, IntegerRows>;
};

/** One category at a revision: its listed products (those with a price), and those on sale with their discounted variants' availabilities. */
type CategoryData = { rev: number; all: Products; sale: Products };

/** A product's row as a category's load reads it, with its variants' availabilities (bits of AVAILABILITIES). */
type ProductRow = {
  p_id: number;
  b_id: number | null;
  p_price: number | null;
  p_sale_price: number | null;
  p_popularity: number;
  p_name_sort: string;
  p_created_at: string;
  availability: number;
  saleAvailability: number;
};
type ValueRow = { product: number; key: number; attrId: number; integer: number | null; stringIsNull: boolean };

/** Whether this listing is read from memory: a listing within categories (its sale too). */
export function listedInMemory(filter: ProductFilter): filter is ProductFilter & { categoryIds: number[] } {
  return filter.categoryIds !== undefined && filter.categoryIds.length > 0;
}

/** The facet filters, numbered: brands, availability, price, then each attribute filter (3 + c). */
const BRANDS = 0;
const AVAILABILITY = 1;
const PRICE = 2;

/**
 * A category's products against a filter, as bitsets: `failing[slot]`, those failing that facet's
 * filter (null when it is not active); `listed`, those failing none (what the listing shows);
 * `several`, those failing more than one, or left out by a condition that is no facet (a brand
 * page's brand).
 */
type Evaluated = { data: Products; failing: (Uint32Array | null)[]; listed: Uint32Array; several: Uint32Array };

/** The products counted in a facet: listed, or failing only that facet's filter. */
function countedIn(evaluated: Evaluated, slot: number, word: number): number {
  const failing = evaluated.failing[slot];
  return failing ? evaluated.listed[word]! | (failing[word]! & ~evaluated.several[word]!) : evaluated.listed[word]!;
}

/** The first index of `sorted` (ascending) whose value is at least `min`. */
function firstAtLeast(sorted: Float64Array, min: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < min) low = middle + 1;
    else high = middle;
  }
  return low;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

export class ListingIndex {
  private readonly categories = new Map<number, CategoryData>();
  private readonly loading = new Map<number, { rev: number; done: Promise<CategoryData> }>();
  /** Every (attribute, string value or null) pair seen, numbered from 0: keys.get(attrId).get(value). */
  private readonly keys = new Map<number, Map<string | null, number>>();
  private readonly keyAttr: number[] = [];
  private readonly keyString: (string | null)[] = [];
  /** Every brand seen, numbered from 1 (0: no brand), so that counts fit an array whatever the ids. */
  private readonly brandSlot = new Map<number, number>();
  private readonly brandOfSlot: number[] = [0];

  constructor(
    private readonly db: DbOrTrx,
    private readonly names: () => Promise<CatalogueNames>,
  ) {}

  /** The facets of a category listing narrowed by other filters (see listedInMemory). */
  async facets(filter: ProductFilter & { categoryIds: number[] }): Promise<ListingFacets> {
    const evaluated = this.evaluate(filter, await this.current(filter));
    const { brands, attributes, ...counts } = this.count(filter, evaluated);
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
    const evaluated = this.evaluate(filter, await this.current(filter));
    let total = 0;
    for (const { data, listed } of evaluated) for (let w = 0; w < data.words; w++) total += popcount(listed[w]!);
    if (page.offset >= total) return { ids: [], total };
    // Merges the categories' orders: each head is its category's next listed product, the categories
    // in a binary heap by their heads (comparing every category's head for each product made late
    // pages of a large catalogue slow). A page in the second half is merged from the end, backwards,
    // so the middle page is the slowest and the last one is as quick as the first.
    const s = PRODUCT_SORTS.indexOf(sort);
    const end = Math.min(total, page.offset + page.limit);
    const backwards = page.offset > total - end;
    const step = backwards ? -1 : 1;
    const heads = evaluated.map(({ data }) => (backwards ? data.size : -1));
    const advance = (c: number) => {
      const { data, listed } = evaluated[c]!;
      const order = data.order[s]!;
      let k = heads[c]! + step;
      while (k >= 0 && k < data.size && (listed[order[k]! >>> 5]! & (1 << (order[k]! & 31))) === 0) k += step;
      heads[c] = k;
    };
    const done = (c: number) => heads[c]! < 0 || heads[c]! >= evaluated[c]!.data.size;
    const headBefore = (a: number, b: number) =>
      before(
        sort,
        evaluated[a]!.data,
        evaluated[a]!.data.order[s]![heads[a]!]!,
        evaluated[b]!.data,
        evaluated[b]!.data.order[s]![heads[b]!]!,
      );
    const first = backwards ? (a: number, b: number) => headBefore(b, a) : headBefore;
    const heap: number[] = [];
    const siftDown = (from: number) => {
      for (let i = from; ;) {
        const left = 2 * i + 1;
        if (left >= heap.length) return;
        const child = left + 1 < heap.length && first(heap[left + 1]!, heap[left]!) ? left + 1 : left;
        if (!first(heap[child]!, heap[i]!)) return;
        [heap[i], heap[child]] = [heap[child]!, heap[i]!];
        i = child;
      }
    };
    evaluated.forEach((_, c) => {
      advance(c);
      if (!done(c)) heap.push(c);
    });
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(i);
    // Forwards the products [offset, end) are taken after `offset` others; backwards after `total - end`.
    const skip = backwards ? total - end : page.offset;
    const ids: number[] = [];
    for (let taken = 0; taken < skip + (end - page.offset) && heap.length > 0; taken++) {
      const best = heap[0]!;
      const data = evaluated[best]!.data;
      if (taken >= skip) ids.push(data.pId[data.order[s]![heads[best]!]!]!);
      advance(best);
      if (done(best)) {
        // Its category is done: the last of the heap takes its place.
        const last = heap.pop()!;
        if (heap.length > 0) heap[0] = last;
      }
      siftDown(0);
    }
    if (backwards) ids.reverse();
    return { ids, total };
  }

  /** Loads the categories at their current revisions, one after another, until `stopped()`; answers how many it loaded. */
  async warm(catIds: number[], stopped: () => boolean): Promise<number> {
    const revOf = await this.revisions(catIds);
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
    const revOf = await this.revisions(filter.categoryIds);
    const out: Products[] = [];
    // One at a time: SQLite's one connection takes the queries in turn anyway, and a burst of loads holds the loop for less each.
    for (const catId of filter.categoryIds) {
      const data = await this.category(catId, revOf.get(catId) ?? 0);
      out.push(filter.saleOnly ? data.sale : data.all);
    }
    return out;
  }

  /** The categories' revisions (category_facet_revs; a category without a row is at 0). */
  private async revisions(catIds: number[]): Promise<Map<number, number>> {
    const revs =
      catIds.length === 0
        ? []
        : await this.db.selectFrom('category_facet_revs').select(['cat_id', 'rev']).where('cat_id', 'in', catIds).execute();
    return new Map(revs.map((row) => [row.cat_id, Number(row.rev)]));
  }

  private category(catId: number, rev: number): CategoryData | Promise<CategoryData> {
    const kept = this.categories.get(catId);
    if (kept?.rev === rev) return kept;
    const pending = this.loading.get(catId);
    if (pending?.rev === rev) return pending.done;
    const done = this.load(catId, rev).finally(() => {
      if (this.loading.get(catId)?.done === done) this.loading.delete(catId);
    });
    this.loading.set(catId, { rev, done });
    return done;
  }

  /**
   * Reads a category's rows, in parts of about LOAD_PART products (SQLite answers synchronously:
   * a large category's attribute values in one query held the event loop far too long). The
   * revision was read before them: a change committed meanwhile leaves newer rows under
   * an older revision, read again at the next request, never the reverse.
   */
  private async load(catId: number, rev: number): Promise<CategoryData> {
    const bounds = await this.db
      .selectFrom('products')
      .select((eb) => [eb.fn.min<number>('p_id').as('lo'), eb.fn.max<number>('p_id').as('hi'), eb.fn.countAll<number>().as('n')])
      .where('cat_id', '=', catId)
      .executeTakeFirst();
    const lo = Number(bounds?.lo ?? 0);
    const width = Math.max(1, Math.ceil((Number(bounds?.hi ?? 0) + 1 - lo) / Math.max(1, Math.ceil(Number(bounds?.n ?? 0) / LOAD_PART))));
    // Built part by part, so that no step holds the event loop for a whole large category.
    const position = new Map<number, number>();
    const products: ProductRow[] = [];
    const rows: ValueRow[] = [];
    for (let from = lo; from <= Number(bounds?.hi ?? -1); from += width) {
      const listed = this.db
        .selectFrom('products as p')
        .where('p.cat_id', '=', catId)
        .where('p.p_id', '>=', from)
        .where('p.p_id', '<', from + width)
        .where('p.p_price', 'is not', null);
      for (const row of await listed
        .select(['p.p_id', 'p.b_id', 'p.p_price', 'p.p_sale_price', 'p.p_popularity', 'p.p_name_sort', 'p.p_created_at'])
        .orderBy('p.p_id')
        .execute()) {
        position.set(row.p_id, products.length);
        products.push({ ...row, availability: 0, saleAvailability: 0 });
      }
      for (const variant of await listed
        .innerJoin('variants as v', 'v.p_id', 'p.p_id')
        .select(['v.p_id', 'v.v_availability', 'v.v_sale'])
        .execute()) {
        const product = products[position.get(variant.p_id)!]!;
        const bit = AVAILABILITY_BIT.get(variant.v_availability) ?? 0;
        product.availability |= bit;
        if (Number(variant.v_sale) > 0) product.saleAvailability |= bit;
      }
      const values = await listed
        .innerJoin('attribute_values as av', 'av.p_id', 'p.p_id')
        .select(['av.p_id', 'av.attr_id', 'av.av_string', 'av.av_integer'])
        .execute();
      for (const value of values) {
        const integer = value.av_integer === null ? null : Number(value.av_integer);
        rows.push({
          product: position.get(value.p_id)!,
          key: this.key(value.attr_id, value.av_string),
          attrId: value.attr_id,
          integer,
          stringIsNull: value.av_string === null,
        });
      }
    }
    // The sale's: the products on sale, renumbered, with their values.
    const saleNumber = new Int32Array(products.length).fill(-1);
    const onSale: ProductRow[] = [];
    products.forEach((row, i) => {
      if (row.p_sale_price !== null) saleNumber[i] = onSale.push(row) - 1;
    });
    const saleRows = rows.flatMap((row) => (saleNumber[row.product]! >= 0 ? [{ ...row, product: saleNumber[row.product]! }] : []));
    const data: CategoryData = {
      rev,
      all: this.products(products, (row) => row.availability, rows),
      sale: this.products(onSale, (row) => row.saleAvailability, saleRows),
    };
    this.categories.set(catId, data);
    return data;
  }

  /** The arrays of `products` (numbered in their order), with the availabilities `availability` gives and their attribute values `rows`. */
  private products(products: ProductRow[], availability: (row: ProductRow) => number, rows: ValueRow[]): Products {
    const size = products.length;
    const words = Math.ceil(size / 32);
    const data: Products = {
      size,
      words,
      pId: Int32Array.from(products, (row) => row.p_id),
      brand: Int32Array.from(products, (row) => (row.b_id === null ? 0 : this.brandSlotOf(row.b_id))),
      price: Float64Array.from(products, (row) => Number(row.p_price)),
      availability: Uint8Array.from(products, availability),
      popularity: Float64Array.from(products, (row) => Number(row.p_popularity)),
      nameSort: products.map((row) => row.p_name_sort),
      createdAt: products.map((row) => row.p_created_at),
      order: [],
      keyBits: new Map(),
      integerRows: new Map(),
      numericRows: new Map(),
    };
    const withInteger = new Map<number, ValueRow[]>();
    for (const row of rows) {
      let bits = data.keyBits.get(row.key);
      if (!bits) data.keyBits.set(row.key, (bits = new Uint32Array(words)));
      bits[row.product >>> 5] = bits[row.product >>> 5]! | (1 << (row.product & 31));
      if (row.integer === null) continue;
      const list = withInteger.get(row.attrId);
      if (list) list.push(row);
      else withInteger.set(row.attrId, [row]);
    }
    const sorted = (list: ValueRow[]): IntegerRows => {
      const inOrder = [...list].sort((a, b) => a.integer! - b.integer!);
      return { product: Int32Array.from(inOrder, (row) => row.product), integer: Float64Array.from(inOrder, (row) => row.integer!) };
    };
    for (const [attrId, list] of withInteger) {
      data.integerRows.set(attrId, sorted(list));
      const numeric = list.filter((row) => row.stringIsNull);
      if (numeric.length > 0) data.numericRows.set(attrId, sorted(numeric));
    }
    for (const sort of PRODUCT_SORTS)
      data.order.push(Int32Array.from({ length: size }, (_, i) => i).sort((a, b) => (before(sort, data, a, data, b) ? -1 : 1)));
    return data;
  }

  private brandSlotOf(bId: number): number {
    let slot = this.brandSlot.get(bId);
    if (slot === undefined) {
      slot = this.brandOfSlot.push(bId) - 1;
      this.brandSlot.set(bId, slot);
    }
    return slot;
  }

  private key(attrId: number, value: string | null): number {
    let ofAttr = this.keys.get(attrId);
    if (!ofAttr) this.keys.set(attrId, (ofAttr = new Map()));
    let key = ofAttr.get(value);
    if (key === undefined) {
      key = this.keyAttr.length;
      ofAttr.set(value, key);
      this.keyAttr.push(attrId);
      this.keyString.push(value);
    }
    return key;
  }

  /** The attribute filters, one per attribute: its value lists and ranges together (entries every product must pass). */
  private attributeFilters(filter: ProductFilter) {
    const byAttr = new Map<number, { values: number[][]; ranges: { min: number; max: number }[] }>();
    const of = (attrId: number) => {
      let entries = byAttr.get(attrId);
      if (!entries) byAttr.set(attrId, (entries = { values: [], ranges: [] }));
      return entries;
    };
    for (const { attrId, values } of filter.attrValues ?? []) {
      const entries = of(attrId);
      if (values.length > 0) entries.values.push(values.flatMap((value) => this.keys.get(attrId)?.get(value) ?? []));
    }
    for (const { attrId, min, max } of filter.attrRanges ?? []) {
      const entries = of(attrId);
      if (min !== null || max !== null) entries.ranges.push({ min: min ?? -Infinity, max: max ?? Infinity });
    }
    return [...byAttr].map(([attrId, entries]) => ({ attrId, ...entries }));
  }

  /** Each category's products against the filter, as bitsets (Evaluated). */
  private evaluate(filter: ProductFilter, categories: Products[]): Evaluated[] {
    // Brands by slot; a brand no product has gets none (-1), which no product matches.
    const slotOf = (bId: number) => this.brandSlot.get(bId) ?? -1;
    let brandIds: Uint8Array | null = null;
    if (filter.brandIds && filter.brandIds.length > 0) {
      brandIds = new Uint8Array(this.brandOfSlot.length);
      for (const bId of filter.brandIds) if (slotOf(bId) >= 0) brandIds[slotOf(bId)] = 1;
    }
    const brandId = filter.brandId === undefined ? null : slotOf(filter.brandId);
    let availabilityMask = 0;
    for (const name of filter.availability ?? []) availabilityMask |= AVAILABILITY_BIT.get(name) ?? 0;
    const availabilityActive = (filter.availability?.length ?? 0) > 0;
    const priceMin = filter.priceMin ?? -Infinity;
    const priceMax = filter.priceMax ?? Infinity;
    const priceActive = filter.priceMin !== undefined || filter.priceMax !== undefined;
    const attributes = this.attributeFilters(filter);

    return categories.map((data) => {
      const { size, words } = data;
      const setBit = (bits: Uint32Array, i: number) => {
        bits[i >>> 5] = bits[i >>> 5]! | (1 << (i & 31));
      };
      // The products failing each per-product test, a loop each (one loop over a callback per test ran 2-3 times slower over 100,000 products).
      let brandsFailing: Uint32Array | null = null;
      if (brandIds) {
        brandsFailing = new Uint32Array(words);
        for (let i = 0; i < size; i++) if (brandIds[data.brand[i]!] === 0) setBit(brandsFailing, i);
      }
      let availabilityFailing: Uint32Array | null = null;
      if (availabilityActive) {
        availabilityFailing = new Uint32Array(words);
        const availabilities = data.availability;
        for (let i = 0; i < size; i++) if ((availabilities[i]! & availabilityMask) === 0) setBit(availabilityFailing, i);
      }
      let priceFailing: Uint32Array | null = null;
      if (priceActive) {
        priceFailing = new Uint32Array(words);
        const price = data.price;
        for (let i = 0; i < size; i++) if (!(price[i]! >= priceMin && price[i]! <= priceMax)) setBit(priceFailing, i);
      }
      const failing: (Uint32Array | null)[] = [brandsFailing, availabilityFailing, priceFailing];
      for (const { attrId, values, ranges } of attributes) {
        // Passing: every entry has a row of the product (a value of its list; an integer in its range).
        const passing = new Uint32Array(words).fill(0xffffffff);
        for (const keys of values) {
          const entry = new Uint32Array(words);
          for (const key of keys) {
            const bits = data.keyBits.get(key);
            if (bits) for (let w = 0; w < words; w++) entry[w] = entry[w]! | bits[w]!;
          }
          for (let w = 0; w < words; w++) passing[w] = passing[w]! & entry[w]!;
        }
        for (const { min, max } of ranges) {
          const entry = new Uint32Array(words);
          // The rows in the range: a slice of the attribute's rows in the integers' order.
          const rows = data.integerRows.get(attrId);
          if (rows)
            for (let r = firstAtLeast(rows.integer, min); r < rows.integer.length && rows.integer[r]! <= max; r++)
              setBit(entry, rows.product[r]!);
          for (let w = 0; w < words; w++) passing[w] = passing[w]! & entry[w]!;
        }
        const fails = passing.map((word) => ~word);
        // No product past the last one.
        if (size % 32 !== 0) fails[words - 1] = fails[words - 1]! & ((1 << (size % 32)) - 1);
        failing.push(fails);
      }
      // A brand page's brand is no facet: a product of another brand counts nowhere.
      const several = new Uint32Array(words);
      if (brandId !== null) for (let i = 0; i < size; i++) if (data.brand[i] !== brandId) setBit(several, i);
      const any = new Uint32Array(words);
      for (const bits of failing) {
        if (!bits) continue;
        for (let w = 0; w < words; w++) {
          several[w] = several[w]! | (any[w]! & bits[w]!);
          any[w] = any[w]! | bits[w]!;
        }
      }
      const listed = new Uint32Array(words);
      for (let w = 0; w < words; w++) listed[w] = ~(any[w]! | several[w]!);
      // No product past the last one.
      if (size % 32 !== 0) listed[words - 1] = listed[words - 1]! & ((1 << (size % 32)) - 1);
      return { data, failing, listed, several };
    });
  }

  /** Every facet's counts from the evaluated products. */
  private count(filter: ProductFilter, evaluated: Evaluated[]) {
    const attrIds = [...new Set([...(filter.attrValues ?? []), ...(filter.attrRanges ?? [])].map((f) => f.attrId))];
    const slotOfAttr = new Map(attrIds.map((attrId, c) => [attrId, 3 + c]));
    const keyCount = this.keyAttr.length;
    const n = new Int32Array(keyCount);
    const lo = new Float64Array(keyCount).fill(Infinity);
    const hi = new Float64Array(keyCount).fill(-Infinity);
    const brandCount = new Int32Array(this.brandOfSlot.length);
    const availability = new Int32Array(AVAILABILITIES.length);
    let priceLo = Infinity;
    let priceHi = -Infinity;

    for (const evaluatedCategory of evaluated) {
      const { data } = evaluatedCategory;
      const { words } = data;
      const inFacet = (slot: number) => {
        const mask = new Uint32Array(words);
        for (let w = 0; w < words; w++) mask[w] = countedIn(evaluatedCategory, slot, w);
        return mask;
      };
      // A loop over the set bits each (as in evaluate: one loop over a callback per facet ran slower).
      const brandMask = inFacet(BRANDS);
      for (let w = 0; w < words; w++) {
        for (let rest = brandMask[w]!; rest !== 0; rest &= rest - 1) {
          const slot = data.brand[w * 32 + 31 - Math.clz32(rest & -rest)]!;
          if (slot !== 0) brandCount[slot] = brandCount[slot]! + 1;
        }
      }
      const availabilityMask = inFacet(AVAILABILITY);
      const availabilities = data.availability;
      for (let w = 0; w < words; w++) {
        for (let rest = availabilityMask[w]!; rest !== 0; rest &= rest - 1) {
          const bits = availabilities[w * 32 + 31 - Math.clz32(rest & -rest)]!;
          for (let a = 0; a < AVAILABILITIES.length; a++) if (bits & (1 << a)) availability[a] = availability[a]! + 1;
        }
      }
      const priceMask = inFacet(PRICE);
      for (let w = 0; w < words; w++) {
        for (let rest = priceMask[w]!; rest !== 0; rest &= rest - 1) {
          const price = data.price[w * 32 + 31 - Math.clz32(rest & -rest)]!;
          if (price < priceLo) priceLo = price;
          if (price > priceHi) priceHi = price;
        }
      }
      // An attribute without an active filter counts with every other filter (the listed products); an active one without its own.
      const masks = new Map<number, Uint32Array>();
      const maskOf = (attrId: number) => {
        let mask = masks.get(attrId);
        if (!mask) masks.set(attrId, (mask = slotOfAttr.has(attrId) ? inFacet(slotOfAttr.get(attrId)!) : evaluatedCategory.listed));
        return mask;
      };
      for (const [key, bits] of data.keyBits) {
        const mask = maskOf(this.keyAttr[key]!);
        let count = 0;
        for (let w = 0; w < words; w++) count += popcount(bits[w]! & mask[w]!);
        n[key] = n[key]! + count;
      }
      // A numeric attribute's range: the smallest and largest integer of its counted rows without a string, from each end of their order.
      for (const [attrId, rows] of data.numericRows) {
        const mask = maskOf(attrId);
        const key = this.keys.get(attrId)!.get(null)!;
        const counted = (r: number) => (mask[rows.product[r]! >>> 5]! & (1 << (rows.product[r]! & 31))) !== 0;
        let first = 0;
        while (first < rows.product.length && !counted(first)) first++;
        if (first === rows.product.length) continue;
        let last = rows.product.length - 1;
        while (!counted(last)) last--;
        lo[key] = Math.min(lo[key]!, rows.integer[first]!);
        hi[key] = Math.max(hi[key]!, rows.integer[last]!);
      }
    }

    const attributes: (Omit<AttrRow, 'attr_id' | 'attr_name' | 'unit_name'> & { attrId: number })[] = [];
    for (let key = 0; key < keyCount; key++) {
      if (n[key] === 0) continue;
      attributes.push({
        attrId: this.keyAttr[key]!,
        av_string: this.keyString[key]!,
        n: n[key]!,
        lo: lo[key] === Infinity ? null : lo[key]!,
        hi: hi[key] === -Infinity ? null : hi[key]!,
      });
    }
    const counts: Omit<FacetCounts, 'brands' | 'attributes'> = {
      availability: AVAILABILITIES.flatMap((name, a) => (availability[a]! > 0 ? [{ v_availability: name, n: availability[a]! }] : [])),
      price: priceLo === Infinity ? { lo: null, hi: null } : { lo: priceLo, hi: priceHi },
    };
    const brands = new Map<number, number>();
    for (const [slot, count] of brandCount.entries()) if (count > 0) brands.set(this.brandOfSlot[slot]!, count);
    return { ...counts, brands, attributes };
  }
}

/** Whether product a (of category data da) comes before product b (of db) in the sort: LISTING_ORDER's order, ties by id. */
function before(sort: ProductSort, da: Products, a: number, db: Products, b: number): boolean {
  const idA = da.pId[a]!;
  const idB = db.pId[b]!;
  switch (sort) {
    case 'popular':
      return da.popularity[a] !== db.popularity[b] ? da.popularity[a]! > db.popularity[b]! : idA < idB;
    case 'price-asc':
      return da.price[a] !== db.price[b] ? da.price[a]! < db.price[b]! : idA < idB;
    case 'price-desc':
      return da.price[a] !== db.price[b] ? da.price[a]! > db.price[b]! : idA < idB;
    case 'name':
      return da.nameSort[a] !== db.nameSort[b] ? da.nameSort[a]! < db.nameSort[b]! : idA < idB;
    case 'newest':
      return da.createdAt[a] !== db.createdAt[b] ? da.createdAt[a]! > db.createdAt[b]! : idA > idB;
  }
}
