/**
 * Repository layer: a filter evaluated over the listing index's categories (listing-index.ts) into
 * bitsets of their products: per facet filter, those failing it; those failing none (listed); and
 * those failing more than one (counted in no facet). Facet counts (listing-counts.ts) and pages
 * (listing-pages.ts) read these.
 */
import { AVAILABILITY_BIT, setBit, type ListingKeys, type Products } from './listing-data.ts';
import type { ProductFilter } from './product-filter.ts';

/** The facet filters, numbered: brands, availability, price, then each attribute filter (ATTRIBUTES + c, in attributeSlots' order). */
export const BRANDS = 0;
export const AVAILABILITY = 1;
export const PRICE = 2;
const ATTRIBUTES = 3;

/**
 * A category's products against a filter, as bitsets: `failing[slot]`, those failing that facet's
 * filter (null when it is not active); `listed`, those failing none (what the listing shows);
 * `several`, those failing more than one, or left out by a condition that is no facet (a brand
 * page's brand).
 */
export type Evaluated = { data: Products; failing: (Uint32Array | null)[]; listed: Uint32Array; several: Uint32Array };

/** The facet slot of each attribute the filter narrows by (its value lists and ranges together). */
export function attributeSlots(filter: ProductFilter): Map<number, number> {
  const attrIds = [...new Set([...(filter.attrValues ?? []), ...(filter.attrRanges ?? [])].map((f) => f.attrId))];
  return new Map(attrIds.map((attrId, c) => [attrId, ATTRIBUTES + c]));
}

/** A word of the products counted in a facet: listed, or failing only that facet's filter. */
export function countedIn(evaluated: Evaluated, slot: number, word: number): number {
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

/** The attribute filters, one per attribute in attributeSlots' order: its value lists (as keys) and ranges together (entries every product must pass). */
function attributeFilters(filter: ProductFilter, keys: ListingKeys) {
  const byAttr = new Map<number, { values: number[][]; ranges: { min: number; max: number }[] }>();
  const of = (attrId: number) => {
    let entries = byAttr.get(attrId);
    if (!entries) byAttr.set(attrId, (entries = { values: [], ranges: [] }));
    return entries;
  };
  for (const { attrId, values } of filter.attrValues ?? []) {
    const entries = of(attrId);
    if (values.length > 0) entries.values.push(values.flatMap((value) => keys.knownKey(attrId, value) ?? []));
  }
  for (const { attrId, min, max } of filter.attrRanges ?? []) {
    const entries = of(attrId);
    if (min !== null || max !== null) entries.ranges.push({ min: min ?? -Infinity, max: max ?? Infinity });
  }
  return [...byAttr].map(([attrId, entries]) => ({ attrId, ...entries }));
}

/** Clears the bits past the last product. */
function trim(bits: Uint32Array, size: number): void {
  if (size % 32 !== 0) bits[bits.length - 1] = bits[bits.length - 1]! & ((1 << (size % 32)) - 1);
}

/** Each category's products against the filter, as bitsets (Evaluated). */
export function evaluate(filter: ProductFilter, categories: Products[], keys: ListingKeys): Evaluated[] {
  // Brands by slot; a brand no product has gets none (-1), which no product matches.
  let brandIds: Uint8Array | null = null;
  if (filter.brandIds && filter.brandIds.length > 0) {
    brandIds = new Uint8Array(keys.brandOfSlot.length);
    for (const bId of filter.brandIds) if (keys.knownBrandSlot(bId) >= 0) brandIds[keys.knownBrandSlot(bId)] = 1;
  }
  const brandId = filter.brandId === undefined ? null : keys.knownBrandSlot(filter.brandId);
  let availabilityMask = 0;
  for (const name of filter.availability ?? []) availabilityMask |= AVAILABILITY_BIT.get(name) ?? 0;
  const availabilityActive = (filter.availability?.length ?? 0) > 0;
  const priceMin = filter.priceMin ?? -Infinity;
  const priceMax = filter.priceMax ?? Infinity;
  const priceActive = filter.priceMin !== undefined || filter.priceMax !== undefined;
  const attributes = attributeFilters(filter, keys);

  return categories.map((data) => {
    const { size, words } = data;
    // The products failing each per-product test, a loop each: one loop over a callback per test was slower.
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
      for (const keysOfEntry of values) {
        const entry = new Uint32Array(words);
        for (const key of keysOfEntry) {
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
      trim(fails, size);
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
    trim(listed, size);
    return { data, failing, listed, several };
  });
}
