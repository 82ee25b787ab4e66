/**
 * The kernel's API client (`createApiClient`, the default `api`): what a request sends (query,
 * JSON body, cookies, base URL), an answer's body that cannot be read, the default instance's
 * fetch and its cookie-less catalog calls, downloads as Blobs, resource keys, the contract's
 * types, and a source that writes no API path. Errors: api-client-errors.test.ts; each contract
 * call's method and path: api-client-calls.test.ts.
 */
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api, configureApi, createApiClient } from './api-client.ts';
import { buildQuery, keyOf } from '../rules/call-key.ts';
import { ApiError } from './errors.ts';
import { createFakeFetch, type FakeFetch } from '../testing/fake-fetch.ts';

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
    fake.on('GET /api/account/orders', { body: { data: [1, 2] } });
    const client = createApiClient({ fetch: fake });
    await expect(client.call('GET /api/account/orders', { query: { page: 2 } })).resolves.toEqual({ data: [1, 2] });
    expect(fake.calls[0]).toMatchObject({
      method: 'GET',
      url: '/api/account/orders?page=2',
      headers: { Accept: 'application/json' },
      body: undefined,
    });
    expect(fake.calls[0]?.headers.Authorization).toBeUndefined();
  });

  it('POST sends JSON with the session cookie (same origin) and no Authorization header', async () => {
    fake.on('POST /api/product/variant/detail', { body: { ok: true } });
    const client = createApiClient({ fetch: fake, isSignedIn: () => true });
    await client.call('POST /api/product/variant/detail', { body: { v_id: 1 } });
    expect(fake.calls[0]).toMatchObject({
      method: 'POST',
      body: { v_id: 1 },
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    });
    expect(fake.calls[0]?.headers.Authorization).toBeUndefined();
  });

  it('prefixes the base URL', async () => {
    fake.on('GET /api/menu', { body: { data: { categories: [], links: [] } } });
    const client = createApiClient({ fetch: fake, baseUrl: 'https://api.example.sk' });
    await client.call('GET /api/menu');
    expect(fake.calls[0]?.url).toBe('https://api.example.sk/api/menu');
  });

  it('rejects, never resolves with undefined, when the body of an answer cannot be read', async () => {
    // The body fails while it arrives: aborted by the caller, or the connection fails midway.
    const unreadable = (reason: unknown) =>
      (async () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"data":'));
              controller.error(reason);
            },
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        )) as typeof fetch;
    const aborted = new AbortController();
    aborted.abort();
    const abortError = new DOMException('The operation was aborted.', 'AbortError');
    await expect(createApiClient({ fetch: unreadable(abortError) }).call('GET /api/menu', { signal: aborted.signal })).rejects.toBe(
      abortError,
    );
    const failed = createApiClient({ fetch: unreadable(new TypeError('network error')) }).call('GET /api/menu');
    await expect(failed).rejects.toBeInstanceOf(ApiError);
    await expect(failed).rejects.toMatchObject({ status: 0 });
  });

  it('returns undefined for an empty answer', async () => {
    fake.on('DELETE /api/ops/session', { status: 204 });
    const client = createApiClient({ fetch: fake });
    await expect(client.call('DELETE /api/ops/session')).resolves.toBeUndefined();
  });
});

describe('default api instance', () => {
  it('uses the configured fetch, with the session cookie', async () => {
    fake.on('GET /api/account/me', { body: { data: { id: 7 } } });
    configureApi({ fetch: fake, isSignedIn: () => true });
    await expect(api.call('GET /api/account/me')).resolves.toEqual({ data: { id: 7 } });
    expect(fake.calls[0]).toMatchObject({ url: '/api/account/me', credentials: 'same-origin' });
    expect(fake.calls[0]?.headers.Authorization).toBeUndefined();
  });

  it('asks for the public catalog without the session cookie, so every shopper shares cached answers', async () => {
    for (const path of [
      '/api/site',
      '/api/menu',
      '/api/home',
      '/api/products',
      '/api/product/tehla',
      '/api/search',
      '/api/search/suggest',
    ]) {
      fake.on(`GET ${path}`, { body: { data: null } });
    }
    configureApi({ fetch: fake, isSignedIn: () => true });
    await api.call('GET /api/site');
    await api.call('GET /api/menu');
    await api.call('GET /api/home');
    await api.call('GET /api/products', { query: { category: 'tehly' } });
    await api.call('GET /api/product/:url', { params: { url: 'tehla' } });
    await api.call('GET /api/search', { query: { q: 'tehla' } });
    await api.call('GET /api/search/suggest', { query: { q: 'teh' } });
    expect(fake.calls).toHaveLength(7);
    for (const call of fake.calls) expect(call.credentials).toBe('omit');
  });

  it('falls back to the global fetch when none is configured', async () => {
    configureApi({ fetch: undefined, isSignedIn: () => false });
    const globalFake = createFakeFetch();
    globalFake.on('GET /api/menu', { body: { data: 'x' } });
    vi.stubGlobal('fetch', globalFake);
    await expect(api.call('GET /api/menu')).resolves.toEqual({ data: 'x' });
    expect(globalFake.calls).toHaveLength(1);
    vi.unstubAllGlobals();
  });
});

