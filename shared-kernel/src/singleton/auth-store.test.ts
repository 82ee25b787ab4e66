// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api, configureApi } from './api-client.ts';
import { finishPendingLogout, LOGOUT_PENDING_KEY, useAuthStore } from './auth-store.ts';
import { expiryFromToken, isAuthenticated, userIdFromToken } from '../rules/auth-token.ts';
import { useBasketStore } from './basket-store.ts';
import { useCouponStore } from './coupon-store.ts';
import { bus } from './event-bus.ts';
import { createFakeFetch, type FakeFetch } from '../testing/fake-fetch.ts';
import { line, signedIn, tokenFor, tokenWith } from '../testing/fixtures.ts';

const DAY = 24 * 3600 * 1000;
const JAN = { id: 7, name: 'Ján Novák', email: 'zakaznik@example.sk' };
/** What POST /api/account/login answers besides the token. */
const session = (expiresAt = new Date(Date.now() + 7 * DAY).toISOString()) => ({ user: JAN, expiresAt });
/** Everything the page keeps in web storage, as one text. */
const webStorage = () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage });

let fake: FakeFetch;

beforeEach(() => {
  localStorage.clear();
  fake = createFakeFetch();
  configureApi({ fetch: fake });
  useAuthStore.setState({ auth: {} });
  useBasketStore.setState({ lines: [] });
  useCouponStore.getState().clear();
});

describe('userIdFromToken', () => {
  it('reads user_id from the payload', () => {
    expect(userIdFromToken(tokenFor(42))).toBe(42);
    expect(userIdFromToken(tokenWith({ user_id: '17' }))).toBe(17);
  });
  it('decodes base64url payloads with non-ASCII text', () => {
    // '~~~' and '???' make '-' and '_' appear in the base64url text
    const token = tokenWith({ user_id: 5, note: '~~~???ľščťžýáíé' });
    expect(token.split('.')[1]).toMatch(/[-_]/);
    expect(userIdFromToken(token)).toBe(5);
  });
  it('is null without a readable user_id', () => {
    expect(userIdFromToken(tokenWith({ sub: 1 }))).toBeNull();
    expect(userIdFromToken(tokenWith({ user_id: 'abc' }))).toBeNull();
    expect(userIdFromToken(tokenWith({ user_id: 0 }))).toBeNull();
    expect(userIdFromToken('not-a-jwt')).toBeNull();
    expect(userIdFromToken('a.%%%.c')).toBeNull();
    expect(userIdFromToken('')).toBeNull();
  });
});

describe('expiryFromToken', () => {
  it('reads exp in milliseconds, null without one', () => {
    expect(expiryFromToken(tokenWith({ user_id: 1, exp: 1_800_000_000 }))).toBe(1_800_000_000_000);
    expect(expiryFromToken(tokenFor(1))).toBeNull();
    expect(expiryFromToken('not-a-jwt')).toBeNull();
  });
});

describe('isAuthenticated', () => {
  it('takes the store state or the auth object', () => {
    expect(isAuthenticated({ auth: {} })).toBe(false);
    expect(isAuthenticated({ auth: signedIn(1) })).toBe(true);
    expect(isAuthenticated({})).toBe(false);
    expect(isAuthenticated(signedIn(1))).toBe(true);
  });
});

