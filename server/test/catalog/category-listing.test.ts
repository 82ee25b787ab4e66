/**
 * A whole category's listing pages come from category_listing (migration category-listing), kept
 * by triggers: every page in every sort must equal the same listing ranked over `products`, and
 * the kept rows must equal each listed product under its category and every one above, after
 * every kind of change to products and to the category tree. Runs on SQLite and, with
 * DATABASE_URL, on PostgreSQL (its triggers differ).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogRepository, listingPageInSql } from '../../src/domains/catalog/products/repository/catalog.repository.ts';
import { CategoryTree } from '../../src/domains/catalog/products/repository/category-tree.ts';
import { comparedOn } from '../helpers/engine-sample.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';
import { PRODUCT_SORTS } from '../../src/domains/catalog/products/repository/listing-order.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ responseCache: false });
});
afterAll(async () => {
  await api?.close();
});

/** The tree as it is now (the repository keeps its copy per catalog version). */
async function tree(): Promise<CategoryTree> {
  const rows = await api.db
    .selectFrom('categories')
    .select(['cat_id', 'cat_parent_id', 'cat_url', 'cat_name', 'cat_description'])
    .orderBy('cat_position')
    .orderBy('cat_id')
    .execute();
  return new CategoryTree(rows);
}

/** What category_listing must hold: each listed product under its category and every one above. */
async function expectedRows(): Promise<string[]> {
  const current = await tree();
  const products = await api.db.selectFrom('products').selectAll().where('p_price', 'is not', null).execute();
  return products
    .flatMap((p) =>
      current.path(p.cat_id).map((c) => `${c.cat_id}:${p.p_id}:${p.p_popularity}:${p.p_price}:${p.p_name_sort}:${p.p_created_at}`),
    )
    .sort();
}

async function keptRows(): Promise<string[]> {
  const rows = await api.db.selectFrom('category_listing').selectAll().execute();
  return rows.map((r) => `${r.anc_cat_id}:${r.p_id}:${r.p_popularity}:${r.p_price}:${r.p_name_sort}:${r.p_created_at}`).sort();
}

/**
 * A page past the first of every category in every sort: kept against ranked over the products in
 * SQL; and the whole catalog's total (summed from the categories' kept counts) against its count.
 */
async function expectListingsEqual(label: string, round = 0) {
  expect(await keptRows(), `${label}: the kept rows`).toEqual(await expectedRows());
  const current = await tree();
  const catalog = new CatalogRepository(api.db);
  for (const [n, { cat_id }] of current.all().entries()) {
    if (!comparedOn(api, n, round)) continue;
    const categoryIds = current.subtreeIds(cat_id);
    for (const sort of PRODUCT_SORTS) {
      const page = { limit: 6, offset: 2 };
      const kept = await catalog.listProducts({ categoryId: cat_id, categoryIds }, sort, page);
      const ranked = await listingPageInSql(api.db, { categoryIds }, sort, page);
      expect(kept.total, `${label}: total of category ${cat_id}`).toBe(ranked.total);
      expect(
        kept.items.map((item) => item.p_id),
        `${label}: category ${cat_id}, ${sort}`,
      ).toEqual(ranked.ids);
    }
  }
  for (const sort of PRODUCT_SORTS) {
    const page = { limit: 6, offset: 2 };
    const whole = await catalog.listProducts({ saleOnly: false }, sort, page);
    const ranked = await listingPageInSql(api.db, { saleOnly: false }, sort, page);
    expect(whole.total, `${label}: the whole catalog's total`).toBe(ranked.total);
    expect(
      whole.items.map((item) => item.p_id),
      `${label}: the whole catalog, ${sort}`,
    ).toEqual(ranked.ids);
  }
}

