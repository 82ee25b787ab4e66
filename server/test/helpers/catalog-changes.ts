/**
 * Every kind of catalog change a category's facets and filtered listings depend on, each made
 * on the test database in turn, for tests that hold kept or in-memory data equal to a count over
 * the products after each: a price, a brand, an availability, an attribute value, a discount on
 * a product's variant (putting it on sale) and its end, a second discount on a product on sale, a
 * category move, a new product (with a variant and an attribute value) and its removal.
 */
import type { Db } from '../../src/db/database.ts';

export type CatalogChange = [label: string, change: () => Promise<unknown>];

export async function catalogChanges(
  db: Db,
  newUrl: string,
): Promise<{ catIds: number[]; changes: CatalogChange[]; productId: number; productCatId: number }> {
  const product = await db
    .selectFrom('products as p')
    .innerJoin('attribute_values as av', 'av.p_id', 'p.p_id')
    .select(['p.p_id', 'p.cat_id', 'av.av_id'])
    .where('av.av_string', 'is not', null)
    .orderBy('p.p_id')
    .executeTakeFirstOrThrow();
  const otherCategory = await db
    .selectFrom('categories')
    .select('cat_id')
    .where('cat_id', '!=', product.cat_id)
    .orderBy('cat_id', 'desc')
    .executeTakeFirstOrThrow();
  const brand = await db.selectFrom('brands').select('b_id').orderBy('b_id', 'desc').executeTakeFirstOrThrow();
  const variant = await db
    .selectFrom('variants')
    .select(['v_id', 'v_availability'])
    .where('p_id', '=', product.p_id)
    .executeTakeFirstOrThrow();
  const attribute = await db.selectFrom('attributes').select('attr_id').orderBy('attr_id').executeTakeFirstOrThrow();
  // A variant without a discount of a product on sale: a second discount may change no product column, only the sale's counts.
  const onSale = await db
    .selectFrom('products as p')
    .innerJoin('variants as v', 'v.p_id', 'p.p_id')
    .select(['v.v_id'])
    .where('p.p_sale_price', 'is not', null)
    .where('v.v_sale', '=', 0)
    .orderBy('p.p_id')
    .orderBy('v.v_id')
    .executeTakeFirstOrThrow();
  // A product not on sale, and the last of its variants (not the one its tile shows, where it has several).
  const offSale = await db
    .selectFrom('products as p')
    .innerJoin('variants as v', 'v.p_id', 'p.p_id')
    .select(['v.v_id'])
    .where('p.p_sale_price', 'is', null)
    .where('p.p_price', 'is not', null)
    .orderBy('p.p_id')
    .orderBy('v.v_id', 'desc')
    .executeTakeFirstOrThrow();
  const changes: CatalogChange[] = [
    [
      'price',
      () =>
        db
          .updateTable('variants')
          .set((eb) => ({ v_sell_price: eb('v_sell_price', '*', 3) }))
          .where('p_id', '=', product.p_id)
          .execute(),
    ],
    ['brand', () => db.updateTable('products').set({ b_id: brand.b_id }).where('p_id', '=', product.p_id).execute()],
    [
      'availability',
      () =>
        db
          .updateTable('variants')
          .set({ v_availability: variant.v_availability === 'unavailable' ? 'to_order' : 'unavailable' })
          .where('v_id', '=', variant.v_id)
          .execute(),
    ],
    [
      'attribute value',
      () => db.updateTable('attribute_values').set({ av_string: 'Úplne nová hodnota' }).where('av_id', '=', product.av_id).execute(),
    ],
    ['a discount (on sale)', () => db.updateTable('variants').set({ v_sale: 15 }).where('v_id', '=', offSale.v_id).execute()],
    ['the discount ended (off sale)', () => db.updateTable('variants').set({ v_sale: 0 }).where('v_id', '=', offSale.v_id).execute()],
    [
      'a second discount on a product on sale',
      () => db.updateTable('variants').set({ v_sale: 10 }).where('v_id', '=', onSale.v_id).execute(),
    ],
    ['category move', () => db.updateTable('products').set({ cat_id: otherCategory.cat_id }).where('p_id', '=', product.p_id).execute()],
    [
      'new product',
      async () => {
        const { p_id } = await db
          .insertInto('products')
          .values({
            p_url: newUrl,
            p_name: 'Nový produkt',
            p_name_sort: 'novy produkt',
            b_id: brand.b_id,
            cat_id: otherCategory.cat_id,
            p_created_at: new Date().toISOString(),
          })
          .returning('p_id')
          .executeTakeFirstOrThrow();
        await db
          .insertInto('variants')
          .values({
            p_id,
            v_code: `${newUrl}-1`.toUpperCase(),
            v_name: 'Nový',
            v_sell_price: 12_345,
            v_unit: 'ks',
            v_base_amount: null,
            v_base_unit: null,
          })
          .execute();
        await db
          .insertInto('attribute_values')
          .values({ p_id, attr_id: attribute.attr_id, av_string: 'Hodnota nového', av_integer: null })
          .execute();
      },
    ],
    [
      'removed product',
      async () => {
        const removed = await db.selectFrom('products').select('p_id').where('p_url', '=', newUrl).executeTakeFirstOrThrow();
        await db.deleteFrom('attribute_values').where('p_id', '=', removed.p_id).execute();
        await db.deleteFrom('variants').where('p_id', '=', removed.p_id).execute();
        await db.deleteFrom('products').where('p_id', '=', removed.p_id).execute();
      },
    ],
  ];
  return { catIds: [product.cat_id, otherCategory.cat_id], changes, productId: product.p_id, productCatId: product.cat_id };
}
