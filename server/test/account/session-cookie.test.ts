/**
 * The browser's session as an HttpOnly cookie: set by sign-in and password change, read by the
 * auth middleware beside the Bearer token, refused for cross-origin unsafe requests (CSRF),
 * cleared by sign-out, and never kept by a cache.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_COOKIE_HEADER, readCookie } from '../../src/infra/http/cookies.ts';
import { defaultCheckoutOptions } from '../../src/infra/checkout-options.ts';
import { sessionCookie, shopperCookie } from '../../src/infra/auth/auth.ts';
import { expectErrorShape, startTestApi, type HttpResult, type TestApi } from '../helpers/test-api.ts';

const PUBLIC_URL = 'https://obchod.example.sk';
const SHOP_ORIGIN = 'https://obchod.example.sk';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ checkout: (dir) => ({ ...defaultCheckoutOptions(dir), publicUrl: PUBLIC_URL }) });
});
afterAll(async () => {
  await api?.close();
});

function sessionCookieOf(res: HttpResult): string | undefined {
  return res.headers.getSetCookie().find((line) => line.startsWith('__Host-shop_session='));
}

/** Signs in as a browser does and answers the cookie header to send back and the Set-Cookie line. */
async function browserSignIn(email = 'zakaznik@example.sk', password = 'Heslo123!') {
  const res = await api.request('POST', '/api/account/login', {
    json: { email, password },
    headers: { origin: SHOP_ORIGIN, 'sec-fetch-site': 'same-origin' },
  });
  expect(res.status).toBe(200);
  const setCookie = sessionCookieOf(res);
  const value = /^__Host-shop_session=([^;]+)/.exec(setCookie ?? '')?.[1];
  if (!value) throw new Error(`no session cookie in ${JSON.stringify(res.headers.getSetCookie())}`);
  return { res, setCookie: setCookie!, cookie: `cookie_required=true; __Host-shop_session=${value}`, token: value };
}

const sameOrigin = { origin: SHOP_ORIGIN, 'sec-fetch-site': 'same-origin' };
const ADDRESS = { kind: 'billing', name: 'Ján Novák', street: 'Hlavná 1', city: 'Nitra', zip: '949 01', isDefault: false };

