import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BASKET_LIMITS,
  type CategoryDetail,
  type HomeData,
  type Paged,
  type ProductDetail,
  type ProductSummary,
  type VariantData,
} from '@shop/shared-kernel/contract';
import { unitPriceWithVat } from '@shop/shared-kernel/rules';
import { expectErrorShape, priceWithVat, startTestApi } from '../helpers/test-api.ts';
import type { TestApi } from '../helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

const VARIANT_KEYS = [
  'p_id',
  'p_image',
  'p_name',
  'p_url',
  'v_availability',
  'v_baseAmount',
  'v_baseUnit',
  'v_code',
  'v_id',
  'v_name',
  'v_sale',
  'v_sellPrice',
  'v_stock',
  'v_unit',
  'v_vat',
  'v_weight',
].sort();

function checkVariant(v: VariantData) {
  expect(Object.keys(v).sort()).toEqual(VARIANT_KEYS);
  expect(Number.isInteger(v.v_sellPrice)).toBe(true);
  expect(['in_stock', 'to_order', 'unavailable']).toContain(v.v_availability);
  expect(v.p_image).toBe(`/media/p/${v.p_id}.png`);
}

async function allPages(query: string): Promise<ProductSummary[]> {
  const out: ProductSummary[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get<Paged<ProductSummary>>(`/api/products?${query}&page=${page}`);
    expect(res.status).toBe(200);
    out.push(...res.body.data);
    if (page >= res.body.meta.pageCount) return out;
  }
}

