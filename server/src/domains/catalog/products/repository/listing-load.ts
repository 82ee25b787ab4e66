/**
 * Repository layer: reading a category for the listing index (listing-index.ts): its revision
 * (category_facet_revs, moved by triggers whenever a row its listings depend on changes) and its
 * products with their variants' availabilities and their attribute values, made into the arrays of
 * listing-data.ts.
 */
import type { DbOrTrx } from '../../../../db/database.ts';
import { AVAILABILITY_BIT, productArrays, type CategoryData, type ListingKeys, type ProductRow, type ValueRow } from './listing-data.ts';

/** Products per part of a category's load: small enough that each part's three queries hold the event loop only briefly. */
const LOAD_PART = 1_000;

/** The categories' revisions (category_facet_revs; a category without a row is at 0). */
export async function categoryRevisions(db: DbOrTrx, catIds: number[]): Promise<Map<number, number>> {
  const revs =
    catIds.length === 0 ? [] : await db.selectFrom('category_facet_revs').select(['cat_id', 'rev']).where('cat_id', 'in', catIds).execute();
  return new Map(revs.map((row) => [row.cat_id, Number(row.rev)]));
}

/**
 * Reads a category's rows, in parts of about LOAD_PART products (SQLite answers synchronously:
 * a large category's attribute values in one query would hold the event loop too long), numbering
 * its attribute values and brands in `keys`. The revision was read before them: a change committed
 * meanwhile leaves newer rows under an older revision, read again at the next request, never the
 * reverse.
 */
export async function loadCategory(db: DbOrTrx, keys: ListingKeys, catId: number, rev: number): Promise<CategoryData> {
  const bounds = await db
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
    const listed = db
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
        key: keys.key(value.attr_id, value.av_string),
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
  return {
    rev,
    all: productArrays(keys, products, (row) => row.availability, rows),
    sale: productArrays(keys, onSale, (row) => row.saleAvailability, saleRows),
  };
}
