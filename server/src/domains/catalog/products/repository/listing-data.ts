/**
 * Repository layer: what the listing index keeps of a category (listing-index.ts), in typed arrays
 * and bitsets: its products' brand, price, availabilities and sort columns, each sort's order, and
 * per attribute value the products that have it; and the catalog-wide numbering of attribute
 * values and brands those arrays share (ListingKeys), so every category's bitsets and counts line up.
 */
import type { Availability, ProductSort } from '@shop/shared-kernel/contract';
import { PRODUCT_SORTS } from './listing-order.ts';

export const AVAILABILITIES: readonly Availability[] = ['in_stock', 'to_order', 'unavailable'];
export const AVAILABILITY_BIT = new Map(AVAILABILITIES.map((name, index) => [name, 1 << index]));

/** Rows of an attribute with an integer (av_integer not null), in the integers' order. */
export type IntegerRows = { product: Int32Array; integer: Float64Array };

/** Products of a category (its listed ones, or those on sale), as the listings need them. */
export type Products = {
  size: number;
  /** 32-bit words of a bitset over the products. */
  words: number;
  pId: Int32Array;
  /** The brand's slot (ListingKeys.brandSlot), 0 for none. */
  brand: Int32Array;
  price: Float64Array;
  /** A bit per availability (AVAILABILITIES) that one of the product's variants has. */
  availability: Uint8Array;
  popularity: Float64Array;
  nameSort: string[];
  createdAt: string[];
  /** Per sort (PRODUCT_SORTS, by its index), the products' positions in that order. */
  order: Int32Array[];
  /** Per (attribute, string value or null) key of ListingKeys: the products having it. */
  keyBits: Map<number, Uint32Array>;
  /** Per attribute, its rows with an integer: what its range filters read. */
  integerRows: Map<number, IntegerRows>;
  /** Per attribute, its rows with an integer and no string: what its range in the facets reads. */
  numericRows: Map<number, IntegerRows>;
};

/** One category at a revision: its listed products (those with a price), and those on sale with their discounted variants' availabilities. */
export type CategoryData = { rev: number; all: Products; sale: Products };

/** A product's row as a category's load reads it, with its variants' availabilities (bits of AVAILABILITIES). */
export type ProductRow = {
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

/** An attribute value of the product numbered `product`, under its key (ListingKeys.key). */
export type ValueRow = { product: number; key: number; attrId: number; integer: number | null; stringIsNull: boolean };

/** Every (attribute, string value or null) pair and every brand seen, numbered as the arrays of every category use them. */
export class ListingKeys {
  private readonly keys = new Map<number, Map<string | null, number>>();
  /** Per key, its attribute. */
  readonly keyAttr: number[] = [];
  /** Per key, its string value (null: the attribute's integer values). */
  readonly keyString: (string | null)[] = [];
  private readonly brandSlots = new Map<number, number>();
  /** Per slot, the brand's id: brands are numbered from 1 (0: no brand), so that counts fit an array whatever the ids. */
  readonly brandOfSlot: number[] = [0];

  /** The key of an attribute's value, numbered when first seen. */
  key(attrId: number, value: string | null): number {
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

  /** The key of an attribute's value some product had, else undefined. */
  knownKey(attrId: number, value: string | null): number | undefined {
    return this.keys.get(attrId)?.get(value);
  }

  /** The slot of a brand, numbered when first seen. */
  brandSlot(bId: number): number {
    let slot = this.brandSlots.get(bId);
    if (slot === undefined) {
      slot = this.brandOfSlot.push(bId) - 1;
      this.brandSlots.set(bId, slot);
    }
    return slot;
  }

  /** The slot of a brand some product had, else -1 (which no product has). */
  knownBrandSlot(bId: number): number {
    return this.brandSlots.get(bId) ?? -1;
  }
}

/** The arrays of `products` (numbered in their order), with the availabilities `availability` gives and their attribute values `rows`. */
export function productArrays(
  keys: ListingKeys,
  products: ProductRow[],
  availability: (row: ProductRow) => number,
  rows: ValueRow[],
): Products {
  const size = products.length;
  const words = Math.ceil(size / 32);
  const data: Products = {
    size,
    words,
    pId: Int32Array.from(products, (row) => row.p_id),
    brand: Int32Array.from(products, (row) => (row.b_id === null ? 0 : keys.brandSlot(row.b_id))),
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
    setBit(bits, row.product);
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

/** Whether product a (of category data da) comes before product b (of db) in the sort: LISTING_ORDER's order, ties by id. */
export function before(sort: ProductSort, da: Products, a: number, db: Products, b: number): boolean {
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

/** Sets bit i of a bitset. */
export function setBit(bits: Uint32Array, i: number): void {
  bits[i >>> 5] = bits[i >>> 5]! | (1 << (i & 31));
}

/** Whether bit i of a bitset is set. */
export function hasBit(bits: Uint32Array, i: number): boolean {
  return (bits[i >>> 5]! & (1 << (i & 31))) !== 0;
}

/** The set bits of a 32-bit word. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}
