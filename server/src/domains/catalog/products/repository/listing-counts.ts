/**
 * Repository layer: a listing's facet counts from its evaluated categories (listing-bitsets.ts). A
 * product that fails no facet filter counts in every facet; one that fails exactly one counts in
 * that facet only (disjunctive counts: ticking a value does not hide its siblings); one that fails
 * more counts nowhere. A value's count is the population count of its bitset and those masks.
 */
import type { AttrRow, FacetCounts } from './facets.ts';
import { attributeSlots, AVAILABILITY, BRANDS, countedIn, PRICE, type Evaluated } from './listing-bitsets.ts';
import { AVAILABILITIES, hasBit, popcount, type ListingKeys } from './listing-data.ts';
import type { ProductFilter } from './product-filter.ts';

/** An attribute value's count and, for a numeric attribute, its range; the names are added at answer time. */
export type CountedValue = Omit<AttrRow, 'attr_id' | 'attr_name' | 'unit_name'> & { attrId: number };

export type ListingCounts = Omit<FacetCounts, 'brands' | 'attributes'> & {
  /** Products per brand id. */
  brands: Map<number, number>;
  attributes: CountedValue[];
};

/** Every facet's counts from the evaluated products. */
export function countFacets(filter: ProductFilter, evaluated: Evaluated[], keys: ListingKeys): ListingCounts {
  const slotOfAttr = attributeSlots(filter);
  const keyCount = keys.keyAttr.length;
  const n = new Int32Array(keyCount);
  const lo = new Float64Array(keyCount).fill(Infinity);
  const hi = new Float64Array(keyCount).fill(-Infinity);
  const brandCount = new Int32Array(keys.brandOfSlot.length);
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
    // A loop over the set bits each (as in evaluate: one loop over a callback per facet was slower).
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
      const mask = maskOf(keys.keyAttr[key]!);
      let count = 0;
      for (let w = 0; w < words; w++) count += popcount(bits[w]! & mask[w]!);
      n[key] = n[key]! + count;
    }
    // A numeric attribute's range: the smallest and largest integer of its counted rows without a string, from each end of their order.
    for (const [attrId, rows] of data.numericRows) {
      const mask = maskOf(attrId);
      const key = keys.knownKey(attrId, null)!;
      const counted = (r: number) => hasBit(mask, rows.product[r]!);
      let first = 0;
      while (first < rows.product.length && !counted(first)) first++;
      if (first === rows.product.length) continue;
      let last = rows.product.length - 1;
      while (!counted(last)) last--;
      lo[key] = Math.min(lo[key]!, rows.integer[first]!);
      hi[key] = Math.max(hi[key]!, rows.integer[last]!);
    }
  }

  const attributes: CountedValue[] = [];
  for (let key = 0; key < keyCount; key++) {
    if (n[key] === 0) continue;
    attributes.push({
      attrId: keys.keyAttr[key]!,
      av_string: keys.keyString[key]!,
      n: n[key]!,
      lo: lo[key] === Infinity ? null : lo[key]!,
      hi: hi[key] === -Infinity ? null : hi[key]!,
    });
  }
  const brands = new Map<number, number>();
  for (const [slot, count] of brandCount.entries()) if (count > 0) brands.set(keys.brandOfSlot[slot]!, count);
  return {
    availability: AVAILABILITIES.flatMap((name, a) => (availability[a]! > 0 ? [{ v_availability: name, n: availability[a]! }] : [])),
    price: priceLo === Infinity ? { lo: null, hi: null } : { lo: priceLo, hi: priceHi },
    brands,
    attributes,
  };
}
