import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListingFacets, Paged, ProductDetail, ProductSummary } from '@shop/shared-kernel/contract';
import { unitPriceWithVat } from '@shop/shared-kernel/rules';
import { expectErrorShape, startTestApi } from '../helpers/test-api.ts';
import type { TestApi } from '../helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

async function listing(query: string) {
  const res = await api.get<Paged<ProductSummary>>(`/api/products?${query}`);
  expect(res.status, query).toBe(200);
  return res.body;
}

async function allPages(query: string): Promise<ProductSummary[]> {
  const out: ProductSummary[] = [];
  for (let page = 1; ; page++) {
    const body = await listing(`${query}&page=${page}`);
    out.push(...body.data);
    if (page >= body.meta.pageCount) return out;
  }
}

async function facets(query: string): Promise<ListingFacets> {
  const res = await api.get<{ data: ListingFacets }>(`/api/products/facets?${query}`);
  expect(res.status, query).toBe(200);
  return res.body.data;
}

const detail = async (url: string) => (await api.get<{ data: ProductDetail }>(`/api/product/${url}`)).body.data;
const enc = encodeURIComponent;

describe('listing filters (GET /api/products)', () => {
  it('filters by brands, several joined with |, and counts them in the brand facet', async () => {
    const both = await allPages(`category=izolacie&brands=${enc('isover|rockwool')}`);
    expect(both.length).toBeGreaterThan(0);
    for (const p of both) expect(['isover', 'rockwool']).toContain(p.brand?.b_url);
    const f = await facets(`category=izolacie&brands=${enc('isover|rockwool')}`);
    const count = (b: string) => f.brands.find((x) => x.value === b)?.count ?? 0;
    // Disjunctive: the brand facet ignores its own filter, so other brands keep their counts.
    expect(count('austrotherm')).toBeGreaterThan(0);
    expect(count('isover') + count('rockwool')).toBe(both.length);
    const all = await listing('category=izolacie');
    expect(f.brands.reduce((sum, b) => sum + b.count, 0)).toBeLessThanOrEqual(all.meta.total);
  });

  it('filters by the price with VAT the tile shows, in euros, inclusive', async () => {
    const items = await allPages('category=hruba-stavba&price=2-5');
    expect(items.length).toBeGreaterThan(0);
    for (const p of items) {
      const price = unitPriceWithVat(p.variant);
      expect(price).toBeGreaterThanOrEqual(2000);
      expect(price).toBeLessThanOrEqual(5000);
    }
    const open = await listing('category=hruba-stavba&price=100-');
    const openItems = await allPages('category=hruba-stavba&price=100-');
    expect(open.meta.total).toBe(openItems.length);
    for (const p of openItems) expect(unitPriceWithVat(p.variant)).toBeGreaterThanOrEqual(100_000);
    const none = await listing('category=hruba-stavba&price=0-0,01');
    expect(none.meta.total).toBe(0);
    const f = await facets('category=hruba-stavba&price=2-5');
    // The price facet shows the whole range of the other filters.
    expect(f.price!.min).toBeLessThan(2000);
    expect(f.price!.max).toBeGreaterThan(5000);
  });

  it('filters by availability: a variant of the product has it', async () => {
    const items = await allPages('category=strechy&avail=unavailable');
    expect(items.length).toBeGreaterThan(0);
    for (const p of items) {
      const d = await detail(p.p_url);
      expect(d.variants.some((v) => v.v_availability === 'unavailable')).toBe(true);
    }
    const f = await facets('category=strechy&avail=unavailable');
    expect(f.availability.find((a) => a.value === 'unavailable')?.count).toBe(items.length);
    expect(f.availability.map((a) => a.label)).toContain('Skladom');
  });

  it('filters by a string attribute (use_attr = 1), values joined with |, with counts', async () => {
    const f = await facets('category=izolacie');
    const material = f.attributes.find((a) => a.attr_name === 'Materiál');
    expect(material?.kind).toBe('values');
    if (material?.kind !== 'values') throw new Error('no material facet');
    const [first, second] = material.values;
    expect(first && second).toBeTruthy();
    const one = await allPages(`category=izolacie&f${material.attr_id}=${enc(first!.value)}`);
    expect(one.length).toBe(first!.count);
    const two = await listing(`category=izolacie&f${material.attr_id}=${enc(`${first!.value}|${second!.value}`)}`);
    expect(two.meta.total).toBe(first!.count + second!.count);
    for (const p of one) {
      const d = await detail(p.p_url);
      const values = d.attributes.find((a) => a.attr_id === material.attr_id)!.attributeValues.map((v) => v.av_string);
      expect(values).toContain(first!.value);
    }
    // Hidden attributes (use_attr = 0) are never facets.
    const hidden = await api.db.selectFrom('attributes').select('attr_id').where('use_attr', '=', 0).execute();
    expect(hidden.length).toBeGreaterThan(0);
    for (const h of hidden) expect(f.attributes.some((a) => a.attr_id === h.attr_id)).toBe(false);
  });

  it('filters by a numeric attribute as a range in its unit (values in thousandths)', async () => {
    const f = await facets('category=tepelne-izolacie');
    const thickness = f.attributes.find((a) => a.attr_name === 'Hrúbka');
    if (thickness?.kind !== 'range') throw new Error('no thickness range');
    expect(thickness.unit_name).toBe('mm');
    expect(thickness.min).toBeLessThan(thickness.max);
    const items = await allPages(`category=tepelne-izolacie&r${thickness.attr_id}=100-150`);
    expect(items.length).toBeGreaterThan(0);
    for (const p of items) {
      const d = await detail(p.p_url);
      const v = d.attributes.find((a) => a.attr_id === thickness.attr_id)!.attributeValues[0]!.av_integer!;
      expect(v).toBeGreaterThanOrEqual(100_000);
      expect(v).toBeLessThanOrEqual(150_000);
    }
    // Its own range does not narrow its bounds; other facets count only the matching products.
    const narrowed = await facets(`category=tepelne-izolacie&r${thickness.attr_id}=100-150`);
    const again = narrowed.attributes.find((a) => a.attr_id === thickness.attr_id);
    expect(again).toMatchObject({ min: thickness.min, max: thickness.max });
    const brandTotal = narrowed.brands.reduce((sum, b) => sum + b.count, 0);
    expect(brandTotal).toBeLessThanOrEqual(items.length);
  });

  it('combines filters with sorting and keeps the order across pages', async () => {
    const items = await allPages(`category=hruba-stavba&price=1-&avail=${enc('in_stock|to_order')}&sort=price-desc`);
    const prices = items.map((p) => unitPriceWithVat(p.variant));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    const byName = await allPages('sale=1&sort=name');
    expect(byName.length).toBeGreaterThan(15);
    for (const p of byName) expect(p.saleUpTo).toBeGreaterThan(0);
  });

  it('brand and sale listings take the same filters and facets', async () => {
    const f = await facets('brand=knauf');
    expect(f.brands.map((b) => b.value)).toEqual(['knauf']);
    const saleFacets = await facets('sale=1');
    const saleTotal = (await listing('sale=1')).meta.total;
    // Unbranded products count in no brand.
    const branded = saleFacets.brands.reduce((sum, b) => sum + b.count, 0);
    expect(branded).toBeGreaterThan(0);
    expect(branded).toBeLessThanOrEqual(saleTotal);
    const cheap = await allPages(`sale=1&price=-${saleFacets.price!.min / 1000 + 5}`);
    for (const p of cheap) expect(unitPriceWithVat(p.variant)).toBeLessThanOrEqual(saleFacets.price!.min + 5000);
  });
});

