import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api, buildQuery, configureApi, createApiClient } from './api-client.ts';
import { ApiError } from './errors.ts';
import { createFakeFetch, type FakeFetch } from './testing/fake-fetch.ts';

let fake: FakeFetch;

beforeEach(() => {
  fake = createFakeFetch();
});

describe('buildQuery', () => {
  it('skips null and undefined values', () => {
    expect(buildQuery({ a: 1, b: undefined, c: null, d: 'x y', e: false })).toBe('?a=1&d=x+y&e=false');
    expect(buildQuery({})).toBe('');
    expect(buildQuery(undefined)).toBe('');
  });
});

describe('createApiClient: requests', () => {
  it('GET sends the query and Accept, never an Authorization header of the shopper', async () => {
    fake.on('GET /api/things', { body: { data: [1, 2] } });
    const client = createApiClient({ fetch: fake });
    await expect(client.get('/api/things', { page: 2, sort: undefined })).resolves.toEqual({ data: [1, 2] });
    expect(fake.calls[0]).toMatchObject({
      method: 'GET',
      url: '/api/things?page=2',
      headers: { Accept: 'application/json' },
      body: undefined,
    });
    expect(fake.calls[0]?.headers.Authorization).toBeUndefined();
  });

  it('POST sends JSON with the session cookie (same origin) and no Authorization header', async () => {
    fake.on('POST /api/things', { body: { ok: true } });
    const client = createApiClient({ fetch: fake, isSignedIn: () => true });
    await client.post('/api/things', { a: 1 });
    expect(fake.calls[0]).toMatchObject({
      method: 'POST',
      body: { a: 1 },
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    });
    expect(fake.calls[0]?.headers.Authorization).toBeUndefined();
  });

  it('prefixes the base URL', async () => {
    fake.on('GET /api/menu', { body: { data: { categories: [], links: [] } } });
    const client = createApiClient({ fetch: fake, baseUrl: 'https://api.example.sk' });
    await client.menu();
    expect(fake.calls[0]?.url).toBe('https://api.example.sk/api/menu');
  });

  it('returns undefined for an empty answer', async () => {
    fake.on('POST /api/empty', { status: 204 });
    const client = createApiClient({ fetch: fake });
    await expect(client.post('/api/empty', {})).resolves.toBeUndefined();
  });
});

