/**
 * The public catalog's response cache: hits are byte for byte the answers computed
 * fresh, writes in this process (an order reserving stock, a price change) show at once, answers
 * to requests with credentials and error answers are never kept, and only the catalog is cached.
 * Real HTTP against a real database (SQLite, or PostgreSQL with DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged, ProductDetail, ProductSummary } from '@shop/shared-kernel/contract';
import { CatalogChanges, catalogChanged, catalogVersion, inCatalogTransaction } from '../../src/infra/cache/catalog-version.ts';
import { cacheKey, ResponseCache } from '../../src/infra/cache/response-cache.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';
import { courierOrder } from '../helpers/checkout-contact.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

const raw = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${api.baseUrl}${path}`, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
};

describe('the public catalog response cache', () => {
  it('answers a repeated call from the cache, byte for byte the answer computed fresh, with public caching headers', async () => {
    const paths = [
      '/api/home',
      '/api/category/tehly',
      '/api/brand/knauf',
      '/api/products?category=tehly&page=2',
      '/api/products/facets?category=tehly',
      '/api/product/tehla-porotherm-30-profi',
      '/api/search?q=tehla',
      '/api/search/suggest?q=sadrok',
    ];
    for (const path of paths) {
      const first = await raw(path);
      const second = await raw(path);
      // A request with credentials is always computed: the reference answer.
      const computed = await raw(path, { authorization: 'Bearer not-checked-by-the-catalog' });
      expect(first.status, path).toBe(200);
      expect(first.headers.get('x-cache'), path).toBe('MISS');
      expect(second.headers.get('x-cache'), path).toBe('HIT');
      expect(computed.headers.get('x-cache'), path).toBe('BYPASS');
      expect(second.bytes.equals(first.bytes), path).toBe(true);
      expect(computed.bytes.equals(first.bytes), path).toBe(true);
      expect(second.headers.get('content-type'), path).toBe(first.headers.get('content-type'));
      expect(first.headers.get('cache-control'), path).toBe('public, max-age=10');
      expect(second.headers.get('cache-control'), path).toBe('public, max-age=10');
      expect(Number(second.headers.get('age')), path).toBeLessThanOrEqual(10);
    }
  });

  it('keys by the normalised URL: the order of query parameters does not matter', async () => {
    const a = await raw('/api/products?sort=name&category=izolacie&page=2');
    const b = await raw('/api/products?page=2&category=izolacie&sort=name');
    expect(a.headers.get('x-cache')).toBe('MISS');
    expect(b.headers.get('x-cache')).toBe('HIT');
    expect(b.bytes.equals(a.bytes)).toBe(true);
    expect(cacheKey('/api/products?sort=name&category=izolacie&page=2')).toBe('/api/products?category=izolacie&page=2&sort=name');
    expect(cacheKey('/api/search?q=farba%20biela')).toBe(cacheKey('/api/search?q=farba+biela'));
  });

  it('never keeps answers to requests with credentials, and marks them private', async () => {
    const path = '/api/products?category=mineralna-vlna&sort=newest';
    const withToken = await raw(path, { authorization: 'Bearer x' });
    expect(withToken.headers.get('x-cache')).toBe('BYPASS');
    expect(withToken.headers.get('cache-control')).toBe('private, max-age=10');
    // Nothing was stored by it: the first anonymous request is still a miss.
    expect((await raw(path)).headers.get('x-cache')).toBe('MISS');
    // A browser's cookies (consent choices) are not credentials: the API never reads them.
    expect((await raw(path, { cookie: 'cookie_required=true; cookie_ga=false' })).headers.get('x-cache')).toBe('HIT');
    // And a signed-in shopper never gets a stored answer either.
    expect((await raw(path, { authorization: 'Bearer x' })).headers.get('x-cache')).toBe('BYPASS');
  });

  it('treats the session cookie as credentials: never stored, never answered from the cache, private', async () => {
    const path = '/api/products?category=mineralna-vlna&sort=price-asc';
    const cookie = 'cookie_required=true; shop_session=any.session.token';
    const withCookie = await raw(path, { cookie });
    expect(withCookie.headers.get('x-cache')).toBe('BYPASS');
    expect(withCookie.headers.get('cache-control')).toBe('private, max-age=10');
    // Nothing was stored by it: the first anonymous request is still a miss.
    expect((await raw(path)).headers.get('x-cache')).toBe('MISS');
    expect((await raw(path, { cookie })).headers.get('x-cache')).toBe('BYPASS');
  });

  it('never keeps error answers', async () => {
    for (const path of ['/api/product/neexistujuci-produkt', '/api/products?category=neexistuje', '/api/search?q=']) {
      const first = await raw(path);
      const second = await raw(path);
      expect(first.status, path).toBeGreaterThanOrEqual(400);
      expect(second.status, path).toBe(first.status);
      expect(second.headers.get('x-cache'), path).toBeNull();
      expect(second.headers.get('cache-control'), path).toBeNull();
    }
  });

  it('caches only the catalog: content, orders and the account are untouched', async () => {
    for (const path of ['/api/site', '/api/menu', '/api/checkout/methods', '/api/account/me', `/api/orders/${'x'.repeat(32)}`]) {
      await raw(path);
      expect((await raw(path)).headers.get('x-cache'), path).toBeNull();
    }
  });

  it('computes concurrent identical misses once; the others get that answer', async () => {
    const path = '/api/products?category=hruba-stavba&sort=price-desc&page=3';
    const answers = await Promise.all(Array.from({ length: 6 }, () => raw(path)));
    expect(answers.map((a) => a.headers.get('x-cache')).filter((c) => c === 'MISS')).toHaveLength(1);
    for (const answer of answers) expect(answer.bytes.equals(answers[0]!.bytes)).toBe(true);
  });

  it('shows the stock an order has just reserved at once, and keeps every answer that does not show the ordered product', async () => {
    const variant = await api.db
      .selectFrom('variants as v')
      .innerJoin('products as p', 'p.p_id', 'v.p_id')
      .select(['v.v_id', 'v.v_stock', 'p.p_url', 'p.cat_id'])
      .where('v.v_availability', '=', 'in_stock')
      .where('v.v_stock', '>=', 10)
      .where('v.v_weight', '<=', 2_000)
      .where('v.v_weight', '>', 0)
      .orderBy('v.v_id')
      .executeTakeFirstOrThrow();
    const detailPath = `/api/product/${variant.p_url}`;
    const stockShown = async () => {
      const res = await api.get<{ data: ProductDetail }>(detailPath);
      return { cache: res.headers.get('x-cache'), stock: res.body.data.variants.find((v) => v.v_id === variant.v_id)!.v_stock };
    };
    await stockShown();
    expect(await stockShown()).toEqual({ cache: 'HIT', stock: variant.v_stock });
    const other = await api.db
      .selectFrom('products')
      .select('p_url')
      .where('cat_id', '!=', variant.cat_id)
      .orderBy('p_id')
      .executeTakeFirstOrThrow();
    const untouched = [`/api/product/${other.p_url}`, '/api/products/facets?category=tehly', '/api/category/tehly'];
    for (const path of untouched) await raw(path);

    expect((await api.post('/api/orders', courierOrder(variant.v_id, 3))).status).toBe(201);
    for (const path of untouched) expect({ path, cache: (await raw(path)).headers.get('x-cache') }).toEqual({ path, cache: 'HIT' });
    expect(await stockShown()).toEqual({ cache: 'MISS', stock: variant.v_stock - 3 });
    expect(await stockShown()).toEqual({ cache: 'HIT', stock: variant.v_stock - 3 });
  });

  it('shows a price change at once, in the listing and the product', async () => {
    // A product with one variant: its tile shows that variant whatever the price.
    const single = await api.db
      .selectFrom('variants as v')
      .innerJoin('products as p', 'p.p_id', 'v.p_id')
      .innerJoin('categories as c', 'c.cat_id', 'p.cat_id')
      .select((eb) => ['p.p_id', 'p.p_url', 'c.cat_url', eb.fn.min('v.v_id').as('v_id'), eb.fn.countAll<number>().as('n')])
      .where('v.v_availability', '!=', 'unavailable')
      .groupBy(['p.p_id', 'p.p_url', 'c.cat_url'])
      .having((eb) => eb.fn.countAll(), '=', 1)
      .orderBy('p.p_id')
      .executeTakeFirstOrThrow();
    const listing = `/api/products?category=${single.cat_url}&sort=name`;
    const tileOf = async () => {
      for (let page = 1; ; page++) {
        const res = await api.get<Paged<ProductSummary>>(`${listing}&page=${page}`);
        const tile = res.body.data.find((p) => p.p_id === single.p_id);
        if (tile || page >= res.body.meta.pageCount) return { cache: res.headers.get('x-cache'), price: tile?.variant.v_sellPrice };
      }
    };
    const before = await tileOf();
    expect((await tileOf()).cache).toBe('HIT');
    // A price change, as the shop's back office makes it: it tells the catalog.
    await api.db
      .updateTable('variants')
      .set({ v_sell_price: before.price! + 1_000 })
      .where('v_id', '=', Number(single.v_id))
      .execute();
    catalogChanged();
    expect(await tileOf()).toEqual({ cache: 'MISS', price: before.price! + 1_000 });
    const detail = await api.get<{ data: ProductDetail }>(`/api/product/${single.p_url}`);
    expect(detail.body.data.variants.find((v) => v.v_id === Number(single.v_id))!.v_sellPrice).toBe(before.price! + 1_000);
  });

  it('does not cache with the cache switched off, and still sends the public Cache-Control', async () => {
    const off = await startTestApi({ responseCache: false });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${off.baseUrl}/api/products?category=tehly`);
        await res.arrayBuffer();
        expect(res.headers.get('x-cache')).toBe('MISS');
        expect(res.headers.get('cache-control')).toBe('public, max-age=10');
      }
    } finally {
      await off.close();
    }
  });
});

describe('the catalog version (told by the code that changes the catalog)', () => {
  const anyVariant = async () => await api.db.selectFrom('variants').select(['v_id', 'v_stock']).orderBy('v_id').executeTakeFirstOrThrow();

  it('does not move on reads or on writes that do not change the catalog', async () => {
    const before = catalogVersion();
    await api.get('/api/products?category=tehly&sort=price-asc');
    const message = await api.post('/api/contact', { name: 'Test', email: 't@example.sk', message: 'Dobrý deň, máte na sklade tehly?' });
    expect(message.status).toBe(201);
    expect(catalogVersion()).toBe(before);
  });

  it('inCatalogTransaction moves it once the transaction has committed, not before, and also after a failure', async () => {
    const v = await anyVariant();
    const before = catalogVersion();
    await inCatalogTransaction(api.db, async (trx) => {
      await trx
        .updateTable('variants')
        .set({ v_stock: v.v_stock + 1 })
        .where('v_id', '=', v.v_id)
        .execute();
      // Other connections still read the old stock: nothing may be cached as the new version yet.
      expect(catalogVersion()).toBe(before);
    });
    expect(catalogVersion()).toBeGreaterThan(before);

    const committed = catalogVersion();
    await expect(
      inCatalogTransaction(api.db, async (trx) => {
        await trx
          .updateTable('variants')
          .set({ v_stock: v.v_stock + 100 })
          .where('v_id', '=', v.v_id)
          .execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(catalogVersion()).toBeGreaterThan(committed);
    expect((await anyVariant()).v_stock).toBe(v.v_stock + 1);
    await inCatalogTransaction(api.db, (trx) =>
      trx.updateTable('variants').set({ v_stock: v.v_stock }).where('v_id', '=', v.v_id).execute(),
    );
  });
});

describe('ResponseCache', () => {
  const body = (n: number) => Buffer.alloc(n, 1);
  /** An answer showing these products, as the catalog's JSON names them. */
  const json = (ids: number[]) => Buffer.from(JSON.stringify({ data: ids.map((p_id) => ({ p_id, variant: { v_id: p_id * 10 } })) }));
  const type = 'application/json; charset=utf-8';

  it('serves an answer for its time to live, then computes again', () => {
    let now = 1_000;
    const cache = new ResponseCache({ ttlMs: 10_000, maxEntries: 10, maxBytes: 1_000 }, new CatalogChanges(), () => now);
    cache.set('/a', body(10), type, 0);
    now += 9_999;
    expect(cache.get('/a')?.body.length).toBe(10);
    now += 1;
    expect(cache.get('/a')).toBeUndefined();
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, entries: 0, bytes: 0 });
  });

  it('drops everything when the whole catalog changes, and refuses answers computed before', () => {
    const changes = new CatalogChanges();
    const cache = new ResponseCache({ ttlMs: 10_000, maxEntries: 10, maxBytes: 1_000 }, changes);
    const before = cache.point();
    cache.set('/a', json([1]), type, before);
    changes.record({ kind: 'all' });
    expect(cache.get('/a')).toBeUndefined();
    // Computed while the catalog changed: stale on arrival.
    expect(cache.set('/b', json([1]), type, before)).toBeUndefined();
    expect(cache.get('/b')).toBeUndefined();
    cache.set('/c', json([1]), type, cache.point());
    expect(cache.get('/c')).toBeDefined();
  });

  it('a change of some products drops only the answers showing them, and refuses those computed before it', () => {
    const changes = new CatalogChanges();
    const cache = new ResponseCache({ ttlMs: 10_000, maxEntries: 10, maxBytes: 10_000 }, changes);
    const before = cache.point();
    cache.set('/api/product/a', json([7]), type, before);
    cache.set('/api/products?page=1', json([7, 8, 9]), type, before);
    cache.set('/api/products?page=2', json([10, 11]), type, before);
    cache.set('/api/facets', Buffer.from('{"brands":[{"b_id":7,"n":3}]}'), type, before);
    changes.record({ kind: 'products', ids: [7] });
    expect(cache.get('/api/product/a')).toBeUndefined();
    expect(cache.get('/api/products?page=1')).toBeUndefined();
    expect(cache.get('/api/products?page=2')).toBeDefined();
    // Counts and names do not depend on stock amounts: a b_id 7 is not a product.
    expect(cache.get('/api/facets')).toBeDefined();
    // An answer showing product 7, computed before the change, is refused; one without it is kept.
    expect(cache.set('/api/products?page=3', json([3, 7]), type, before)).toBeUndefined();
    expect(cache.set('/api/products?page=4', json([3, 4]), type, before)).toBeDefined();
    changes.record({ kind: 'products', ids: [] });
    expect(cache.get('/api/products?page=4')).toBeDefined();
  });

  it('takes a forgotten stretch of the change log as a change of everything', () => {
    const changes = new CatalogChanges(3);
    const cache = new ResponseCache({ ttlMs: 10_000, maxEntries: 10, maxBytes: 10_000 }, changes);
    const before = cache.point();
    for (let id = 100; id < 105; id++) changes.record({ kind: 'products', ids: [id] });
    expect(changes.since(before)).toBe('all');
    expect(cache.set('/api/products?page=9', json([1]), type, before)).toBeUndefined();
  });

  it('is bounded in entries and bytes, evicting the least recently used first', () => {
    const cache = new ResponseCache({ ttlMs: 10_000, maxEntries: 3, maxBytes: 100 }, new CatalogChanges());
    cache.set('/a', body(10), type, 0);
    cache.set('/b', body(10), type, 0);
    cache.set('/c', body(10), type, 0);
    cache.get('/a');
    cache.set('/d', body(10), type, 0);
    expect(cache.get('/b')).toBeUndefined();
    expect(cache.get('/a')).toBeDefined();
    expect(cache.stats().entries).toBe(3);
    cache.set('/big', body(90), type, 0);
    expect(cache.stats().bytes).toBeLessThanOrEqual(100);
    expect(cache.get('/big')).toBeDefined();
    expect(cache.set('/huge', body(101), type, 0)).toBeUndefined();
    expect(cache.get('/huge')).toBeUndefined();
  });
});
