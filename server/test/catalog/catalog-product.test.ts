import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged, ProductDetail, ProductSummary } from '@shop/shared-kernel/contract';
import { salePercent, unitPriceBeforeSale, unitPriceWithVat } from '@shop/shared-kernel/rules';
import { lowestPriceBefore } from '../../src/domains/catalog/products/repository/price-history.ts';
import { startTestApi } from '../helpers/test-api.ts';
import { CatalogRepository } from '../../src/domains/catalog/products/repository/catalog.repository.ts';
import { catalogChanged } from '../../src/infra/cache/catalog-version.ts';
import type { TestApi } from '../helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

const DAY = 86_400_000;
const detail = async (url: string) => {
  const res = await api.get<{ data: ProductDetail }>(`/api/product/${url}`);
  expect(res.status, url).toBe(200);
  return res.body.data;
};

describe('lowest price of the 30 days before a discount', () => {
  const now = Date.parse('2025-06-30T12:00:00Z');
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString();

  it('takes every price in force during the 30 days before the discount started', () => {
    const rows = [
      { ph_price: 9000, ph_from: at(200) },
      { ph_price: 10000, ph_from: at(90) },
      { ph_price: 9500, ph_from: at(30) },
      { ph_price: 10000, ph_from: at(22) },
      { ph_price: 8000, ph_from: at(10) },
    ];
    // The discount started 10 days ago: the window is 40 to 10 days ago (10000, 9500, 10000).
    expect(lowestPriceBefore(rows, 8000, 10000, now)).toBe(9500);
    // Prices that ended before the window do not count.
    expect(
      lowestPriceBefore(
        rows.filter((r) => r.ph_price !== 9500),
        8000,
        10000,
        now,
      ),
    ).toBe(10000);
  });

  it('falls back to the price before the sale without history, and uses now when the history is stale', () => {
    expect(lowestPriceBefore([], 8000, 10000, now)).toBe(10000);
    expect(lowestPriceBefore([{ ph_price: 9900, ph_from: at(100) }], 8000, 10000, now)).toBe(9900);
  });
});

