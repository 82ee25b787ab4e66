/**
 * Bounded work per catalogue request: too many filters, values or brands are refused in
 * milliseconds with a Slovak 400, the limits themselves are answered, unknown attributes cost
 * nothing, and a request at the limit does not keep another shopper waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTING_LIMITS } from '../src/routes/catalog/limits.ts';
import { expectErrorShape, startTestApi, type TestApi } from './helpers/test-api.ts';

let api: TestApi;
let attrIds: number[];
beforeAll(async () => {
  api = await startTestApi({ responseCache: false });
  attrIds = (await api.db.selectFrom('attributes').select('attr_id').where('use_attr', '=', 1).orderBy('attr_id').execute()).map((r) => r.attr_id);
});
afterAll(async () => {
  await api?.close();
});

const timed = async (path: string) => {
  const started = performance.now();
  const res = await api.get(path);
  return { ...res, ms: performance.now() - started };
};

describe('catalogue request limits', () => {
  it.each(['/api/products/facets', '/api/products'])('1,200 attribute filters on %s: 400 in milliseconds', async (path) => {
    const query = Array.from({ length: 1200 }, (_, i) => `f${i + 1}=a`).join('&');
    const res = await timed(`${path}?category=hruba-stavba&${query}`);
    expect(res.status).toBe(400);
    expectErrorShape(res.body, 'validation_failed');
    expect(res.body.error.message).toMatch(/príliš veľa/i);
    expect(res.ms).toBeLessThan(1000);
  });

  it('one attribute filter more than the limit, one value more, one brand more: 400 with a Slovak message', async () => {
    const filters = Array.from({ length: LISTING_LIMITS.attributeFilters + 1 }, (_, i) => `f${i + 1}=a`).join('&');
    const over = await api.get(`/api/products?${filters}`);
    expect(over.status).toBe(400);
    expect(over.body.error.message).toBe(`Príliš veľa filtrov naraz (najviac ${LISTING_LIMITS.attributeFilters}). Zrušte niektoré filtre.`);

    const values = Array.from({ length: LISTING_LIMITS.valuesPerFilter + 1 }, (_, i) => `v${i}`).join('|');
    const tooManyValues = await api.get(`/api/products/facets?f${attrIds[0]}=${encodeURIComponent(values)}`);
    expect(tooManyValues.status).toBe(400);
    expect(tooManyValues.body.error.message).toMatch(/Príliš veľa hodnôt jedného filtra/);

    const brands = Array.from({ length: LISTING_LIMITS.brands + 1 }, (_, i) => `znacka-${i}`).join('|');
    const tooManyBrands = await api.get(`/api/products?brands=${encodeURIComponent(brands)}`);
    expect(tooManyBrands.status).toBe(400);
    expect(tooManyBrands.body.error.message).toMatch(/Príliš veľa značiek/);
  });

  it('the limits themselves are answered, and unknown attributes are ignored', async () => {
    const known = attrIds.slice(0, 5).map((id) => `f${id}=${encodeURIComponent(Array.from({ length: LISTING_LIMITS.valuesPerFilter }, (_, i) => `h${i}`).join('|'))}`);
    const unknown = Array.from({ length: LISTING_LIMITS.attributeFilters - known.length }, (_, i) => `r${900_000 + i}=1-2`);
    const query = [...known, ...unknown].join('&');
    const list = await api.get(`/api/products?${query}`);
    expect(list.status).toBe(200);
    expect(list.body.meta.total).toBe(0); // values nobody has
    const facets = await api.get(`/api/products/facets?${query}`);
    expect(facets.status).toBe(200);
    // Unknown attribute ids change nothing: the same answer as without them.
    const plain = await api.get('/api/products?category=hruba-stavba');
    const withUnknown = await api.get(`/api/products?category=hruba-stavba&${unknown.join('&')}`);
    expect(withUnknown.body.meta.total).toBe(plain.body.meta.total);
  });

  it('while a request at the limit runs, another shopper is answered', async () => {
    const filters = attrIds.slice(0, LISTING_LIMITS.attributeFilters).map((id) => `r${id}=0-1000000`).join('&');
    const [heavy, other] = await Promise.all([timed(`/api/products/facets?${filters}`), timed('/api/home')]);
    expect(heavy.status).toBe(200);
    expect(other.status).toBe(200);
    expect(other.ms).toBeLessThan(2000);
  });
});
