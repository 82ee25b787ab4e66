/** Repository layer: the facet queries of a listing (listingFacets). */
import type { Availability, AttributeFacet, FacetValue, ListingFacets } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../../db/database.ts';
import { applyProductFilter, priceColumn, withoutFacet } from './product-filter.ts';
import type { ProductFilter } from './product-filter.ts';
import { LISTING_LIMITS } from '@shop/shared-kernel/schemas';

/**
 * At most this many values of one string attribute (the most frequent ones): the most a shopper
 * can tick in one filter, so what the panel offers always fits the request limits.
 */
const MAX_VALUES = LISTING_LIMITS.valuesPerFilter;

const AVAILABILITY_ORDER: Availability[] = ['in_stock', 'to_order', 'unavailable'];
const AVAILABILITY_LABEL: Record<Availability, string> = {
  in_stock: 'Skladom',
  to_order: 'Na objednávku',
  unavailable: 'Nedostupné',
};

export type AttrRow = { attr_id: number; attr_name: string; unit_name: string | null; av_string: string | null; n: number; lo: number | null; hi: number | null };

/**
 * SQLite answers synchronously: counting the attribute values of a large category in one query
 * held the event loop for about 60 ms on 100,000 products. There, the count runs in parts of
 * about this many products, one query each, with the event loop served between them; the parts
 * are disjoint, so the counts add up exactly.
 */
export const SQLITE_FACET_CHUNK_IDS = 15_000;

/**
 * A category listing's parts hold about this many of its products: every product of a group of
 * categories is the listing's (a product-id range holds only the listed share of its ids), so a
 * third of the range's size keeps the longest query about as short (measured on 100,000 products:
 * groups of 15,000 products held the event loop 53 ms, ranges of 15,000 ids 27 ms).
 */
const CATEGORY_PART_PRODUCTS = SQLITE_FACET_CHUNK_IDS / 3;

/**
 * `chunkIds`: count in parts of about this many products (SQLite), or at once (null). Counting in
 * parts also issues the queries one at a time: SQLite's one connection takes queries in turn, so
 * another shopper's query waits for one facet query, not for all of them (measured on 100,000
 * products, facets at the filter limit: /api/home alongside took 1.8 s with the queries issued
 * together, 0.4–0.7 s one at a time).
 */
export type FacetOptions = { chunkIds: number | null };

/** Runs the queries together, or one after another. */
async function runAll<T>(queries: (() => Promise<T>)[], oneAtATime: boolean): Promise<T[]> {
  if (!oneAtATime) return Promise.all(queries.map((query) => query()));
  const results: T[] = [];
  for (const query of queries) results.push(await query());
  return results;
}

/**
 * One part of a listing, counted on its own: some of its categories (a product sits in one
 * category, so the groups are disjoint and each query reads only its categories' products through
 * the category index), a product-id range of one large category, or a product-id range when the
 * listing has no categories (read through the primary key). Ranges over a whole category listing
 * would each read all of its categories' products: seven ranges on 100,000 products made a
 * filtered category's facets take about 340 ms.
 */
type Part = { categoryIds?: number[]; from?: number; to?: number };

/**
 * Groups a listing's categories (their sizes and product-id bounds) into parts of at most `limit`
 * products; a category larger than that is sliced into even product-id ranges of its own.
 */
function categoryParts(sizes: { catId: number; n: number; lo: number; hi: number }[], limit: number): Part[] {
  const all: Part[] = [];
  let group: number[] = [];
  let size = 0;
  for (const { catId, n, lo, hi } of sizes) {
    if (n > limit) {
      const width = Math.ceil((hi + 1 - lo) / Math.ceil(n / limit));
      for (let from = lo; from <= hi; from += width) all.push({ categoryIds: [catId], from, to: from + width });
      continue;
    }
    if (group.length > 0 && size + n > limit) {
      all.push({ categoryIds: group });
      group = [];
      size = 0;
    }
    group.push(catId);
    size += n;
  }
  if (group.length > 0) all.push({ categoryIds: group });
  return all;
}

/** The disjoint parts to count in (one query for their sizes), or null to count at once. */
async function parts(db: DbOrTrx, filter: ProductFilter, chunkIds: number | null): Promise<Part[] | null> {
  if (chunkIds === null) return null;
  if (filter.categoryIds && filter.categoryIds.length > 0) {
    const limit = Math.min(chunkIds, CATEGORY_PART_PRODUCTS);
    const sizes = await db
      .selectFrom('products')
      .select((eb) => ['cat_id', eb.fn.countAll<number>().as('n'), eb.fn.min<number>('p_id').as('lo'), eb.fn.max<number>('p_id').as('hi')])
      .where('cat_id', 'in', filter.categoryIds)
      .groupBy('cat_id')
      .orderBy('cat_id')
      .execute();
    const all = categoryParts(sizes.map(({ cat_id, n, lo, hi }) => ({ catId: cat_id, n: Number(n), lo: Number(lo), hi: Number(hi) })), limit);
    return all.length <= 1 ? null : all;
  }
  const bounds = await db.selectFrom('products').select((eb) => [eb.fn.min<number>('p_id').as('lo'), eb.fn.max<number>('p_id').as('hi')]).executeTakeFirst();
  const lo = Number(bounds?.lo ?? 0);
  const hi = Number(bounds?.hi ?? 0);
  if (hi - lo < chunkIds) return null;
  const ranges: Part[] = [];
  for (let from = lo; from <= hi; from += chunkIds) ranges.push({ from, to: from + chunkIds });
  return ranges;
}