describe('useAuthStore', () => {
  it('starts signed out with an empty object', () => {
    expect(useAuthStore.getState().auth).toEqual({});
    expect(isAuthenticated(useAuthStore.getState())).toBe(false);
  });

  it('login holds auth = 1, the user and the end of the session, persists that (no secret) and emits auth:changed', () => {
    const events = vi.fn();
    bus.on('auth:changed', events);
    const answer = session();
    useAuthStore.getState().login(answer);
    const expected = { auth: 1, user: JAN, expiresAt: Date.parse(answer.expiresAt) };
    expect(useAuthStore.getState().auth).toEqual(expected);
    expect(isAuthenticated(useAuthStore.getState())).toBe(true);
    expect(JSON.parse(localStorage.getItem('auth') ?? 'null')).toEqual(expected);
    expect(events).toHaveBeenCalledWith({ authenticated: true, userId: 7 });
    bus.off('auth:changed', events);
  });

  it('login with a token (an area built against kernel 2.0.0) reads its user and expiry and keeps no token', () => {
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const token = tokenWith({ user_id: 7, exp });
    useAuthStore.getState().login(token);
    expect(useAuthStore.getState().auth).toEqual({ auth: 1, user: { id: 7, name: '', email: '' }, expiresAt: exp * 1000 });
    expect(JSON.stringify(useAuthStore.getState())).not.toContain(token);
    expect(webStorage()).not.toContain(token.split('.')[1]);
  });

  it('login rejects an empty token, a token without expiry, a session without user or already over', () => {
    for (const bad of [
      '',
      tokenFor(7),
      { user: JAN, expiresAt: new Date(Date.now() - 1000).toISOString() },
      { user: { id: 0, name: '', email: '' }, expiresAt: Date.now() + DAY },
    ]) {
      expect(() => useAuthStore.getState().login(bad)).toThrow(TypeError);
    }
    expect(useAuthStore.getState().auth).toEqual({});
    expect(localStorage.getItem('auth')).toBeNull();
  });

  it('renew moves the end of the session and keeps the user', () => {
    useAuthStore.getState().login(session());
    const later = Date.now() + 7 * DAY + 5000;
    useAuthStore.getState().renew(new Date(later).toISOString());
    expect(useAuthStore.getState().auth).toEqual({ auth: 1, user: JAN, expiresAt: later });
    expect(JSON.parse(localStorage.getItem('auth') ?? 'null').expiresAt).toBe(later);
  });

  it('the default api client sends the session cookie and no Authorization header', async () => {
    fake.on('GET /api/account/me', { body: { data: { id: 7 } } });
    useAuthStore.getState().login(session());
    await api.call('GET /api/account/me');
    expect(fake.calls[0]?.credentials).toBe('same-origin');
    expect(fake.calls[0]?.headers.Authorization).toBeUndefined();
  });

  it('logout calls the API (which clears the cookie), empties auth, clears the coupon and keeps the basket', async () => {
    fake.on('POST /api/account/logout', { body: { data: { ok: true } } });
    useAuthStore.getState().login(session());
    useBasketStore.setState({ lines: [line(1, 2)] });
    useCouponStore.setState({ status: 'valid', coupon: { code: 'JAR10' }, discount: 5000 });
    const events = vi.fn();
    bus.on('auth:changed', events);

    await useAuthStore.getState().logout();

    const calls = fake.callsTo('POST /api/account/logout');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({});
    expect(calls[0]?.credentials).toBe('same-origin');
    expect(useAuthStore.getState().auth).toEqual({});
    expect(localStorage.getItem('auth')).toBeNull();
    expect(useCouponStore.getState()).toMatchObject({ status: 'none', coupon: null, discount: 0 });
    expect(useBasketStore.getState().lines).toEqual([line(1, 2)]);
    expect(events).toHaveBeenCalledWith({ authenticated: false, userId: null });
    bus.off('auth:changed', events);
  });

  it('a sign-out clears the coupon before auth:changed, through the bus (the auth store does not know the coupon store)', () => {
    useAuthStore.getState().login(session());
    useCouponStore.setState({ status: 'valid', coupon: { code: 'JAR10' }, discount: 5000 });
    const order: string[] = [];
    const coupon = () => order.push('coupon:changed');
    const auth = () => order.push('auth:changed');
    bus.on('coupon:changed', coupon);
    bus.on('auth:changed', auth);
    useAuthStore.getState().signOutLocally();
    bus.off('coupon:changed', coupon);
    bus.off('auth:changed', auth);
    expect(order).toEqual(['coupon:changed', 'auth:changed']);
    expect(useCouponStore.getState()).toMatchObject({ status: 'none', coupon: null, discount: 0 });
  });

  it('a sign-out of a signed-out shopper still clears the coupon message, and auth does not change', () => {
    useCouponStore.setState({ message: 'Kupón môže uplatniť iba prihlásený zákazník' });
    const events = vi.fn();
    bus.on('auth:changed', events);
    useAuthStore.getState().signOutLocally();
    bus.off('auth:changed', events);
    expect(useCouponStore.getState().message).toBeNull();
    expect(events).not.toHaveBeenCalled();
  });

  it('a sign-out the network failed signs the page out and is sent again until the API confirms it', async () => {
    fake.on('POST /api/account/logout', new TypeError('fetch failed'));
    useAuthStore.getState().login(session());
    await expect(useAuthStore.getState().logout()).resolves.toBeUndefined();
    expect(useAuthStore.getState().auth).toEqual({});
    expect(localStorage.getItem(LOGOUT_PENDING_KEY)).toBe('1');

    // Still no answer: it stays pending.
    await finishPendingLogout();
    expect(localStorage.getItem(LOGOUT_PENDING_KEY)).toBe('1');
    // The server errs: still pending (the session may well live on).
    fake.on('POST /api/account/logout', { status: 503, body: { error: { code: 'unavailable', message: 'Nedostupné' } } });
    await finishPendingLogout();
    expect(localStorage.getItem(LOGOUT_PENDING_KEY)).toBe('1');

    fake.on('POST /api/account/logout', { body: { data: { ok: true } } });
    await finishPendingLogout();
    expect(localStorage.getItem(LOGOUT_PENDING_KEY)).toBeNull();
    const calls = fake.callsTo('POST /api/account/logout');
    expect(calls).toHaveLength(4);
    expect(calls.every((call) => call.credentials === 'same-origin')).toBe(true);
    await finishPendingLogout();
    expect(fake.callsTo('POST /api/account/logout')).toHaveLength(4);
  });

  it('a pending sign-out ends on a 4xx (the session is gone) and is sent once however often it is asked', async () => {
    localStorage.setItem(LOGOUT_PENDING_KEY, '1');
    fake.on('POST /api/account/logout', { status: 401, body: { error: { code: 'unauthorized', message: 'Neprihlásený' } } });
    await Promise.all([finishPendingLogout(), finishPendingLogout()]);
    expect(fake.callsTo('POST /api/account/logout')).toHaveLength(1);
    expect(localStorage.getItem(LOGOUT_PENDING_KEY)).toBeNull();
  });

  it('signing in again drops a pending sign-out, which would now revoke the new session', async () => {
    localStorage.setItem(LOGOUT_PENDING_KEY, '1');
    useAuthStore.getState().login(session());
    expect(localStorage.getItem(LOGOUT_PENDING_KEY)).toBeNull();
    await finishPendingLogout();
    expect(fake.callsTo('POST /api/account/logout')).toHaveLength(0);
  });

  it('logout when signed out makes no call', async () => {
    await useAuthStore.getState().logout();
    expect(fake.calls).toEqual([]);
  });

  it('signOutLocally makes no call', () => {
    useAuthStore.getState().login(session());
    useAuthStore.getState().signOutLocally();
    expect(useAuthStore.getState().auth).toEqual({});
    expect(fake.calls).toEqual([]);
  });

  it('a 401 answer signs out locally without calling logout, basket kept', async () => {
    fake.on('GET /api/account/me', { status: 401, body: { error: { code: 'unauthorized', message: 'Relácia vypršala.' } } });
    useAuthStore.getState().login(session());
    useBasketStore.setState({ lines: [line(1, 2)] });
    await expect(api.call('GET /api/account/me')).rejects.toMatchObject({ status: 401 });
    expect(useAuthStore.getState().auth).toEqual({});
    expect(fake.callsTo('POST /api/account/logout')).toHaveLength(0);
    expect(useBasketStore.getState().lines).toHaveLength(1);
  });
});