describe('pagination edges', () => {
  it('15 a page; the last page holds the rest; one past the last is empty with the same meta', async () => {
    const first = await listing('category=hruba-stavba');
    const { total, pageCount } = first.meta;
    expect(pageCount).toBe(Math.ceil(total / 15));
    const last = await listing(`category=hruba-stavba&page=${pageCount}`);
    expect(last.data).toHaveLength(total - (pageCount - 1) * 15);
    const beyond = await listing(`category=hruba-stavba&page=${pageCount + 1}`);
    expect(beyond.data).toEqual([]);
    expect(beyond.meta).toEqual({ ...first.meta, page: pageCount + 1 });
  });

  it('an empty listing is one empty page', async () => {
    const empty = await listing('category=hruba-stavba&price=999999-');
    expect(empty.data).toEqual([]);
    expect(empty.meta).toEqual({ page: 1, pageSize: 15, total: 0, pageCount: 1 });
  });

  it('rejects malformed filters with 400', async () => {
    for (const q of ['price=abc', 'price=1-2-3', 'avail=sometimes', 'brands=Knauf!', 'r1=a-b']) {
      const res = await api.get(`/api/products?${q}`);
      expect(res.status, q).toBe(400);
      expectErrorShape(res.body, 'validation_failed');
    }
    const unknownCategory = await api.get('/api/products/facets?category=neexistuje');
    expect(unknownCategory.status).toBe(404);
  });
});