/** The product-id range of a part, when it has one. */
const idRange = (part: Part | null) => (part?.from !== undefined && part.to !== undefined ? { from: part.from, to: part.to } : null);

/** Runs the attribute count in every part (or at once) and merges the rows. */
async function inChunks(all: Part[] | null, run: (part: Part | null) => Promise<AttrRow[]>): Promise<AttrRow[]> {
  if (all === null) return run(null);
  const merged = new Map<string, AttrRow>();
  for (const part of all) {
    for (const row of await run(part)) {
      const key = `${row.attr_id}\u0000${row.av_string ?? ''}\u0000${row.av_string === null ? 'n' : 's'}`;
      const seen = merged.get(key);
      if (!seen) merged.set(key, { ...row, n: Number(row.n) });
      else {
        seen.n = Number(seen.n) + Number(row.n);
        if (row.lo !== null) seen.lo = seen.lo === null ? row.lo : Math.min(Number(seen.lo), Number(row.lo));
        if (row.hi !== null) seen.hi = seen.hi === null ? row.hi : Math.max(Number(seen.hi), Number(row.hi));
      }
    }
  }
  return [...merged.values()];
}

/**
 * Facets of a listing with disjunctive counts: every facet counts the products matching all
 * other active filters, so ticking a value does not hide its siblings.
 *
 * The queries are bounded whatever the filter: brands, availability, price, the attributes
 * without an active filter, and one count per attribute with an active filter (at most
 * LISTING_LIMITS.attributeFilters); in parts, one more for the parts' sizes and each count once
 * per part.
 */
export async function listingFacets(db: DbOrTrx, filter: ProductFilter, options: FacetOptions = { chunkIds: null }): Promise<ListingFacets> {
  const all = await parts(db, filter, options.chunkIds);
  const oneAtATime = options.chunkIds !== null;

  /** The listing's products without one facet's own filter, within a part when counting in parts. */
  const inPart = (f: ProductFilter, part: Part | null) => {
    const q = applyProductFilter(db.selectFrom('products as p'), part?.categoryIds ? { ...f, categoryIds: part.categoryIds } : f);
    const range = idRange(part);
    return range === null ? q : q.where('p.p_id', '>=', range.from).where('p.p_id', '<', range.to);
  };
  /** Runs a count in every part (or once) and hands the rows of all of them to the merge. */
  const counted = async <R>(run: (part: Part | null) => Promise<R[]>): Promise<R[]> => {
    if (all === null) return run(null);
    const rows: R[] = [];
    for (const part of all) rows.push(...(await run(part)));
    return rows;
  };
  const sumBy = <R extends { n: number }>(rows: R[], key: (row: R) => string): R[] => {
    const merged = new Map<string, R>();
    for (const row of rows) {
      const seen = merged.get(key(row));
      if (seen) seen.n = Number(seen.n) + Number(row.n);
      else merged.set(key(row), { ...row, n: Number(row.n) });
    }
    return [...merged.values()];
  };

  const brandsQuery = async () =>
    sumBy(
      await counted((part) => inPart(withoutFacet(filter, 'brands'), part)
        .innerJoin('brands as b', 'b.b_id', 'p.b_id')
        .select((eb) => ['b.b_url', 'b.b_name', eb.fn.countAll<number>().as('n')])
        .groupBy(['b.b_id', 'b.b_url', 'b.b_name'])
        .execute()),
      (row) => row.b_url,
    );

  const availabilityQuery = async () =>
    sumBy(
      await counted((part) => db
        .selectFrom('variants as v')
        .select((eb) => ['v.v_availability', eb.fn.count<number>('v.p_id').distinct().as('n')])
        .where('v.p_id', 'in', inPart(withoutFacet(filter, 'availability'), part).select('p.p_id'))
        .$if(idRange(part) !== null, (q) => q.where('v.p_id', '>=', idRange(part)!.from).where('v.p_id', '<', idRange(part)!.to))
        .$if(Boolean(filter.saleOnly), (q) => q.where('v.v_sale', '>', 0))
        .groupBy('v.v_availability')
        .execute()),
      (row) => row.v_availability,
    );

  const price = priceColumn(filter);
  const priceQuery = async () => {
    const rows = await counted(async (part) => [
      await inPart(withoutFacet(filter, 'price'), part)
        .select((eb) => [eb.fn.min<number | null>(price).as('lo'), eb.fn.max<number | null>(price).as('hi')])
        .executeTakeFirst(),
    ]);
    const los = rows.map((r) => r?.lo).filter((v): v is number => v !== null && v !== undefined).map(Number);
    const his = rows.map((r) => r?.hi).filter((v): v is number => v !== null && v !== undefined).map(Number);
    return los.length === 0 || his.length === 0 ? { lo: null, hi: null } : { lo: Math.min(...los), hi: Math.max(...his) };
  };

  const active = [...new Set([...(filter.attrValues ?? []), ...(filter.attrRanges ?? [])].map((f) => f.attrId))];
  /** The counts of one attribute (`attrId`), or of every attribute without an active filter. */
  const attributeQuery = (f: ProductFilter, attrId?: number) => () =>
    inChunks(all, (part) => db
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
      .where('av.p_id', 'in', inPart(f, part).select('p.p_id'))
      .$if(attrId !== undefined, (q) => q.where('av.attr_id', '=', attrId!))
      .$if(attrId === undefined && active.length > 0, (q) => q.where('av.attr_id', 'not in', active))
      .$if(idRange(part) !== null, (q) => q.where('av.p_id', '>=', idRange(part)!.from).where('av.p_id', '<', idRange(part)!.to))
      .groupBy(['av.attr_id', 'a.attr_name', 'a.unit_name', 'av.av_string'])
      .execute() as Promise<AttrRow[]>);

  // Each query is a function, so none starts before its turn (and none fails while nothing awaits it).
  const fixedFacets = async () =>
    oneAtATime
      ? ([await brandsQuery(), await availabilityQuery(), await priceQuery()] as const)
      : Promise.all([brandsQuery(), availabilityQuery(), priceQuery()]);
  const attributeFacets = () =>
    runAll([attributeQuery(filter), ...active.map((attrId) => attributeQuery(withoutFacet(filter, `attr:${attrId}`), attrId))], oneAtATime);
  const [[brands, availability, priceRow], attributeRows] = oneAtATime
    ? [await fixedFacets(), await attributeFacets()]
    : await Promise.all([fixedFacets(), attributeFacets()]);

  return shapeFacets({ brands, availability, price: priceRow, attributes: attributeRows.flat() });
}

