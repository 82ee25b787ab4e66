/**
 * The kernel's API client on failures: an ApiError from the `{error:{code,message}}` body, or from
 * the status with a Slovak message; a network failure and an answer that is not JSON; a 401 signs
 * the shopper out only for a request sent while signed in.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client.ts';
import { ApiError } from './errors.ts';
import { createFakeFetch, type FakeFetch } from '../testing/fake-fetch.ts';

let fake: FakeFetch;

beforeEach(() => {
  fake = createFakeFetch();
});

describe('createApiClient: errors', () => {
  it('throws ApiError from the {error:{code,message}} body', async () => {
    fake.on('POST /api/account/login', {
      status: 422,
      body: { error: { code: 'validation_failed', message: 'Zadajte e-mail.' } },
    });
    const client = createApiClient({ fetch: fake });
    const error = await client.call('POST /api/account/login', { body: { email: '', password: 'x' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: 'validation_failed', message: 'Zadajte e-mail.' });
  });

  it('falls back to a code from the status and a Slovak message', async () => {
    fake.on('GET /api/site', { status: 500, body: 'oops' });
    fake.on('GET /api/menu', { status: 429, body: { error: { code: 'weird', message: '' } } });
    const client = createApiClient({ fetch: fake });
    await expect(client.call('GET /api/site')).rejects.toMatchObject({
      status: 500,
      code: 'internal',
      message: 'Požiadavka zlyhala (HTTP 500).',
    });
    await expect(client.call('GET /api/menu')).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
  });

  it('a 404 without a body is not_found', async () => {
    fake.on('GET /api/page/nic', { status: 404 });
    const client = createApiClient({ fetch: fake });
    await expect(client.call('GET /api/page/:slug', { params: { slug: 'nic' } })).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('wraps a network failure as ApiError with status 0', async () => {
    fake.on('GET /api/home', new TypeError('fetch failed'));
    const client = createApiClient({ fetch: fake });
    const error = await client.call('GET /api/home').catch((e: unknown) => e);
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
    await expect(client.call('GET /api/home')).rejects.toMatchObject({ code: 'internal', message: 'Server vrátil neplatnú odpoveď.' });
  });

  it('calls onUnauthorized on a 401 to a request sent while signed in', async () => {
    fake.on('GET /api/account/me', { status: 401, body: { error: { code: 'unauthorized', message: 'Prihláste sa.' } } });
    const onUnauthorized = vi.fn();
    const signedIn = createApiClient({ fetch: fake, isSignedIn: () => true, onUnauthorized });
    await expect(signedIn.call('GET /api/account/me')).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not call onUnauthorized for a 401 while signed out (wrong password)', async () => {
    fake.on('POST /api/account/login', { status: 401, body: { error: { code: 'unauthorized', message: 'Nesprávne heslo.' } } });
    const onUnauthorized = vi.fn();
    const client = createApiClient({ fetch: fake, isSignedIn: () => false, onUnauthorized });
    await expect(client.call('POST /api/account/login', { body: { email: 'a@b.sk', password: 'zle' } })).rejects.toMatchObject({
      status: 401,
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});