describe('product detail: 30-day lowest prices, accessories, related products', () => {
  it('gives the 30-day lowest price of every discounted variant, from the seeded history', async () => {
    const sale = await api.get<Paged<ProductSummary>>('/api/products?sale=1');
    expect(sale.body.data.length).toBe(15);
    for (const tile of sale.body.data) {
      const d = await detail(tile.p_url);
      // The tile's "od" price is the cheapest purchasable variant's, discounted or not; its badge the deepest discount.
      const purchasable = d.variants.filter((v) => v.v_availability !== 'unavailable');
      expect(unitPriceWithVat(tile.variant)).toBe(Math.min(...purchasable.map((v) => unitPriceWithVat(v))));
      expect(tile.saleUpTo).toBe(Math.max(...d.variants.map((v) => salePercent(v))));
      expect(tile.saleUpTo).toBeGreaterThan(0);
      const discounted = d.variants.filter((v) => v.v_sale > 0);
      expect(d.lowestPrices.map((l) => l.v_id).sort()).toEqual(discounted.map((v) => v.v_id).sort());
      for (const l of d.lowestPrices) {
        const v = d.variants.find((x) => x.v_id === l.v_id)!;
        // Lowest of the month before the sale: above the sale price, at most a little under the regular one.
        expect(l.price).toBeGreaterThan(unitPriceWithVat(v));
        expect(l.price).toBeLessThanOrEqual(unitPriceBeforeSale(v));
        expect(l.price % 10).toBe(0);
      }
      expect(tile.lowestPrice30).toBe(d.lowestPrices.find((l) => l.v_id === tile.variant.v_id)?.price ?? null);
    }
    const plain = await api.get<Paged<ProductSummary>>('/api/products?category=naradie');
    for (const tile of plain.body.data) if (tile.variant.v_sale === 0) expect(tile.lowestPrice30).toBeNull();
  });

  it('keeps a price history: a price change is recorded and moves the listing price', async () => {
    const d = await detail('tehla-porotherm-30-profi');
    const v = d.variants[0]!;
    const before = await api.db.selectFrom('price_history').select(['ph_price']).where('v_id', '=', v.v_id).execute();
    // A price change as the back office makes it: it tells the catalog's caches.
    await api.db.updateTable('variants').set({ v_sale: 20_000 }).where('v_id', '=', v.v_id).execute();
    catalogChanged();
    const after = await api.db
      .selectFrom('price_history')
      .select(['ph_price', 'ph_from'])
      .where('v_id', '=', v.v_id)
      .orderBy('ph_from')
      .execute();
    expect(after).toHaveLength(before.length + 1);
    const discounted = unitPriceWithVat({ ...v, v_sale: 20_000 });
    expect(after.at(-1)!.ph_price).toBe(discounted);
    expect(Date.now() - Date.parse(after.at(-1)!.ph_from)).toBeLessThan(60_000);
    const again = await detail('tehla-porotherm-30-profi');
    expect(again.lowestPrices.find((l) => l.v_id === v.v_id)?.price).toBeGreaterThan(discounted);
    const product = await api.db
      .selectFrom('products')
      .select(['p_price', 'p_sale_price'])
      .where('p_id', '=', d.p_id)
      .executeTakeFirstOrThrow();
    expect(product.p_sale_price).toBe(discounted);
    // A stock-only change records nothing.
    await api.db.updateTable('variants').set({ v_stock: 7 }).where('v_id', '=', v.v_id).execute();
    catalogChanged();
    const unchanged = await api.db.selectFrom('price_history').select('ph_id').where('v_id', '=', v.v_id).execute();
    expect(unchanged).toHaveLength(after.length);
  });

  it('lists required accessories and components with their variant data', async () => {
    const chimney = await detail('kominovy-system-schiedel-rondo-plus-14-cm');
    expect(chimney.accessories.length).toBe(2);
    for (const a of chimney.accessories) {
      expect(a.kind).toBe('required');
      expect(a.amount).toBe(1);
      expect(a.variant.p_url).not.toBe(chimney.p_url);
      expect(a.variant.v_sellPrice).toBeGreaterThan(0);
    }
    const window = await detail('stresne-okno-velux-gll-1064-b');
    expect(window.accessories.map((a) => [a.kind, a.variant.p_name])).toEqual([
      ['component', 'Lemovanie Velux EDW 0000 pre profilovanú krytinu'],
    ]);
    const brick = await detail('tehla-porotherm-30-profi');
    expect(brick.accessories).toEqual([]);
  });

  it('gives the product with every one of its variants in order, its brand and its description', async () => {
    const products = await api.db
      .selectFrom('products')
      .select(['p_id', 'p_url', 'p_description', 'b_id', 'p_variant_count'])
      .orderBy('p_variant_count', 'desc')
      .orderBy('p_id')
      .limit(3)
      .execute();
    expect(products[0]!.p_variant_count).toBeGreaterThan(1);
    for (const product of products) {
      const d = await detail(product.p_url);
      const variants = await api.db
        .selectFrom('variants')
        .select(['v_id', 'v_name', 'v_sell_price'])
        .where('p_id', '=', product.p_id)
        .orderBy('v_id')
        .execute();
      expect(d.variants.map(({ v_id, v_name, v_sellPrice }) => ({ v_id, v_name, v_sell_price: v_sellPrice }))).toEqual(variants);
      expect(d.variants.every((v) => v.p_id === product.p_id && v.p_url === product.p_url)).toBe(true);
      expect(d.p_description).toBe(product.p_description);
      expect(d.brand?.b_id ?? null).toBe(product.b_id);
    }
  });

  it('answers a product without variants (one being prepared) with its page and no variants', async () => {
    const brick = await detail('tehla-porotherm-30-profi');
    const url = 'pripravovany-produkt-bez-variantov';
    const { p_id } = await api.db
      .insertInto('products')
      .values({
        p_url: url,
        p_name: 'Pripravovaný produkt',
        p_name_sort: 'pripravovany produkt',
        cat_id: (await api.db.selectFrom('products').select('cat_id').where('p_id', '=', brick.p_id).executeTakeFirstOrThrow()).cat_id,
        b_id: null,
        p_created_at: new Date().toISOString(),
      })
      .returning('p_id')
      .executeTakeFirstOrThrow();
    try {
      const d = await detail(url);
      expect(d.p_id).toBe(p_id);
      expect(d.variants).toEqual([]);
      expect(d.brand).toBeNull();
      expect(d.related.length).toBe(4);
    } finally {
      await api.db.deleteFrom('products').where('p_id', '=', p_id).execute();
      catalogChanged();
    }
  });

  it('suggests related products of the same category, never the product itself', async () => {
    const d = await detail('tehla-porotherm-30-profi');
    expect(d.related.length).toBe(4);
    expect(d.related.some((p) => p.p_id === d.p_id)).toBe(false);
    expect(new Set(d.related.map((p) => p.p_id)).size).toBe(4);
    const leaf = d.breadcrumbs.at(-1)!.url;
    for (const p of d.related) {
      const r = await detail(p.p_url);
      expect(r.breadcrumbs.map((b) => b.url)).toContain(leaf);
    }
  });

  it('fills the related products from the parent category when the product category has too few, most popular first', async () => {
    const ranked = (catIds: number[]) =>
      api.db
        .selectFrom('products')
        .select(['p_id', 'p_url'])
        .where('cat_id', 'in', catIds)
        .where('p_price', 'is not', null)
        .orderBy('p_popularity', 'desc')
        .orderBy('p_id')
        .execute();
    // A category with two to four listed products, under a parent with more; made its parent's most popular, so that the parent's part must skip them and still fill four.
    const tree = await new CatalogRepository(api.db).categoryTree();
    const category = (
      await Promise.all(
        tree
          .all()
          .filter((c) => c.cat_parent_id !== null)
          .map(async (c) => ({ c, own: await ranked([c.cat_id]), parent: await ranked(tree.subtreeIds(c.cat_parent_id!)) })),
      )
    ).find(({ own, parent }) => own.length >= 2 && own.length <= 4 && parent.length >= 6)!;
    const popularity = await api.db
      .selectFrom('products')
      .select(['p_id', 'p_popularity'])
      .where('cat_id', '=', category.c.cat_id)
      .execute();
    await api.db
      .updateTable('products')
      .set((eb) => ({ p_popularity: eb('p_popularity', '+', 1_000_000) }))
      .where('cat_id', '=', category.c.cat_id)
      .execute();
    catalogChanged();
    const own = await ranked([category.c.cat_id]);
    const product = own[0]!;
    const expected = [
      ...new Set(
        [...own, ...(await ranked(tree.subtreeIds(category.c.cat_parent_id!)))].map((row) => row.p_id).filter((id) => id !== product.p_id),
      ),
    ].slice(0, 4);
    expect(expected.length).toBe(4);
    expect((await detail(product.p_url)).related.map((p) => p.p_id)).toEqual(expected);
    for (const row of popularity)
      await api.db.updateTable('products').set({ p_popularity: row.p_popularity }).where('p_id', '=', row.p_id).execute();
    catalogChanged();
  });
});