/** The counts behind a listing's facets, however they were counted (over the products, or summed per category). */
export type FacetCounts = {
  brands: { b_url: string; b_name: string; n: number }[];
  availability: { v_availability: Availability; n: number }[];
  price: { lo: number | null; hi: number | null };
  attributes: AttrRow[];
};

/** The facets as the panel shows them: availability in its order, attributes by id, the most frequent values of each. */
export function shapeFacets(counts: FacetCounts): ListingFacets {
  const rows = counts.attributes;
  const byAttr = new Map<number, AttrRow[]>();
  for (const row of rows) {
    const list = byAttr.get(row.attr_id);
    if (list) list.push(row);
    else byAttr.set(row.attr_id, [row]);
  }
  const attributes: AttributeFacet[] = [];
  for (const attrId of [...byAttr.keys()].sort((a, b) => a - b)) {
    const group = byAttr.get(attrId)!;
    const first = group[0]!;
    const numeric = group.filter((r) => r.av_string === null && r.lo !== null);
    const strings = group.filter((r) => r.av_string !== null);
    if (strings.length === 0 && numeric.length > 0) {
      attributes.push({
        kind: 'range',
        attr_id: attrId,
        attr_name: first.attr_name,
        unit_name: first.unit_name,
        min: Math.min(...numeric.map((r) => Number(r.lo))),
        max: Math.max(...numeric.map((r) => Number(r.hi))),
        count: numeric.reduce((sum, r) => sum + Number(r.n), 0),
      });
    } else if (strings.length > 0) {
      const values: FacetValue[] = strings
        .map((r) => ({ value: r.av_string!, label: r.av_string!, count: Number(r.n) }))
        .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label, 'sk'))
        .slice(0, MAX_VALUES)
        .sort((a, b) => a.label.localeCompare(b.label, 'sk'));
      attributes.push({ kind: 'values', attr_id: attrId, attr_name: first.attr_name, unit_name: first.unit_name, values });
    }
  }

  const availabilityCounts = new Map(counts.availability.map((r) => [r.v_availability, Number(r.n)]));
  return {
    brands: [...counts.brands].sort((a, b) => a.b_name.localeCompare(b.b_name, 'sk')).map((b) => ({ value: b.b_url, label: b.b_name, count: Number(b.n) })),
    availability: AVAILABILITY_ORDER.filter((a) => availabilityCounts.has(a)).map((a) => ({
      value: a,
      label: AVAILABILITY_LABEL[a],
      count: availabilityCounts.get(a)!,
    })),
    price: counts.price.lo !== null && counts.price.hi !== null ? { min: Number(counts.price.lo), max: Number(counts.price.hi) } : null,
    attributes,
  };
}