describe('persisted auth', () => {
  it('is read when the store is created', async () => {
    const state = signedIn(9);
    localStorage.setItem('auth', JSON.stringify(state));
    vi.resetModules();
    const fresh = await import('./auth-store.ts');
    expect(fresh.useAuthStore.getState().auth).toEqual(state);
  });

  it('a token kept by an older version is removed from storage: signed out, sign in again', async () => {
    localStorage.setItem('auth', JSON.stringify({ auth: 1, token: tokenFor(9) }));
    vi.resetModules();
    const fresh = await import('./auth-store.ts');
    expect(fresh.useAuthStore.getState().auth).toEqual({});
    expect(localStorage.getItem('auth')).toBeNull();
  });

  it.each([
    ['corrupt JSON', '{"auth":'],
    ['no user', JSON.stringify({ auth: 1, expiresAt: Date.now() + DAY })],
    ['wrong flag', JSON.stringify({ ...signedIn(9), auth: 2 })],
    ['a session already over', JSON.stringify(signedIn(9, Date.now() - 1000))],
    ['a list', '[]'],
  ])('%s means signed out', async (_name, raw) => {
    localStorage.setItem('auth', raw);
    vi.resetModules();
    const fresh = await import('./auth-store.ts');
    expect(fresh.useAuthStore.getState().auth).toEqual({});
  });
});
