import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import type {
  AccountOrderDetail,
  Paged,
  PlacedOrder,
  ProductSummary,
  RedirectEntry,
  User,
  VariantData,
} from '@shop/shared-kernel/contract';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';
import { courierOrder } from '../helpers/checkout-contact.ts';

/** A secret a buggy handler or repository might hand back together with the answer. */
const LEAK = { password_hash: 'scrypt$secret', internalNote: 'nie pre zákazníka' };

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({
    // Every answer object gets fields its schema does not name, as a careless query (select *) would add them.
    configure: (app) =>
      app.addHook('preSerialization', async (request, _reply, payload: unknown) => {
        if (request.headers['x-test-leak'] !== '1' || typeof payload !== 'object' || payload === null) return payload;
        const data = (payload as { data?: unknown }).data;
        const rows = Array.isArray(data) ? data : [data];
        for (const row of rows) if (typeof row === 'object' && row !== null) Object.assign(row, LEAK);
        return { ...payload, ...LEAK };
      }),
  });
});
afterAll(async () => {
  await api?.close();
});

describe('the contract', () => {
  it("a field outside an answer's schema does not leave the server", async () => {
    const product = await api.db
      .selectFrom('products')
      .select('p_url')
      .where('p_price', 'is not', null)
      .orderBy('p_popularity', 'desc')
      .orderBy('p_id')
      .executeTakeFirstOrThrow();
    const brand = await api.db.selectFrom('brands').select('b_url').orderBy('b_id').executeTakeFirstOrThrow();
    const post = await api.db.selectFrom('blog_posts').select('slug').orderBy('post_id').executeTakeFirstOrThrow();
    const page = await api.db.selectFrom('pages').select('slug').orderBy('page_id').executeTakeFirstOrThrow();
    const paths = [
      '/api/redirect/list',
      '/api/menu',
      '/api/site',
      '/api/home',
      '/api/category/hruba-stavba',
      '/api/products?category=hruba-stavba&sort=price-asc',
      '/api/products/facets?category=hruba-stavba',
      `/api/product/${product.p_url}`,
      `/api/brand/${brand.b_url}`,
      '/api/search?q=tehla',
      '/api/search/suggest?q=tehla',
      '/api/blog',
      '/api/blog/tags',
      `/api/blog/post/${post.slug}`,
      `/api/page/${page.slug}`,
    ];
    for (const path of paths) {
      const res = await api.request('GET', path, { headers: { 'x-test-leak': '1' } });
      expect(res.status, path).toBe(200);
      expect(res.text, path).not.toContain('password_hash');
      expect(res.text, path).not.toContain('internalNote');
    }
    const list = await api.request<{ data: RedirectEntry[] }>('GET', '/api/redirect/list', { headers: { 'x-test-leak': '1' } });
    expect(list.body.data.length).toBeGreaterThan(0);
    for (const entry of list.body.data) expect(Object.keys(entry).sort()).toEqual(['new_url', 'old_url']);

    const tiles = await api.request<Paged<ProductSummary>>('GET', '/api/products?sale=1', { headers: { 'x-test-leak': '1' } });
    expect(tiles.body.data.length).toBeGreaterThan(0);
    for (const tile of tiles.body.data) {
      expect(Object.keys(tile).sort()).toEqual([
        'brand',
        'lowestPrice30',
        'p_id',
        'p_image',
        'p_name',
        'p_url',
        'saleUpTo',
        'variant',
        'variantCount',
      ]);
    }
    const variantId = tiles.body.data[0]!.variant.v_id;
    const variant = await api.request<{ data: VariantData }>('POST', '/api/product/variant/detail', {
      json: { v_id: variantId },
      headers: { 'x-test-leak': '1' },
    });
    expect(variant.status).toBe(200);
    expect(variant.text).not.toContain('password_hash');
    expect(variant.body.data.v_id).toBe(variantId);
  });

  it("a signed-in shopper's answers built from user and order rows carry no field outside their schema", async () => {
    const { token } = await api.login();
    const variant = await api.db
      .selectFrom('variants')
      .select('v_id')
      .where('v_availability', '=', 'in_stock')
      .where('v_stock', '>=', 10)
      .orderBy('v_id')
      .executeTakeFirstOrThrow();
    const placed = await api.post<{ data: PlacedOrder }>('/api/orders', courierOrder(variant.v_id), token);
    expect(placed.status).toBe(201);
    const orderToken = placed.body.data.order.token;
    const paths = [
      '/api/account/me',
      '/api/account/profile',
      '/api/account/orders',
      `/api/account/orders/${orderToken}`,
      // The thank-you page's order (its token is the capability) and the checkout's own answers.
      `/api/orders/${orderToken}`,
      '/api/checkout/methods',
      '/api/pickup-points?q=Bratislava',
      '/api/account/addresses',
      '/api/account/checkout-prefill',
      '/api/account/complaints',
      '/api/loyalty',
      '/api/coupon/active',
    ];
    for (const path of paths) {
      const res = await api.request('GET', path, { token, headers: { 'x-test-leak': '1' } });
      expect(res.status, path).toBe(200);
      expect(res.text, path).not.toContain('password_hash');
      expect(res.text, path).not.toContain('internalNote');
    }
    const me = await api.request<{ data: User }>('GET', '/api/account/me', { token, headers: { 'x-test-leak': '1' } });
    expect(Object.keys(me.body.data).sort()).toEqual(['email', 'id', 'name']);
    const detail = await api.request<{ data: AccountOrderDetail }>('GET', `/api/account/orders/${orderToken}`, {
      token,
      headers: { 'x-test-leak': '1' },
    });
    expect(detail.body.data.token).toBe(orderToken);
    expect(detail.body.data.lines[0]!.itemId).toBeGreaterThan(0);
  });

  it('/api/openapi.json is a valid OpenAPI 3 document that names every call of the contract', async () => {
    const res = await api.get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const document = res.body as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toMatch(/^3\./);
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(Object.keys(document.paths['/api/redirect'] ?? {})).toContain('get');
    const lookup = document.paths['/api/redirect']!.get as { parameters: { name: string; in: string; required?: boolean }[] };
    expect(lookup.parameters).toContainEqual(expect.objectContaining({ name: 'path', in: 'query', required: true }));
  });

  it("the OpenAPI document shows a listing's attribute filters and names its shared shapes", async () => {
    const document = (await api.get('/api/openapi.json')).body as {
      paths: Record<string, { get?: { parameters: { name: string; in: string; schema: { patternProperties?: object } }[] } }>;
      components: { schemas: Record<string, unknown> };
    };
    for (const path of ['/api/products', '/api/products/facets']) {
      const filters = document.paths[path]!.get!.parameters.find((p) => p.name === 'filters');
      expect(filters?.in).toBe('query');
      expect(Object.keys(filters?.schema.patternProperties ?? {}).join(' ')).toMatch(/f.*r|r.*f/);
    }
    expect(Object.keys(document.components.schemas)).toContain('CategoryNode');
    expect(Object.keys(document.components.schemas).filter((name) => name.startsWith('def-'))).toEqual([]);
  });
});