describe('sign-in sets the session cookie', () => {
  it('__Host-, HttpOnly, SameSite=Lax, Path=/, Secure for an https shop, as long as the token lives', async () => {
    const { res, setCookie, token } = await browserSignIn();
    const attributes = setCookie.split(';').map((part) => part.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/', 'secure', `max-age=${7 * 24 * 3600}`]));
    // The prefix's rules: no Domain, so the browser keeps it for this host alone.
    expect(attributes.some((part) => part.startsWith('domain='))).toBe(false);
    // The same token as the body's, which API clients keep sending as Bearer.
    expect(token).toBe(res.body.data.token);
    const expiresAt = Date.parse(res.body.data.expiresAt);
    expect(Math.abs(expiresAt - (Date.now() + 7 * 24 * 3600 * 1000))).toBeLessThan(60_000);
  });

  it('a wrong password sets no cookie', async () => {
    const res = await api.request('POST', '/api/account/login', { json: { email: 'zakaznik@example.sk', password: 'Zle-heslo1' } });
    expect(res.status).toBe(401);
    expect(sessionCookieOf(res)).toBeUndefined();
  });
});

describe('a request authenticated by the cookie', () => {
  it('reads the shopper from the cookie, answered private and never stored', async () => {
    const { cookie, res: signIn } = await browserSignIn();
    const me = await api.request('GET', '/api/account/me', { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body.data).toEqual(signIn.body.data.user);
    expect(me.headers.get('cache-control')).toBe('private, no-store');
  });

  it('a same-origin write works; a request without Origin or Sec-Fetch-Site (not a browser page) too', async () => {
    const { cookie } = await browserSignIn();
    const written = await api.request('POST', '/api/account/addresses', { json: ADDRESS, headers: { cookie, ...sameOrigin } });
    expect(written.status).toBe(201);
    const plain = await api.request('POST', '/api/account/addresses', { json: ADDRESS, headers: { cookie } });
    expect(plain.status).toBe(201);
    // The shop opened at another of its addresses (127.0.0.1 for localhost): the browser says same-origin.
    const otherAddress = await api.request('POST', '/api/account/addresses', {
      json: ADDRESS,
      headers: { cookie, origin: api.baseUrl, 'sec-fetch-site': 'same-origin' },
    });
    expect(otherAddress.status).toBe(201);
  });

  it('403 for a cross-origin write: Sec-Fetch-Site cross-site/same-site, or without it another Origin than PUBLIC_URL (not the Host-derived one)', async () => {
    const { cookie } = await browserSignIn();
    const before = (await api.request('GET', '/api/account/addresses', { headers: { cookie } })).body.data.length;
    const refused: Record<string, string>[] = [
      { origin: 'https://zly.example' },
      // What Host would give: never the reference.
      { origin: api.baseUrl },
      { origin: SHOP_ORIGIN, 'sec-fetch-site': 'cross-site' },
      // e.g. the areas' origin on the same site
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of refused) {
      const res = await api.request('POST', '/api/account/addresses', { json: ADDRESS, headers: { cookie, ...headers } });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expectErrorShape(res.body, 'forbidden');
      expect(res.body.error.message).toMatch(/inej stránky/);
    }
    // Another call that needs the shopper is refused the same way.
    const quote = await api.request('POST', '/api/coupon/validate', {
      json: { code: 'X', cart: [], userId: 1 },
      headers: { cookie, origin: 'https://zly.example' },
    });
    expect(quote.status).toBe(403);
    expect((await api.request('GET', '/api/account/addresses', { headers: { cookie } })).body.data.length).toBe(before);
    // Reading stays allowed (a GET changes nothing).
    expect(
      (await api.request('GET', '/api/account/me', { headers: { cookie, origin: 'https://zly.example', 'sec-fetch-site': 'cross-site' } }))
        .status,
    ).toBe(200);
  });

  it('the Bearer token of an API client needs no same-origin proof', async () => {
    const { token } = await api.login();
    const res = await api.request('POST', '/api/account/addresses', {
      json: ADDRESS,
      token,
      headers: { origin: 'https://nastroj.example' },
    });
    expect(res.status).toBe(201);
  });
});

describe('sign-out and the end of a session', () => {
  it("logout revokes the cookie's session and clears the cookie", async () => {
    const { cookie } = await browserSignIn();
    const out = await api.request('POST', '/api/account/logout', { json: {}, headers: { cookie, ...sameOrigin } });
    expect(out.status).toBe(200);
    const cleared = sessionCookieOf(out);
    expect(cleared).toMatch(/^__Host-shop_session=;/);
    expect(cleared?.toLowerCase()).toContain('max-age=0');
    expect(cleared?.toLowerCase()).toContain('path=/;');
    // The same cookie, kept by a copy, no longer signs in; the 401 clears it too.
    const after = await api.request('GET', '/api/account/me', { headers: { cookie } });
    expect(after.status).toBe(401);
    expect(sessionCookieOf(after)).toMatch(/^__Host-shop_session=;/);
  });

  it('another site cannot sign the shopper out', async () => {
    const { cookie } = await browserSignIn();
    const out = await api.request('POST', '/api/account/logout', { json: {}, headers: { cookie, origin: 'https://zly.example' } });
    expect(out.status).toBe(403);
    expect(sessionCookieOf(out)).toBeUndefined();
    expect((await api.request('GET', '/api/account/me', { headers: { cookie } })).status).toBe(200);
  });

  it('a password change sets a fresh cookie; the old one ends', async () => {
    const email = `cookie-${Date.now()}@example.sk`;
    expect((await api.post('/api/account/register', { email, password: 'Heslo123!', name: 'Eva Cookie' })).status).toBe(202);
    const { cookie } = await browserSignIn(email, 'Heslo123!');
    const changed = await api.request('POST', '/api/account/password', {
      json: { currentPassword: 'Heslo123!', newPassword: 'Heslo456!' },
      headers: { cookie, ...sameOrigin },
    });
    expect(changed.status).toBe(200);
    const fresh = /^__Host-shop_session=([^;]+)/.exec(sessionCookieOf(changed) ?? '')?.[1];
    expect(fresh).toBe(changed.body.data.token);
    expect((await api.request('GET', '/api/account/me', { headers: { cookie } })).status).toBe(401);
    expect((await api.request('GET', '/api/account/me', { headers: { cookie: `__Host-shop_session=${fresh}` } })).status).toBe(200);
  });

  it('a forged cookie is refused with 401 and cleared', async () => {
    const res = await api.request('GET', '/api/account/me', { headers: { cookie: '__Host-shop_session=not.a.token' } });
    expect(res.status).toBe(401);
    expectErrorShape(res.body, 'unauthorized');
    expect(sessionCookieOf(res)).toMatch(/^__Host-shop_session=;/);
  });
});

describe("the cookie follows the shop's address", () => {
  it('on an https shop a plain-named session cookie (one another host of the domain could set) is not read', async () => {
    const { token } = await browserSignIn();
    const tossed = await api.request('GET', '/api/account/me', { headers: { cookie: `shop_session=${token}` } });
    expect(tossed.status).toBe(401);
    expect((await api.request('GET', '/api/account/me', { headers: { cookie: `__Host-shop_session=${token}` } })).status).toBe(200);
  });

  it('https: __Host- on /, Secure; plain http: the plain name on /api, Secure whenever NODE_ENV is production', () => {
    expect(sessionCookie('https://obchod.example.sk')).toEqual({ name: '__Host-shop_session', path: '/', secure: true });
    expect(shopperCookie('shop_session', 'https://obchod.example.sk', '/api', false)).toEqual({
      name: '__Host-shop_session',
      path: '/',
      secure: true,
    });
    // `npm start`: production on http://localhost, where Chromium keeps a Secure cookie.
    expect(shopperCookie('shop_session', 'http://localhost:3000', '/api', true)).toEqual({
      name: 'shop_session',
      path: '/api',
      secure: true,
    });
    expect(shopperCookie('shop_session', 'http://localhost:3000', '/api', false)).toEqual({
      name: 'shop_session',
      path: '/api',
      secure: false,
    });
  });
});

describe('reading a cookie (the one parser every cookie goes through)', () => {
  it('finds the cookie by its exact name, decoded; an empty, absent or oversized one is not there', () => {
    expect(readCookie('a=1; shop_preview=x.y-z; b=2', 'shop_preview')).toBe('x.y-z');
    expect(readCookie('xshop_preview=1; shop_preview=2', 'shop_preview')).toBe('2');
    expect(readCookie('shop_preview=a%20b', 'shop_preview')).toBe('a b');
    expect(readCookie('shop_preview=', 'shop_preview')).toBeUndefined();
    expect(readCookie(undefined, 'shop_preview')).toBeUndefined();
    expect(readCookie(`pad=${'x'.repeat(MAX_COOKIE_HEADER)}; shop_preview=1`, 'shop_preview')).toBeUndefined();
  });
});