describe('category listing kept per category', () => {
  it('answers every category page in every sort as ranked over the products, through the API too', async () => {
    await expectListingsEqual('as seeded');
    const leaf = (await tree()).all().find((c) => c.cat_parent_id !== null)!;
    const answer = await api.get(`/api/products?category=${leaf.cat_url}&sort=price-desc`);
    expect(answer.status).toBe(200);
    expect(answer.body.data.length).toBeGreaterThan(0);
    const prices = answer.body.data.map((item: { p_id: number }) => item.p_id);
    const ranked = await listingPageInSql(api.db, { categoryIds: (await tree()).subtreeIds(leaf.cat_id) }, 'price-desc', {
      limit: prices.length,
      offset: 0,
    });
    expect(prices).toEqual(ranked.ids);
  });

  // Fourteen changes, each checked over every category and sort: longer than the default limit on PostgreSQL.
  it('stays equal after every kind of change to the products and to the category tree', { timeout: 90_000 }, async () => {
    const current = await tree();
    const product = await api.db
      .selectFrom('products')
      .select(['p_id', 'cat_id'])
      .where('p_price', 'is not', null)
      .orderBy('p_id')
      .executeTakeFirstOrThrow();
    const roots = current.roots;
    const child = current
      .all()
      .find(
        (c) =>
          c.cat_parent_id !== null && current.subtreeIds(c.cat_id).length > 0 && current.path(c.cat_id)[0]!.cat_id === roots[0]!.cat_id,
      )!;
    const elsewhere = current.all().find((c) => current.path(c.cat_id)[0]!.cat_id !== roots[0]!.cat_id)!;
    const brand = await api.db.selectFrom('brands').select('b_id').orderBy('b_id').executeTakeFirstOrThrow();

    const changes: [string, () => Promise<unknown>][] = [
      [
        'a price',
        () =>
          api.db
            .updateTable('variants')
            .set((eb) => ({ v_sell_price: eb('v_sell_price', '*', 7) }))
            .where('p_id', '=', product.p_id)
            .execute(),
      ],
      ['popularity', () => api.db.updateTable('products').set({ p_popularity: 1_000_000 }).where('p_id', '=', product.p_id).execute()],
      ['a name', () => api.db.updateTable('products').set({ p_name_sort: 'aaaa prvy' }).where('p_id', '=', product.p_id).execute()],
      [
        'a creation time',
        () => api.db.updateTable('products').set({ p_created_at: '2000-01-01T00:00:00.000Z' }).where('p_id', '=', product.p_id).execute(),
      ],
      [
        'a product moved to another category',
        () => api.db.updateTable('products').set({ cat_id: elsewhere.cat_id }).where('p_id', '=', product.p_id).execute(),
      ],
      ['a product no longer listed (no variant)', () => api.db.deleteFrom('variants').where('p_id', '=', product.p_id).execute()],
      [
        'a new product',
        async () => {
          const { p_id } = await api.db
            .insertInto('products')
            .values({
              p_url: 'listing-test-novy',
              p_name: 'Nový produkt',
              p_name_sort: 'novy produkt',
              b_id: brand.b_id,
              cat_id: child.cat_id,
              p_created_at: new Date().toISOString(),
            })
            .returning('p_id')
            .executeTakeFirstOrThrow();
          await api.db
            .insertInto('variants')
            .values({
              p_id,
              v_code: 'LISTING-TEST-1',
              v_name: 'Nový',
              v_sell_price: 12_345,
              v_unit: 'ks',
              v_base_amount: null,
              v_base_unit: null,
            })
            .execute();
        },
      ],
      [
        'a category moved under another root',
        () =>
          api.db
            .updateTable('categories')
            .set({ cat_parent_id: roots[roots.length - 1]!.cat_id })
            .where('cat_id', '=', child.cat_id)
            .execute(),
      ],
      [
        'a category moved to the top',
        () => api.db.updateTable('categories').set({ cat_parent_id: null }).where('cat_id', '=', child.cat_id).execute(),
      ],
      [
        'a category moved back',
        () => api.db.updateTable('categories').set({ cat_parent_id: child.cat_parent_id }).where('cat_id', '=', child.cat_id).execute(),
      ],
      [
        'a new subcategory with a product',
        async () => {
          const { cat_id } = await api.db
            .insertInto('categories')
            .values({
              cat_url: 'listing-test-podkategoria',
              cat_name: 'Podkategória',
              cat_description: '',
              cat_parent_id: child.cat_id,
              cat_position: 99,
            })
            .returning('cat_id')
            .executeTakeFirstOrThrow();
          await api.db.updateTable('products').set({ cat_id }).where('p_url', '=', 'listing-test-novy').execute();
        },
      ],
      [
        'a removed product',
        async () => {
          const removed = await api.db
            .selectFrom('products')
            .select('p_id')
            .where('p_url', '=', 'listing-test-novy')
            .executeTakeFirstOrThrow();
          await api.db.deleteFrom('variants').where('p_id', '=', removed.p_id).execute();
          await api.db.deleteFrom('products').where('p_id', '=', removed.p_id).execute();
        },
      ],
      ['a removed category', () => api.db.deleteFrom('categories').where('cat_url', '=', 'listing-test-podkategoria').execute()],
      [
        'a removed category whose subcategory moves to the top',
        async () => {
          const { cat_id: upper } = await api.db
            .insertInto('categories')
            .values({
              cat_url: 'listing-test-horna',
              cat_name: 'Horná',
              cat_description: '',
              cat_parent_id: child.cat_id,
              cat_position: 98,
            })
            .returning('cat_id')
            .executeTakeFirstOrThrow();
          const { cat_id: lower } = await api.db
            .insertInto('categories')
            .values({ cat_url: 'listing-test-dolna', cat_name: 'Dolná', cat_description: '', cat_parent_id: upper, cat_position: 1 })
            .returning('cat_id')
            .executeTakeFirstOrThrow();
          const listed = await api.db
            .selectFrom('products')
            .select('p_id')
            .where('p_price', 'is not', null)
            .where('p_id', '!=', product.p_id)
            .orderBy('p_id', 'desc')
            .executeTakeFirstOrThrow();
          await api.db.updateTable('products').set({ cat_id: lower }).where('p_id', '=', listed.p_id).execute();
          await api.db.deleteFrom('categories').where('cat_id', '=', upper).execute();
        },
      ],
    ];
    for (const [round, [label, change]] of changes.entries()) {
      await change();
      await expectListingsEqual(label, round);
    }
  });
});