describe('createApiClient: downloads', () => {
  it("downloads the invoice with the shopper's session, as a Blob", async () => {
    fake.on('GET /api/orders/abc/invoice', { body: 'PDF' });
    const client = createApiClient({ fetch: fake, isSignedIn: () => true });
    const blob = await client.download('GET /api/orders/:token/invoice', { params: { token: 'abc' } });
    expect(blob).toBeInstanceOf(Blob);
    expect(await blob.text()).toBe('"PDF"');
    expect(fake.calls[0]).toMatchObject({ method: 'GET', url: '/api/orders/abc/invoice', credentials: 'same-origin' });
  });

  it('signs out on a 401 to a download sent while signed in, with the API message', async () => {
    fake.on('GET /api/orders/abc/invoice', { status: 401, body: { error: { code: 'unauthorized', message: 'Prihláste sa.' } } });
    const onUnauthorized = vi.fn();
    const client = createApiClient({ fetch: fake, isSignedIn: () => true, onUnauthorized });
    await expect(client.download('GET /api/orders/:token/invoice', { params: { token: 'abc' } })).rejects.toMatchObject({
      status: 401,
      code: 'unauthorized',
      message: 'Prihláste sa.',
    });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('asks for a complaint photo by its ids', async () => {
    fake.on('GET /api/account/complaints/4/photos/9', { body: 'IMG' });
    await createApiClient({ fetch: fake }).download('GET /api/account/complaints/:id/photos/:photoId', { params: { id: 4, photoId: 9 } });
    expect(fake.calls[0]?.url).toBe('/api/account/complaints/4/photos/9');
  });
});

describe('resource keys', () => {
  it('are the call with its arguments: params filled in, query names sorted, a body as stable JSON', () => {
    expect(keyOf('GET /api/menu')).toBe('GET /api/menu');
    expect(keyOf('GET /api/product/:url', { params: { url: 'a/b' } })).toBe('GET /api/product/a%2Fb');
    expect(keyOf('GET /api/products', { query: { sort: 'name', category: 'murivo', page: 2, brands: undefined } })).toBe(
      'GET /api/products?category=murivo&page=2&sort=name',
    );
    expect(keyOf('POST /api/checkout/quote', { body: { shippingCode: null, lines: [{ v_id: 1, amount: 2 }] } })).toBe(
      'POST /api/checkout/quote {"lines":[{"amount":2,"v_id":1}],"shippingCode":null}',
    );
  });

  it("a resource loads its call with the hook's signal", async () => {
    fake.on('GET /api/brand/baumit', { body: { data: 'b' } });
    const brand = createApiClient({ fetch: fake }).resource('GET /api/brand/:url', { params: { url: 'baumit' } });
    expect(brand.key).toBe('GET /api/brand/baumit');
    await expect(brand.load(new AbortController().signal)).resolves.toEqual({ data: 'b' });
    expect(fake.calls[0]?.credentials).toBe('omit');
  });
});

describe('types from the contract', () => {
  it('refuses a call the contract does not have, and arguments it does not take', () => {
    const client = createApiClient({ fetch: fake });
    // Never run: the compiler checks these lines (typecheck), the test only keeps them compiled.
    const typeOnly = async () => {
      // @ts-expect-error: no such call (a renamed route is this error at every call site)
      await client.call('GET /api/produkt/:url', { params: { url: 'x' } });
      // @ts-expect-error: the product's url is required
      await client.call('GET /api/product/:url');
      // @ts-expect-error: the query is typed
      await client.call('GET /api/products', { query: { sort: 'cheapest' } });
      // @ts-expect-error: a body only where the call takes one
      await client.call('GET /api/menu', { body: { x: 1 } });
      const answer = await client.call('GET /api/product/:url', { params: { url: 'x' } });
      // @ts-expect-error: the answer is typed
      return answer.data.no_such_field;
    };
    expect(typeOnly).toBeTypeOf('function');
  });
});

describe('the client source', () => {
  it("writes no path of the API: every path is the contract's call name", () => {
    const source = readFileSync(new URL('./api-client.ts', import.meta.url), 'utf8');
    expect(source.match(/['`"]\/api/g)).toBeNull();
  });
});
