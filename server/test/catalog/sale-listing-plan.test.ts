/**
 * The sale listing is read in SQL (not from the listing index): each sort's page must come from
 * an index in that sort's order, never from sorting every sale product. SQLite's plans only; on
 * PostgreSQL the test database is too small for its planner to prefer an index.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductSort } from '@shop/shared-kernel/contract';
import { listingPageInSql, listingPageQuery } from '../../src/domains/catalog/products/repository/catalog.repository.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';
import { PRODUCT_SORTS } from '../../src/domains/catalog/products/repository/listing-order.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ responseCache: false });
});
afterAll(async () => {
  await api?.close();
});

describe('the sale listing', () => {
  it.skipIf(Boolean(process.env.DATABASE_URL))(
    'reads a page of every sort from an index in that order, on the first page and deep',
    async () => {
      for (const sort of PRODUCT_SORTS) {
        for (const offset of [0, 48]) {
          const query = listingPageQuery(api.db, { saleOnly: true }, sort, { limit: 24, offset }).compile();
          const plan = (await api.db.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}` })).rows.map(
            (row) => row.detail,
          );
          expect(plan.join(' | '), `${sort} from ${offset}`).toMatch(/USING (COVERING )?INDEX products_sale_order_\w+_idx/);
          expect(plan.join(' | '), `${sort} from ${offset}: no sort of every sale product`).not.toMatch(/TEMP B-TREE/);
        }
      }
    },
  );

  it('lists every sale product once over its pages, by popularity and price in order with ties by id', async () => {
    const products = await api.db
      .selectFrom('products')
      .select(['p_id', 'p_popularity', 'p_price', 'p_name_sort', 'p_created_at'])
      .where('p_sale_price', 'is not', null)
      .where('p_price', 'is not', null)
      .execute();
    expect(products.length, 'the seed has sale products').toBeGreaterThan(3);
    type Row = (typeof products)[number];
    // The numeric orders checked here; names and dates compare by the database's collation.
    const by: Partial<Record<ProductSort, (a: Row, b: Row) => number>> = {
      popular: (a, b) => b.p_popularity - a.p_popularity || a.p_id - b.p_id,
      'price-asc': (a, b) => a.p_price! - b.p_price! || a.p_id - b.p_id,
      'price-desc': (a, b) => b.p_price! - a.p_price! || a.p_id - b.p_id,
    };
    for (const sort of PRODUCT_SORTS) {
      const ids: number[] = [];
      for (let offset = 0; offset < products.length; offset += 3) {
        const page = await listingPageInSql(api.db, { saleOnly: true }, sort, { limit: 3, offset });
        expect(page.total).toBe(products.length);
        ids.push(...page.ids);
      }
      expect(
        [...ids].sort((a, b) => a - b),
        `${sort}: every sale product once`,
      ).toEqual(products.map((product) => product.p_id).sort((a, b) => a - b));
      const order = by[sort];
      if (order) expect(ids, sort).toEqual([...products].sort(order).map((product) => product.p_id));
    }
  });

  it('counts on a rule the triggers keep: a product with a sale price has a price, whatever happens to its variants', async () => {
    const saleWithoutPrice = () =>
      api.db
        .selectFrom('products')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('p_sale_price', 'is not', null)
        .where('p_price', 'is', null)
        .executeTakeFirstOrThrow();
    expect(Number((await saleWithoutPrice()).n)).toBe(0);
    const product = await api.db
      .selectFrom('products')
      .select('p_id')
      .where('p_sale_price', 'is not', null)
      .orderBy('p_id')
      .executeTakeFirstOrThrow();
    const variants = await api.db.selectFrom('variants').selectAll().where('p_id', '=', product.p_id).orderBy('v_id').execute();
    const prices = () =>
      api.db.selectFrom('products').select(['p_price', 'p_sale_price']).where('p_id', '=', product.p_id).executeTakeFirstOrThrow();
    try {
      // Every variant unavailable: still priced (and on sale), as the trigger's representative order keeps them.
      await api.db.updateTable('variants').set({ v_availability: 'unavailable' }).where('p_id', '=', product.p_id).execute();
      expect(Number((await saleWithoutPrice()).n)).toBe(0);
      // No discount left: off the sale, still priced.
      await api.db.updateTable('variants').set({ v_sale: 0 }).where('p_id', '=', product.p_id).execute();
      expect(await prices()).toMatchObject({ p_sale_price: null });
      expect((await prices()).p_price).not.toBeNull();
      // No variants at all: neither.
      await api.db.deleteFrom('variants').where('p_id', '=', product.p_id).execute();
      expect(await prices()).toEqual({ p_price: null, p_sale_price: null });
    } finally {
      await api.db.deleteFrom('variants').where('p_id', '=', product.p_id).execute();
      await api.db.insertInto('variants').values(variants).execute();
    }
    expect((await prices()).p_sale_price).not.toBeNull();
    expect(Number((await saleWithoutPrice()).n)).toBe(0);
  });
});