describe('createApiClient: errors', () => {
  it('throws ApiError from the {error:{code,message}} body', async () => {
    fake.on('POST /api/account/login', {
      status: 422,
      body: { error: { code: 'validation_failed', message: 'Zadajte e-mail.' } },
    });
    const client = createApiClient({ fetch: fake });
    const error = await client.login('', 'x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: 'validation_failed', message: 'Zadajte e-mail.' });
  });

  it('falls back to a code from the status and a Slovak message', async () => {
    fake.on('GET /api/site', { status: 500, body: 'oops' });
    fake.on('GET /api/menu', { status: 429, body: { error: { code: 'weird', message: '' } } });
    const client = createApiClient({ fetch: fake });
    await expect(client.site()).rejects.toMatchObject({
      status: 500,
      code: 'internal',
      message: 'Požiadavka zlyhala (HTTP 500).',
    });
    await expect(client.menu()).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
  });

  it('a 404 without a body is not_found', async () => {
    fake.on('GET /api/page/nic', { status: 404 });
    const client = createApiClient({ fetch: fake });
    await expect(client.page('nic')).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('wraps a network failure as ApiError with status 0', async () => {
    fake.on('GET /api/home', new TypeError('fetch failed'));
    const client = createApiClient({ fetch: fake });
    const error = await client.home().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 0,
      code: 'internal',
      message: 'Server je momentálne nedostupný. Skúste to, prosím, znova.',
    });
    expect((error as ApiError).cause).toBeInstanceOf(TypeError);
  });

  it('rejects an answer that is not JSON', async () => {
    const client = createApiClient({
      fetch: async () => new Response('<html>', { status: 200 }),
    });
    await expect(client.home()).rejects.toMatchObject({ code: 'internal', message: 'Server vrátil neplatnú odpoveď.' });
  });

  it('calls onUnauthorized on a 401 to a request sent while signed in', async () => {
    fake.on('GET /api/account/me', { status: 401, body: { error: { code: 'unauthorized', message: 'Prihláste sa.' } } });
    const onUnauthorized = vi.fn();
    const signedIn = createApiClient({ fetch: fake, isSignedIn: () => true, onUnauthorized });
    await expect(signedIn.me()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not call onUnauthorized for a 401 while signed out (wrong password)', async () => {
    fake.on('POST /api/account/login', { status: 401, body: { error: { code: 'unauthorized', message: 'Nesprávne heslo.' } } });
    const onUnauthorized = vi.fn();
    const client = createApiClient({ fetch: fake, isSignedIn: () => false, onUnauthorized });
    await expect(client.login('a@b.sk', 'zle')).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});

describe('createApiClient: typed calls', () => {
  const client = () => createApiClient({ fetch: fake });

  it.each([
    ['logout', (c: ReturnType<typeof client>) => c.logout('h4sh'), 'POST', '/api/account/logout', {}, { authHash: 'h4sh' }],
    [
      'validateCoupon',
      (c: ReturnType<typeof client>) => c.validateCoupon({ code: 'JAR10', cart: [], total: 1000, userId: 7 }),
      'POST',
      '/api/coupon/validate',
      {},
      { code: 'JAR10', cart: [], total: 1000, userId: 7 },
    ],
    ['deactivateCoupon', (c: ReturnType<typeof client>) => c.deactivateCoupon(7), 'GET', '/api/coupon/deactive', { userId: '7' }, undefined],
    ['activeCoupon', (c: ReturnType<typeof client>) => c.activeCoupon(7), 'GET', '/api/coupon/active', { user_id: '7' }, undefined],
    ['variantDetail', (c: ReturnType<typeof client>) => c.variantDetail(42), 'POST', '/api/product/variant/detail', {}, { v_id: 42 }],
    ['menu', (c: ReturnType<typeof client>) => c.menu(), 'GET', '/api/menu', {}, undefined],
    ['site', (c: ReturnType<typeof client>) => c.site(), 'GET', '/api/site', {}, undefined],
    ['redirectList', (c: ReturnType<typeof client>) => c.redirectList(), 'GET', '/api/redirect/list', {}, undefined],
    ['redirectFor', (c: ReturnType<typeof client>) => c.redirectFor('/stara-cesta'), 'GET', '/api/redirect', { path: '/stara-cesta' }, undefined],
    ['login', (c: ReturnType<typeof client>) => c.login('jan@example.sk', 'heslo'), 'POST', '/api/account/login', {}, { email: 'jan@example.sk', password: 'heslo' }],
    ['me', (c: ReturnType<typeof client>) => c.me(), 'GET', '/api/account/me', {}, undefined],
    ['home', (c: ReturnType<typeof client>) => c.home(), 'GET', '/api/home', {}, undefined],
    ['category', (c: ReturnType<typeof client>) => c.category('suche-zmesi'), 'GET', '/api/category/suche-zmesi', {}, undefined],
    [
      'products',
      (c: ReturnType<typeof client>) => c.products({ category: 'cement', page: 2, sort: 'price-asc' }),
      'GET',
      '/api/products',
      { category: 'cement', page: '2', sort: 'price-asc' },
      undefined,
    ],
    ['product', (c: ReturnType<typeof client>) => c.product('cement-cem-ii'), 'GET', '/api/product/cement-cem-ii', {}, undefined],
    ['page', (c: ReturnType<typeof client>) => c.page('kontakt'), 'GET', '/api/page/kontakt', {}, undefined],
  ] as const)('%s → %s %s', async (_name, call, method, path, query, body) => {
    fake.on(`${method} ${path}`, { body: { data: null } });
    await expect(call(client())).resolves.toEqual({ data: null });
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toMatchObject({ method, path, query, body });
  });

  it('encodes path segments', async () => {
    await client().category('a/b c').catch(() => undefined);
    expect(fake.calls[0]?.url).toBe('/api/category/a%2Fb%20c');
  });
});

describe('default api instance', () => {
  it('uses the configured fetch, with the session cookie', async () => {
    fake.on('GET /api/account/me', { body: { data: { id: 7 } } });
    configureApi({ fetch: fake, isSignedIn: () => true });
    await expect(api.me()).resolves.toEqual({ data: { id: 7 } });
    expect(fake.calls[0]).toMatchObject({ url: '/api/account/me', credentials: 'same-origin' });
    expect(fake.calls[0]?.headers.Authorization).toBeUndefined();
  });

  it('asks for the public catalogue without the session cookie, so every shopper shares cached answers', async () => {
    for (const path of ['/api/site', '/api/menu', '/api/home', '/api/products', '/api/product/tehla', '/api/search', '/api/search/suggest']) {
      fake.on(`GET ${path}`, { body: { data: null } });
    }
    configureApi({ fetch: fake, isSignedIn: () => true });
    await api.site();
    await api.menu();
    await api.home();
    await api.products({ category: 'tehly' });
    await api.product('tehla');
    await api.search({ q: 'tehla' });
    await api.suggest('teh');
    expect(fake.calls).toHaveLength(7);
    for (const call of fake.calls) expect(call.credentials).toBe('omit');
  });

  it('falls back to the global fetch when none is configured', async () => {
    configureApi({ fetch: undefined, isSignedIn: () => false });
    const globalFake = createFakeFetch();
    globalFake.on('GET /api/menu', { body: { data: 'x' } });
    vi.stubGlobal('fetch', globalFake);
    await expect(api.menu()).resolves.toEqual({ data: 'x' });
    expect(globalFake.calls).toHaveLength(1);
    vi.unstubAllGlobals();
  });
});

describe('createApiClient: downloads', () => {
  it('downloads the invoice with the shopper\'s session, as a Blob', async () => {
    fake.on('GET /api/orders/abc/invoice', { body: 'PDF' });
    const client = createApiClient({ fetch: fake, isSignedIn: () => true });
    const blob = await client.invoice('abc');
    expect(blob).toBeInstanceOf(Blob);
    expect(await blob.text()).toBe('"PDF"');
    expect(fake.calls[0]).toMatchObject({ method: 'GET', url: '/api/orders/abc/invoice', credentials: 'same-origin' });
  });

  it('signs out on a 401 to a download sent while signed in, with the API message', async () => {
    fake.on('GET /api/orders/abc/invoice', { status: 401, body: { error: { code: 'unauthorized', message: 'Prihláste sa.' } } });
    const onUnauthorized = vi.fn();
    const client = createApiClient({ fetch: fake, isSignedIn: () => true, onUnauthorized });
    await expect(client.invoice('abc')).rejects.toMatchObject({ status: 401, code: 'unauthorized', message: 'Prihláste sa.' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('asks for a complaint photo by its ids', async () => {
    fake.on('GET /api/account/complaints/4/photos/9', { body: 'IMG' });
    await createApiClient({ fetch: fake }).complaintPhoto(4, 9);
    expect(fake.calls[0]?.url).toBe('/api/account/complaints/4/photos/9');
  });
});

describe('createApiClient: extra headers and the operator', () => {
  it('adds the headers of one request', async () => {
    fake.on('GET /api/things', { body: {} });
    await createApiClient({ fetch: fake, isSignedIn: () => true }).get('/api/things', undefined, { headers: { 'X-Trace': '1' } });
    expect(fake.calls[0]?.headers).toMatchObject({ 'X-Trace': '1' });
    expect(fake.calls[0]?.credentials).toBe('same-origin');
  });

  it('sends the operator token instead of the shopper token, never from the cache, and a 401 does not sign the shopper out', async () => {
    fake.on('GET /api/operator/payments/refunds', { status: 401, body: { error: { code: 'unauthorized', message: 'Chýba alebo nesedí token operátora.' } } });
    const onUnauthorized = vi.fn();
    const seen: RequestInit[] = [];
    const recording = ((input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(init ?? {});
      return fake(input, init);
    }) as typeof fetch;
    const client = createApiClient({ fetch: recording, isSignedIn: () => true, onUnauthorized });
    await expect(client.operatorRefunds('op-token')).rejects.toMatchObject({ status: 401, message: 'Chýba alebo nesedí token operátora.' });
    expect(fake.calls[0]?.headers).toMatchObject({ 'X-Operator-Token': 'op-token' });
    expect(fake.calls[0]?.headers.Authorization).toBeUndefined();
    expect(fake.calls[0]?.credentials).toBe('omit');
    expect(seen[0]?.cache).toBe('no-store');
    expect(onUnauthorized).not.toHaveBeenCalled();
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
    await expect(client.opsReleases()).rejects.toMatchObject({ status: 401, message: 'Prihláste sa ako operátor.' });
    expect(fake.calls[0]?.headers.Authorization).toBeUndefined();
    expect(seen[0]).toMatchObject({ credentials: 'same-origin', cache: 'no-store' });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it.each([
    ['opsRelease', (c: ReturnType<typeof createApiClient>) => c.opsRelease('catalog', 'rollback', { version: '1.2.0' }), 'POST', '/api/ops/releases/catalog/rollback', { version: '1.2.0' }],
    ['opsSignIn', (c: ReturnType<typeof createApiClient>) => c.opsSignIn({ name: 'jana', password: 'heslo-operatora' }), 'POST', '/api/ops/session', { name: 'jana', password: 'heslo-operatora' }],
    ['opsSession', (c: ReturnType<typeof createApiClient>) => c.opsSession(), 'GET', '/api/ops/session', undefined],
    ['opsSignOut', (c: ReturnType<typeof createApiClient>) => c.opsSignOut(), 'DELETE', '/api/ops/session', {}],
    ['operatorStoreInvoice', (c: ReturnType<typeof createApiClient>) => c.operatorStoreInvoice('t', '2026000001'), 'POST', '/api/operator/orders/2026000001/invoice', {}],
    ['operatorEmail', (c: ReturnType<typeof createApiClient>) => c.operatorEmail('t', '2026000001'), 'GET', '/api/operator/orders/2026000001/email', undefined],
    ['operatorSendEmail', (c: ReturnType<typeof createApiClient>) => c.operatorSendEmail('t', '2026000001'), 'POST', '/api/operator/orders/2026000001/email', {}],
    ['operatorMarkPaid', (c: ReturnType<typeof createApiClient>) => c.operatorMarkPaid('t', '2026000001'), 'POST', '/api/operator/orders/2026000001/paid', {}],
    ['operatorInvoice', (c: ReturnType<typeof createApiClient>) => c.operatorInvoice('t', '2026000001'), 'GET', '/api/operator/orders/2026000001/invoice', undefined],
  ] as const)('%s → %s %s', async (_name, call, method, path, body) => {
    fake.on(`${method} ${path}`, { body: { data: null } });
    await call(createApiClient({ fetch: fake }));
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toMatchObject({ method, path, body });
  });
});