describe('variant detail (POST /api/product/variant/detail)', () => {
  it('answers the variant data', async () => {
    const row = await api.db
      .selectFrom('variants')
      .select(['v_id', 'v_sell_price', 'v_base_amount'])
      .where('v_base_unit', '=', 'kg')
      .executeTakeFirstOrThrow();
    const res = await api.post<{ data: VariantData }>('/api/product/variant/detail', { v_id: row.v_id });
    expect(res.status).toBe(200);
    checkVariant(res.body.data);
    expect(res.body.data.v_id).toBe(row.v_id);
    expect(res.body.data.v_sellPrice).toBe(row.v_sell_price);
    expect(res.body.data.v_baseAmount).toBe(row.v_base_amount);
    expect(res.body.data.v_baseUnit).toBe('kg');
  });

  it('404 for an unknown variant', async () => {
    const res = await api.post('/api/product/variant/detail', { v_id: 987654 });
    expect(res.status).toBe(404);
    expectErrorShape(res.body, 'not_found');
  });

  it('400 for a bad body', async () => {
    for (const body of [{}, { v_id: 'abc' }, { v_id: -1 }, { v_id: 1.5 }, []]) {
      const res = await api.post('/api/product/variant/detail', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expectErrorShape(res.body, 'validation_failed');
    }
  });
});

describe("a basket's variants (GET /api/product/variants)", () => {
  it('answers the variants that exist, in the order asked, in one call', async () => {
    const rows = await api.db.selectFrom('variants').select(['v_id', 'v_sell_price']).orderBy('v_id').limit(2).execute();
    const [first, second] = rows as [(typeof rows)[number], (typeof rows)[number]];
    const res = await api.get<{ data: VariantData[] }>(`/api/product/variants?ids=${second.v_id},987654,${first.v_id},${second.v_id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((variant) => variant.v_id)).toEqual([second.v_id, first.v_id]);
    res.body.data.forEach(checkVariant);
    expect(res.body.data[1]!.v_sellPrice).toBe(first.v_sell_price);
  });

  it('400 for a list that is not ids, or longer than a basket may be', async () => {
    const tooMany = Array.from({ length: BASKET_LIMITS.lines + 1 }, (_, i) => i + 1).join(',');
    for (const ids of ['', 'abc', '1,,2', '0', '-1', '1.5', '12345678901', tooMany]) {
      const res = await api.get(`/api/product/variants?ids=${ids}`);
      expect(res.status, ids.slice(0, 20)).toBe(400);
      expectErrorShape(res.body, 'validation_failed');
    }
    const none = await api.get('/api/product/variants?ids=2147483648');
    expect(none.status).toBe(200);
    expect((none.body as { data: unknown[] }).data).toEqual([]);
  });
});

describe('categories and listings', () => {
  it('GET /api/category/:url gives breadcrumbs from the root and children', async () => {
    const res = await api.get<{ data: CategoryDetail }>('/api/category/tepelne-izolacie');
    expect(res.status).toBe(200);
    const c = res.body.data;
    expect(c.cat_name).toBe('Tepelné izolácie');
    expect(c.breadcrumbs).toEqual([
      { name: 'Izolácie', url: '/c/izolacie' },
      { name: 'Tepelné izolácie', url: '/c/tepelne-izolacie' },
    ]);
    expect(c.children.map((ch) => ch.cat_url)).toEqual(['mineralna-vlna', 'polystyren', 'extrudovany-polystyren']);
    const missing = await api.get('/api/category/neexistuje');
    expect(missing.status).toBe(404);
    expectErrorShape(missing.body, 'not_found');
  });

  it('lists 15 a page with meta, including products of subcategories', async () => {
    const res = await api.get<Paged<ProductSummary>>('/api/products?category=hruba-stavba');
    expect(res.status).toBe(200);
    const { data, meta } = res.body;
    expect(data).toHaveLength(15);
    expect(meta.page).toBe(1);
    expect(meta.pageSize).toBe(15);
    expect(meta.pageCount).toBe(Math.ceil(meta.total / 15));

    const tree = await api.db.selectFrom('categories').select(['cat_id', 'cat_parent_id', 'cat_url']).execute();
    const root = tree.find((c) => c.cat_url === 'hruba-stavba')!;
    const ids = new Set([root.cat_id]);
    for (let grew = true; grew;) {
      grew = false;
      for (const c of tree) {
        if (c.cat_parent_id !== null && ids.has(c.cat_parent_id) && !ids.has(c.cat_id)) {
          ids.add(c.cat_id);
          grew = true;
        }
      }
    }
    const expected = await api.db
      .selectFrom('products')
      .select('p_id')
      .where('cat_id', 'in', [...ids])
      .execute();
    expect(meta.total).toBe(expected.length);
    expect(meta.total).toBeGreaterThan(15);

    for (const p of data) {
      checkVariant(p.variant);
      expect(p.variant.p_id).toBe(p.p_id);
      expect(p.variantCount).toBeGreaterThanOrEqual(1);
      expect(p.p_image).toBe(`/media/p/${p.p_id}.png`);
    }
    const everything = await allPages('category=hruba-stavba');
    expect(new Set(everything.map((p) => p.p_id)).size).toBe(meta.total);
  });

  it('shows the cheapest available variant on the tile', async () => {
    const page = await allPages('category=tehly');
    for (const tile of page) {
      const detail = await api.get<{ data: ProductDetail }>(`/api/product/${tile.p_url}`);
      const variants = detail.body.data.variants;
      const available = variants.filter((v) => v.v_availability !== 'unavailable');
      const pool = available.length > 0 ? available : variants;
      const cheapest = Math.min(...pool.map(priceWithVat));
      expect(priceWithVat(tile.variant)).toBe(cheapest);
      expect(tile.variantCount).toBe(variants.length);
    }
  });

  it('sorts by price with VAT, both ways, across pages', async () => {
    // By the price the tile shows: with VAT after sale, rounded to whole cents (requirements R9.4).
    const asc = await allPages('category=izolacie&sort=price-asc');
    const prices = asc.map((p) => unitPriceWithVat(p.variant));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(prices[0]).toBeLessThan(prices[prices.length - 1]!);
    const desc = await allPages('category=izolacie&sort=price-desc');
    const descPrices = desc.map((p) => unitPriceWithVat(p.variant));
    expect(descPrices).toEqual([...descPrices].sort((a, b) => b - a));
  });

  it('sorts by name and by newest', async () => {
    const byName = await allPages('category=strechy&sort=name');
    const fold = (s: string) =>
      s
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase();
    const names = byName.map((p) => fold(p.p_name));
    expect(names).toEqual([...names].sort());
    const newest = await allPages('category=strechy&sort=newest');
    const rows = await api.db
      .selectFrom('products')
      .select(['p_id', 'p_created_at'])
      .where(
        'p_id',
        'in',
        newest.map((p) => p.p_id),
      )
      .execute();
    const created = new Map(rows.map((r) => [r.p_id, r.p_created_at]));
    const dates = newest.map((p) => created.get(p.p_id)!);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('a page beyond the last is empty with the right meta', async () => {
    const first = await api.get<Paged<ProductSummary>>('/api/products?category=tehly');
    const beyond = first.body.meta.pageCount + 1;
    const res = await api.get<Paged<ProductSummary>>(`/api/products?category=tehly&page=${beyond}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toEqual({ ...first.body.meta, page: beyond });
  });

  it('filters by brand and by sale', async () => {
    const knauf = await allPages('brand=knauf');
    expect(knauf.length).toBeGreaterThan(0);
    for (const p of knauf) expect(p.brand?.b_url).toBe('knauf');
    const sale = await allPages('sale=1');
    expect(sale.length).toBeGreaterThan(15);
    for (const p of sale) expect(p.saleUpTo).toBeGreaterThan(0);
    const missingBrand = await api.get('/api/products?brand=neexistuje');
    expect(missingBrand.status).toBe(404);
  });

  it('rejects bad listing queries with 400', async () => {
    for (const q of ['sort=cheap', 'page=0', 'page=abc', 'sale=2']) {
      const res = await api.get(`/api/products?${q}`);
      expect(res.status, q).toBe(400);
      expectErrorShape(res.body, 'validation_failed');
    }
  });
});

describe('product detail and home', () => {
  it('GET /api/product/:url gives variants, attributes with units and breadcrumbs', async () => {
    const res = await api.get<{ data: ProductDetail }>('/api/product/tehla-porotherm-30-profi');
    expect(res.status).toBe(200);
    const p = res.body.data;
    expect(p.p_name).toBe('Tehla Porotherm 30 Profi');
    expect(p.brand).toEqual({ b_id: expect.any(Number), b_url: 'porotherm', b_name: 'Porotherm' });
    expect(p.breadcrumbs.map((b) => b.url)).toEqual(['/c/hruba-stavba', '/c/murivo', '/c/tehly']);
    expect(p.p_images).toEqual([`/media/p/${p.p_id}.png`]);
    expect(p.variants.length).toBe(2);
    p.variants.forEach(checkVariant);
    const width = p.attributes.find((a) => a.attr_name === 'Šírka')!;
    expect(width).toMatchObject({ use_attr: 1, units: { unit_name: 'mm' }, attributeValues: [{ av_string: null, av_integer: 300_000 }] });
    const material = p.attributes.find((a) => a.attr_name === 'Materiál')!;
    expect(material).toMatchObject({ use_attr: 1, units: null, attributeValues: [{ av_string: 'pálená hlina', av_integer: null }] });
    expect(p.attributes.some((a) => a.use_attr === 0)).toBe(true);

    const missing = await api.get('/api/product/neexistuje');
    expect(missing.status).toBe(404);
    expectErrorShape(missing.body, 'not_found');
  });

  it('GET /api/home gives top categories, 8 sale, 8 newest and brands', async () => {
    const res = await api.get<{ data: HomeData }>('/api/home');
    expect(res.status).toBe(200);
    const home = res.body.data;
    expect(home.categories.length).toBeGreaterThanOrEqual(8);
    expect(home.sale).toHaveLength(8);
    for (const p of home.sale) expect(p.saleUpTo).toBeGreaterThan(0);
    expect(home.newest).toHaveLength(8);
    expect(home.brands.length).toBeGreaterThanOrEqual(12);
  });
});

describe('GET /api/brand/:url', () => {
  it('answers a brand by its URL and 404 for an unknown one', async () => {
    const home = await api.get<{ data: HomeData }>('/api/home');
    const brand = home.body.data.brands[0]!;
    const found = await api.get<{ data: { b_id: number; b_url: string; b_name: string } }>(`/api/brand/${brand.b_url}`);
    expect(found.status).toBe(200);
    expect(found.body.data).toEqual(brand);
    const missing = await api.get('/api/brand/neexistuje');
    expect(missing.status).toBe(404);
    expectErrorShape(missing.body, 'not_found');
  });
});
