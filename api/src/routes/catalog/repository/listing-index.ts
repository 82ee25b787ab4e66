/**
 * Repository layer: a category listing narrowed by filters (a price range, availability, attribute
 * values, brands together with any of these): its facets, its total and its pages, from memory.
 *
 * In SQL such facets took 130–160 ms on 100,000 products (one query per facet and part, SQLite's
 * temporary B-trees for `group by` and `count(distinct)`), and such a page 14–26 ms (the filters'
 * correlated lookups for every product, once for the count and once for the page). Here each
 * category keeps, in typed arrays, what its listed products' filters and orders depend on: brand,
 * price, the availabilities of their variants, their attribute values and the sort columns, each
 * sort's order presorted. A request reads the revisions of its categories (category_facet_revs,
 * moved by triggers whenever one of those rows changes: migrations category-facet-counts and
 * listing-order-revisions), loads again only the categories that moved on, and evaluates the
 * filters in one pass over the products, noting for each product how many facet filters it fails
 * and which one. A product that fails none is listed and counts in every facet; one that fails
 * exactly one counts in that facet only (disjunctive counts: ticking a value does not hide its
 * siblings); one that fails more counts nowhere. A page merges the categories' presorted orders,
 * skipping the products not listed, until it has the page.
 *
 * The revisions live in the database, so the arrays are right on every server of the shop and
 * after any writer (a script on the SQLite file too), without a broadcast. Names (brands,
 * attributes) and whether an attribute is a filter are read at answer time.
 *
 * The filter's meaning and the orders are the SQL ones (product-filter.ts applyProductFilter,
 * catalog.repository.ts LISTING_ORDER; names compare by code point, as SQLite and PostgreSQL's C
 * collation do); test/listing-index.test.ts holds them equal over many filters, every sort and
 * after every kind of change. The sale listing's filter (v_sale, p_sale_price) is not watched by
 * the revisions: it is read in SQL (facets.ts, catalog.repository.ts).
 */
import type { Availability, ListingFacets, ProductSort } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../../db/database.ts';
import { shapeFacets, type AttrRow, type FacetCounts } from './facets.ts';
import type { ProductFilter } from './product-filter.ts';

const AVAILABILITIES: readonly Availability[] = ['in_stock', 'to_order', 'unavailable'];
const AVAILABILITY_BIT = new Map(AVAILABILITIES.map((name, index) => [name, 1 << index]));

/** Products per part of a category's load: each part's three queries held the loop 3–8 ms on 100,000 products. */
const LOAD_PART = 1_000;

/** The sorts, numbered as CategoryData.order holds them. */
const SORTS: readonly ProductSort[] = ['popular', 'price-asc', 'price-desc', 'name', 'newest'];

/** One category's listed products (those with a price), as the listings need them, at a revision. */
type CategoryData = {
  rev: number;
  size: number;
  pId: Int32Array;
  popularity: Float64Array;
  nameSort: string[];
  createdAt: string[];
  /** Per sort (SORTS), the products' positions in that order. */
  order: Int32Array[];
  /** The brand's slot (ListingIndex.brandSlot), 0 for none. */
  brand: Int32Array;
  price: Float64Array;
  /** A bit per availability (AVAILABILITIES) that one of the product's variants has. */
  availability: Uint8Array;
  /** The product's attribute values: rows rowStart[i] … rowStart[i + 1] - 1. */
  rowStart: Int32Array;
  /** The row's (attribute, string value) pair: a key of ListingIndex.keys. */
  rowKey: Int32Array;
  /** av_integer, NaN for null. */
  rowInteger: Float64Array;
};

/**
 * The active attribute filters, as bits: each entry of a filter (a value list, or a range) is a
 * bit that a row can satisfy (LISTING_LIMITS allows at most 20 attribute filters, so 32 bits hold
 * them). `valueBits[key]`: the value-list entries a row with that key satisfies; `rangeBits[key]`:
 * the range entries of its attribute, satisfied when its integer is in the range. A product
 * passes attribute filter c when its rows together satisfy all of `conditionBits[c]`.
 */
