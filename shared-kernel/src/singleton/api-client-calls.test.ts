/**
 * The kernel's API client call by call: each shop and operator call of the contract goes out with
 * its method, path, query and body, path segments encoded; a request's own headers; and /ops calls
 * carry only the operator's session cookie, their 401 never signing the shopper out.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client.ts';
import { createFakeFetch, type FakeFetch } from '../testing/fake-fetch.ts';

let fake: FakeFetch;

beforeEach(() => {
  fake = createFakeFetch();
});

describe('createApiClient: typed calls', () => {
  const client = () => createApiClient({ fetch: fake });

  it.each([
    [
      'logout',
      (c: ReturnType<typeof client>) => c.call('POST /api/account/logout', { body: { authHash: 'h4sh' } }),
      'POST',
      '/api/account/logout',
      {},
      { authHash: 'h4sh' },
    ],
    [
      'validateCoupon',
      (c: ReturnType<typeof client>) => c.call('POST /api/coupon/validate', { body: { code: 'JAR10', cart: [], total: 1000, userId: 7 } }),
      'POST',
      '/api/coupon/validate',
      {},
      { code: 'JAR10', cart: [], total: 1000, userId: 7 },
    ],
    [
      'deactivateCoupon',
      (c: ReturnType<typeof client>) => c.call('POST /api/coupon/deactive', { query: { userId: 7 } }),
      'POST',
      '/api/coupon/deactive',
      { userId: '7' },
      {},
    ],
    [
      'activeCoupon',
      (c: ReturnType<typeof client>) => c.call('GET /api/coupon/active', { query: { user_id: 7 } }),
      'GET',
      '/api/coupon/active',
      { user_id: '7' },
      undefined,
    ],
    [
      'variantDetail',
      (c: ReturnType<typeof client>) => c.call('POST /api/product/variant/detail', { body: { v_id: 42 } }),
      'POST',
      '/api/product/variant/detail',
      {},
      { v_id: 42 },
    ],
    ['menu', (c: ReturnType<typeof client>) => c.call('GET /api/menu'), 'GET', '/api/menu', {}, undefined],
    ['site', (c: ReturnType<typeof client>) => c.call('GET /api/site'), 'GET', '/api/site', {}, undefined],
    ['redirectList', (c: ReturnType<typeof client>) => c.call('GET /api/redirect/list'), 'GET', '/api/redirect/list', {}, undefined],
    [
      'redirectFor',
      (c: ReturnType<typeof client>) => c.call('GET /api/redirect', { query: { path: '/stara-cesta' } }),
      'GET',
      '/api/redirect',
      { path: '/stara-cesta' },
      undefined,
    ],
    [
      'login',
      (c: ReturnType<typeof client>) => c.call('POST /api/account/login', { body: { email: 'jan@example.sk', password: 'heslo' } }),
      'POST',
      '/api/account/login',
      {},
      { email: 'jan@example.sk', password: 'heslo' },
    ],
    ['me', (c: ReturnType<typeof client>) => c.call('GET /api/account/me'), 'GET', '/api/account/me', {}, undefined],
    ['home', (c: ReturnType<typeof client>) => c.call('GET /api/home'), 'GET', '/api/home', {}, undefined],
    [
      'category',
      (c: ReturnType<typeof client>) => c.call('GET /api/category/:url', { params: { url: 'suche-zmesi' } }),
      'GET',
      '/api/category/suche-zmesi',
      {},
      undefined,
    ],
    [
      'products',
      (c: ReturnType<typeof client>) => c.call('GET /api/products', { query: { category: 'cement', page: 2, sort: 'price-asc' } }),
      'GET',
      '/api/products',
      { category: 'cement', page: '2', sort: 'price-asc' },
      undefined,
    ],
    [
      'product',
      (c: ReturnType<typeof client>) => c.call('GET /api/product/:url', { params: { url: 'cement-cem-ii' } }),
      'GET',
      '/api/product/cement-cem-ii',
      {},
      undefined,
    ],
    [
      'page',
      (c: ReturnType<typeof client>) => c.call('GET /api/page/:slug', { params: { slug: 'kontakt' } }),
      'GET',
      '/api/page/kontakt',
      {},
      undefined,
    ],
  ] as const)('%s → %s %s', async (_name, call, method, path, query, body) => {
    fake.on(`${method} ${path}`, { body: { data: null } });
    await expect(call(client())).resolves.toEqual({ data: null });
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toMatchObject({ method, path, query, body });
  });

  it('encodes path segments', async () => {
    await client()
      .call('GET /api/category/:url', { params: { url: 'a/b c' } })
      .catch(() => undefined);
    expect(fake.calls[0]?.url).toBe('/api/category/a%2Fb%20c');
  });
});

describe('createApiClient: extra headers and the operator', () => {
  it('adds the headers of one request', async () => {
    fake.on('GET /api/account/me', { body: {} });
    await createApiClient({ fetch: fake, isSignedIn: () => true }).call('GET /api/account/me', { headers: { 'X-Trace': '1' } });
    expect(fake.calls[0]?.headers).toMatchObject({ 'X-Trace': '1' });
    expect(fake.calls[0]?.credentials).toBe('same-origin');
  });

  it("/ops: only the operator's session cookie goes (same origin), never the shopper's token, and a 401 there does not sign the shopper out", async () => {
    fake.on('GET /api/ops/releases', { status: 401, body: { error: { code: 'unauthorized', message: 'Prihláste sa ako operátor.' } } });
    const onUnauthorized = vi.fn();
    const seen: RequestInit[] = [];
    const recording = ((input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(init ?? {});
      return fake(input, init);
    }) as typeof fetch;
    const client = createApiClient({ fetch: recording, isSignedIn: () => true, onUnauthorized });
    await expect(client.call('GET /api/ops/releases')).rejects.toMatchObject({ status: 401, message: 'Prihláste sa ako operátor.' });
    expect(fake.calls[0]?.headers.Authorization).toBeUndefined();
    expect(seen[0]).toMatchObject({ credentials: 'same-origin', cache: 'no-store' });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it.each([
    [
      'opsRelease',
      (c: ReturnType<typeof createApiClient>) =>
        c.call('POST /api/ops/releases/:part/rollback', { params: { part: 'catalog' }, body: { version: '1.2.0' } }),
      'POST',
      '/api/ops/releases/catalog/rollback',
      { version: '1.2.0' },
    ],
    [
      'opsSignIn',
      (c: ReturnType<typeof createApiClient>) => c.call('POST /api/ops/session', { body: { name: 'jana', password: 'heslo-operatora' } }),
      'POST',
      '/api/ops/session',
      { name: 'jana', password: 'heslo-operatora' },
    ],
    ['opsSession', (c: ReturnType<typeof createApiClient>) => c.call('GET /api/ops/session'), 'GET', '/api/ops/session', undefined],
    ['opsSignOut', (c: ReturnType<typeof createApiClient>) => c.call('DELETE /api/ops/session'), 'DELETE', '/api/ops/session', {}],
    [
      'operatorStoreInvoice',
      (c: ReturnType<typeof createApiClient>) => c.call('POST /api/operator/orders/:number/invoice', { params: { number: '2026000001' } }),
      'POST',
      '/api/operator/orders/2026000001/invoice',
      {},
    ],
    [
      'operatorEmail',
      (c: ReturnType<typeof createApiClient>) => c.call('GET /api/operator/orders/:number/email', { params: { number: '2026000001' } }),
      'GET',
      '/api/operator/orders/2026000001/email',
      undefined,
    ],
    [
      'operatorSendEmail',
      (c: ReturnType<typeof createApiClient>) => c.call('POST /api/operator/orders/:number/email', { params: { number: '2026000001' } }),
      'POST',
      '/api/operator/orders/2026000001/email',
      {},
    ],
    [
      'operatorMarkPaid',
      (c: ReturnType<typeof createApiClient>) => c.call('POST /api/operator/orders/:number/paid', { params: { number: '2026000001' } }),
      'POST',
      '/api/operator/orders/2026000001/paid',
      {},
    ],
    [
      'operatorInvoice',
      (c: ReturnType<typeof createApiClient>) =>
        c.download('GET /api/operator/orders/:number/invoice', { params: { number: '2026000001' } }),
      'GET',
      '/api/operator/orders/2026000001/invoice',
      undefined,
    ],
  ] as const)('%s → %s %s', async (_name, call, method, path, body) => {
    fake.on(`${method} ${path}`, { body: { data: null } });
    await call(createApiClient({ fetch: fake }));
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toMatchObject({ method, path, body });
  });
});