type AttributeConditions = {
  attrIds: number[];
  conditionBits: number[];
  valueBits: Int32Array;
  rangeBits: Int32Array;
  rangeMin: number[];
  rangeMax: number[];
};

/** Whether this listing is read from memory: a category listing, not the sale listing. */
export function listedInMemory(filter: ProductFilter): filter is ProductFilter & { categoryIds: number[] } {
  return filter.categoryIds !== undefined && filter.categoryIds.length > 0 && !filter.saleOnly;
}

/** A facet filter a product failed (3 + c: attribute condition c); more than one fails it for every facet. */
const BRANDS = 0;
const AVAILABILITY = 1;
const PRICE = 2;
/** failed[i] of a product that the listing's other conditions (a brand page's brand) leave out. */
const LEFT_OUT = 2;

/** Per product of a category: how many facet filters it fails (0, 1, or 2 for more) and, for one, which. */
type Evaluated = { data: CategoryData; failed: Uint8Array; which: Int8Array };

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

  constructor(private readonly db: DbOrTrx) {}

  /** The facets of a category listing narrowed by other filters (see listedInMemory). */
  async facets(filter: ProductFilter & { categoryIds: number[] }): Promise<ListingFacets> {
    const evaluated = this.evaluate(filter, await this.current(filter.categoryIds));
    const { brands, attributes, ...counts } = this.count(filter, evaluated);
    const [brandRows, attributeRows] = await Promise.all([
      brands.size === 0 ? [] : this.db.selectFrom('brands').select(['b_id', 'b_url', 'b_name']).where('b_id', 'in', [...brands.keys()]).execute(),
      attributes.length === 0
        ? []
        : this.db.selectFrom('attributes').select(['attr_id', 'attr_name', 'unit_name']).where('use_attr', '=', 1).where('attr_id', 'in', [...new Set(attributes.map((row) => row.attrId))]).execute(),
    ]);
    const attributeById = new Map(attributeRows.map((row) => [row.attr_id, row]));
    return shapeFacets({
      ...counts,
      brands: brandRows.map((row) => ({ b_url: row.b_url, b_name: row.b_name, n: brands.get(row.b_id)! })),
      attributes: attributes.flatMap(({ attrId, ...row }): AttrRow[] => {
        const attribute = attributeById.get(attrId);
        return attribute ? [{ attr_id: attrId, attr_name: attribute.attr_name, unit_name: attribute.unit_name, ...row }] : [];
      }),
    });
  }

  /**
   * A page of a category listing narrowed by other filters (see listedInMemory): its products' ids
   * in the sort's order, and how many products it lists.
   */
  async page(filter: ProductFilter & { categoryIds: number[] }, sort: ProductSort, page: { limit: number; offset: number }): Promise<{ ids: number[]; total: number }> {
    const evaluated = this.evaluate(filter, await this.current(filter.categoryIds));
    let total = 0;
    for (const { data, failed } of evaluated) for (let i = 0; i < data.size; i++) if (failed[i] === 0) total++;
    if (page.offset >= total) return { ids: [], total };
    // Merges the categories' orders: each head is its category's next listed product.
    const s = SORTS.indexOf(sort);
    const heads = evaluated.map(() => -1);
    const advance = (c: number) => {
      const { data, failed } = evaluated[c]!;
      const order = data.order[s]!;
      let k = heads[c]! + 1;
      while (k < data.size && failed[order[k]!] !== 0) k++;
      heads[c] = k;
    };
    evaluated.forEach((_, c) => advance(c));
    const ids: number[] = [];
    for (let taken = 0; taken < page.offset + page.limit; taken++) {
      let best = -1;
      for (let c = 0; c < evaluated.length; c++) {
        if (heads[c]! >= evaluated[c]!.data.size) continue;
        if (best < 0 || before(sort, evaluated[c]!.data, evaluated[c]!.data.order[s]![heads[c]!]!, evaluated[best]!.data, evaluated[best]!.data.order[s]![heads[best]!]!)) best = c;
      }
      if (best < 0) break;
      const data = evaluated[best]!.data;
      if (taken >= page.offset) ids.push(data.pId[data.order[s]![heads[best]!]!]!);
      advance(best);
    }
    return { ids, total };
  }

  /** The categories' data at their current revisions (loading those that moved on). */
  private async current(catIds: number[]): Promise<CategoryData[]> {
    const revs = await this.db.selectFrom('category_facet_revs').select(['cat_id', 'rev']).where('cat_id', 'in', catIds).execute();
    const revOf = new Map(revs.map((row) => [row.cat_id, Number(row.rev)]));
    const out: CategoryData[] = [];
    // One at a time: SQLite's one connection takes the queries in turn anyway, and a burst of loads holds the loop for less each.
    for (const catId of catIds) out.push(await this.category(catId, revOf.get(catId) ?? 0));
    return out;
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
   * the 36,000 attribute values of a 7,000-product category in one query held the event loop for
   * 80 ms). The revision was read before them: a change committed meanwhile leaves newer rows under
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
    const pId: number[] = [];
    const popularity: number[] = [];
    const nameSort: string[] = [];
    const createdAt: string[] = [];
    const brand: number[] = [];
    const price: number[] = [];
    const availability: number[] = [];
    const rowStart: number[] = [];
    const rowKey: number[] = [];
    const rowInteger: number[] = [];
    for (let from = lo; from <= Number(bounds?.hi ?? -1); from += width) {
      const listed = this.db
        .selectFrom('products as p')
        .where('p.cat_id', '=', catId)
        .where('p.p_id', '>=', from)
        .where('p.p_id', '<', from + width)
        .where('p.p_price', 'is not', null);
      const products = await listed.select(['p.p_id', 'p.b_id', 'p.p_price', 'p.p_popularity', 'p.p_name_sort', 'p.p_created_at']).orderBy('p.p_id').execute();
      const base = brand.length;
      for (const row of products) {
        position.set(row.p_id, brand.length);
        pId.push(row.p_id);
        popularity.push(Number(row.p_popularity));
        nameSort.push(row.p_name_sort);
        createdAt.push(row.p_created_at);
        brand.push(row.b_id === null ? 0 : this.brandSlotOf(row.b_id));
        price.push(Number(row.p_price));
        availability.push(0);
      }
      for (const variant of await listed.innerJoin('variants as v', 'v.p_id', 'p.p_id').select(['v.p_id', 'v.v_availability']).execute()) {
        const index = position.get(variant.p_id)!;
        availability[index] = availability[index]! | (AVAILABILITY_BIT.get(variant.v_availability) ?? 0);
      }
      const values = await listed.innerJoin('attribute_values as av', 'av.p_id', 'p.p_id').select(['av.p_id', 'av.attr_id', 'av.av_string', 'av.av_integer']).execute();
      // The part's products' rows together, in their order (a counting sort by product).
      const next = new Array<number>(products.length + 1).fill(0);
      for (const value of values) next[position.get(value.p_id)! - base + 1]!++;
      next[0] = rowKey.length;
      for (let i = 0; i < products.length; i++) {
        next[i + 1] = next[i + 1]! + next[i]!;
        rowStart.push(next[i]!);
      }
      rowKey.length = rowInteger.length = rowKey.length + values.length;
      for (const value of values) {
        const row = next[position.get(value.p_id)! - base]!++;
        rowKey[row] = this.key(value.attr_id, value.av_string);
        rowInteger[row] = value.av_integer === null ? Number.NaN : Number(value.av_integer);
      }
    }
    rowStart.push(rowKey.length);
    const size = brand.length;
    const data: CategoryData = {
      rev,
      size,
      pId: Int32Array.from(pId),
      popularity: Float64Array.from(popularity),
      nameSort,
      createdAt,
      order: [],
      brand: Int32Array.from(brand),
      price: Float64Array.from(price),
      availability: Uint8Array.from(availability),
      rowStart: Int32Array.from(rowStart),
      rowKey: Int32Array.from(rowKey),
      rowInteger: Float64Array.from(rowInteger),
    };
    for (const sort of SORTS) data.order.push(Int32Array.from({ length: size }, (_, i) => i).sort((a, b) => (before(sort, data, a, data, b) ? -1 : 1)));
    this.categories.set(catId, data);
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
  /** Which facet filters each product fails (Evaluated), in one pass over the categories' products. */
  private evaluate(filter: ProductFilter, categories: CategoryData[]): Evaluated[] {
    // Brands by slot; a brand no product has gets none (-1), which no product matches.
    const slotOf = (bId: number) => this.brandSlot.get(bId) ?? -1;
    const brandIds = filter.brandIds && filter.brandIds.length > 0 ? new Set(filter.brandIds.map(slotOf)) : null;
    const brandId = filter.brandId === undefined ? null : slotOf(filter.brandId);
    let availabilityMask = 0;
    for (const name of filter.availability ?? []) availabilityMask |= AVAILABILITY_BIT.get(name) ?? 0;
    const availabilityActive = (filter.availability?.length ?? 0) > 0;
    const priceMin = filter.priceMin ?? -Infinity;
    const priceMax = filter.priceMax ?? Infinity;
    const priceActive = filter.priceMin !== undefined || filter.priceMax !== undefined;
    const { attrIds, conditionBits, valueBits, rangeBits, rangeMin, rangeMax } = this.attributeConditions(filter);
    return categories.map((data) => {
      const failed = new Uint8Array(data.size);
      const which = new Int8Array(data.size).fill(-1);
      for (let i = 0; i < data.size; i++) {
        const brand = data.brand[i]!;
        if (brandId !== null && brand !== brandId) {
          failed[i] = LEFT_OUT;
          continue;
        }
        let fails = 0;
        let one = -1;
        if (brandIds && !brandIds.has(brand)) {
          fails++;
          one = BRANDS;
        }
        if (availabilityActive && (data.availability[i]! & availabilityMask) === 0) {
          fails++;
          one = AVAILABILITY;
        }
        const price = data.price[i]!;
        if (priceActive && !(price >= priceMin && price <= priceMax)) {
          fails++;
          one = PRICE;
        }
        if (attrIds.length > 0 && fails < 2) {
          let satisfied = 0;
          for (let r = data.rowStart[i]!, to = data.rowStart[i + 1]!; r < to; r++) {
            const key = data.rowKey[r]!;
            satisfied |= valueBits[key]!;
            const ranges = rangeBits[key]!;
            if (ranges === 0) continue;
            const integer = data.rowInteger[r]!;
            for (let bits = ranges; bits !== 0; bits &= bits - 1) {
              const bit = 31 - Math.clz32(bits & -bits);
              if (integer >= rangeMin[bit]! && integer <= rangeMax[bit]!) satisfied |= 1 << bit;
            }
          }
          for (let c = 0; c < attrIds.length; c++) {
            if ((satisfied & conditionBits[c]!) !== conditionBits[c]) {
              fails++;
              one = 3 + c;
            }
          }
        }
        failed[i] = Math.min(fails, 2);
        which[i] = one;
      }
      return { data, failed, which };
    });
  }

  /** Every facet's counts from the evaluated products. */
  private count(filter: ProductFilter, evaluated: Evaluated[]) {
    const attrIds = [...new Set([...(filter.attrValues ?? []), ...(filter.attrRanges ?? [])].map((f) => f.attrId))];
    const keyCount = this.keyAttr.length;
    // Each key's facet: its attribute's, when that one's filter is active (3 + its condition), else -1.
    const keySlot = new Int32Array(keyCount).fill(-1);
    for (const [c, attrId] of attrIds.entries()) {
      for (let key = 0; key < keyCount; key++) if (this.keyAttr[key] === attrId) keySlot[key] = 3 + c;
    }
    // A range needs the smallest and largest integer of its rows; a value's count does not.
    const numeric = Uint8Array.from(this.keyString, (value) => (value === null ? 1 : 0));
    const n = new Int32Array(keyCount);
    const seenBy = new Int32Array(keyCount).fill(-1);
    const lo = new Float64Array(keyCount).fill(Infinity);
    const hi = new Float64Array(keyCount).fill(-Infinity);
    const brandCount = new Int32Array(this.brandOfSlot.length);
    const availability = new Int32Array(AVAILABILITIES.length);
    let priceLo = Infinity;
    let priceHi = -Infinity;
    let stamp = 0;

    for (const { data, failed, which } of evaluated) {
      for (let i = 0; i < data.size; i++, stamp++) {
        if (failed[i]! > 1) continue;
        const all = failed[i] === 0;
        const one = which[i]!;
        const brand = data.brand[i]!;
        if ((all || one === BRANDS) && brand !== 0) brandCount[brand] = brandCount[brand]! + 1;
        if (all || one === AVAILABILITY) {
          const bits = data.availability[i]!;
          for (let a = 0; a < AVAILABILITIES.length; a++) if (bits & (1 << a)) availability[a] = availability[a]! + 1;
        }
        if (all || one === PRICE) {
          const price = data.price[i]!;
          if (price < priceLo) priceLo = price;
          if (price > priceHi) priceHi = price;
        }
        if (!all && one < 3) continue;
        for (let r = data.rowStart[i]!, to = data.rowStart[i + 1]!; r < to; r++) {
          const key = data.rowKey[r]!;
          // Without an active filter an attribute counts with every other filter; an active one without its own.
          if (!all && keySlot[key] !== one) continue;
          if (seenBy[key] !== stamp) {
            seenBy[key] = stamp;
            n[key] = n[key]! + 1;
          }
          if (numeric[key] === 0) continue;
          const integer = data.rowInteger[r]!;
          if (integer < lo[key]!) lo[key] = integer;
          if (integer > hi[key]!) hi[key] = integer;
        }
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

  /** The filter's attribute conditions as bits (AttributeConditions), one condition per attribute. */
  private attributeConditions(filter: ProductFilter): AttributeConditions {
    const keyCount = this.keyAttr.length;
    const out: AttributeConditions = { attrIds: [], conditionBits: [], valueBits: new Int32Array(keyCount), rangeBits: new Int32Array(keyCount), rangeMin: [], rangeMax: [] };
    let entries = 0;
    const condition = (attrId: number) => {
      let c = out.attrIds.indexOf(attrId);
      if (c < 0) {
        c = out.attrIds.push(attrId) - 1;
        out.conditionBits.push(0);
      }
      return c;
    };
    const entry = (c: number) => {
      if (entries === 31) throw new Error('more attribute filters than LISTING_LIMITS allows');
      const bit = 1 << entries;
      out.conditionBits[c]! |= bit;
      out.rangeMin.push(-Infinity);
      out.rangeMax.push(Infinity);
      entries++;
      return bit;
    };
    for (const { attrId, values } of filter.attrValues ?? []) {
      const c = condition(attrId);
      if (values.length === 0) continue;
      const bit = entry(c);
      for (const value of values) {
        const key = this.keys.get(attrId)?.get(value);
        if (key !== undefined) out.valueBits[key]! |= bit;
      }
    }
    for (const { attrId, min, max } of filter.attrRanges ?? []) {
      const c = condition(attrId);
      if (min === null && max === null) continue;
      const bit = entry(c);
      out.rangeMin[entries - 1] = min ?? -Infinity;
      out.rangeMax[entries - 1] = max ?? Infinity;
      for (let key = 0; key < keyCount; key++) if (this.keyAttr[key] === attrId) out.rangeBits[key]! |= bit;
    }
    return out;
  }
}

/** Whether product a (of category data da) comes before product b (of db) in the sort: LISTING_ORDER's order, ties by id. */
function before(sort: ProductSort, da: CategoryData, a: number, db: CategoryData, b: number): boolean {
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
