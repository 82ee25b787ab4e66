// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api, configureApi } from './api-client.ts';
import { useAuthStore } from './auth-store.ts';
import { isAuthenticated, userIdFromToken } from './auth-token.ts';
import { useBasketStore } from './basket-store.ts';
import { useCouponStore } from './coupon-store.ts';
import { bus } from './event-bus.ts';
import { createFakeFetch, type FakeFetch } from './testing/fake-fetch.ts';
import { line, tokenFor, tokenWith } from './testing/fixtures.ts';

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

describe('isAuthenticated', () => {
  it('takes the store state or the auth object', () => {
    expect(isAuthenticated({ auth: {} })).toBe(false);
    expect(isAuthenticated({ auth: { auth: 1, token: 't' } })).toBe(true);
    expect(isAuthenticated({})).toBe(false);
    expect(isAuthenticated({ auth: 1, token: 't' })).toBe(true);
  });
});

describe('useAuthStore', () => {
  it('starts signed out with an empty object', () => {
    expect(useAuthStore.getState().auth).toEqual({});
    expect(isAuthenticated(useAuthStore.getState())).toBe(false);
  });

  it('login holds auth = 1 and the token, persists it and emits auth:changed', () => {
    const events = vi.fn();
    bus.on('auth:changed', events);
    const token = tokenFor(7);
    useAuthStore.getState().login(token);
    expect(useAuthStore.getState().auth).toEqual({ auth: 1, token });
    expect(isAuthenticated(useAuthStore.getState())).toBe(true);
    expect(JSON.parse(localStorage.getItem('auth') ?? 'null')).toEqual({ auth: 1, token });
    expect(events).toHaveBeenCalledWith({ authenticated: true, userId: 7 });
    bus.off('auth:changed', events);
  });

  it('login rejects an empty token', () => {
    expect(() => useAuthStore.getState().login('')).toThrow(TypeError);
    expect(useAuthStore.getState().auth).toEqual({});
  });

  it('the default api client sends the token', async () => {
    fake.on('GET /api/account/me', { body: { data: { id: 7 } } });
    const token = tokenFor(7);
    useAuthStore.getState().login(token);
    await api.me();
    expect(fake.calls[0]?.headers.Authorization).toBe(`Bearer ${token}`);
  });

  it('logout calls the API with authHash, empties auth, clears the coupon and keeps the basket', async () => {
    fake.on('POST /api/account/logout', { body: { data: { ok: true } } });
    const token = tokenFor(7);
    useAuthStore.getState().login(token);
    useBasketStore.setState({ lines: [line(1, 2)] });
    useCouponStore.setState({ status: 'valid', coupon: { code: 'JAR10' }, discount: 5000 });
    const events = vi.fn();
    bus.on('auth:changed', events);

    await useAuthStore.getState().logout();

    const calls = fake.callsTo('POST /api/account/logout');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({ authHash: token });
    expect(calls[0]?.headers.Authorization).toBe(`Bearer ${token}`);
    expect(useAuthStore.getState().auth).toEqual({});
    expect(localStorage.getItem('auth')).toBeNull();
    expect(useCouponStore.getState()).toMatchObject({ status: 'none', coupon: null, discount: 0 });
    expect(useBasketStore.getState().lines).toEqual([line(1, 2)]);
    expect(events).toHaveBeenCalledWith({ authenticated: false, userId: null });
    bus.off('auth:changed', events);
  });

  it('a sign-out clears the coupon before auth:changed, through the bus (the auth store does not know the coupon store)', () => {
    useAuthStore.getState().login(tokenFor(7));
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

  it('logout ignores an API failure', async () => {
    fake.on('POST /api/account/logout', new TypeError('fetch failed'));
    useAuthStore.getState().login(tokenFor(7));
    await expect(useAuthStore.getState().logout()).resolves.toBeUndefined();
    expect(useAuthStore.getState().auth).toEqual({});
  });

  it('logout when signed out makes no call', async () => {
    await useAuthStore.getState().logout();
    expect(fake.calls).toEqual([]);
  });

  it('signOutLocally makes no call', () => {
    useAuthStore.getState().login(tokenFor(7));
    useAuthStore.getState().signOutLocally();
    expect(useAuthStore.getState().auth).toEqual({});
    expect(fake.calls).toEqual([]);
  });

  it('a 401 answer signs out locally without calling logout, basket kept', async () => {
    fake.on('GET /api/account/me', { status: 401, body: { error: { code: 'unauthorized', message: 'Relácia vypršala.' } } });
    useAuthStore.getState().login(tokenFor(7));
    useBasketStore.setState({ lines: [line(1, 2)] });
    await expect(api.me()).rejects.toMatchObject({ status: 401 });
    expect(useAuthStore.getState().auth).toEqual({});
    expect(fake.callsTo('POST /api/account/logout')).toHaveLength(0);
    expect(useBasketStore.getState().lines).toHaveLength(1);
  });
});

describe('persisted auth', () => {
  it('is read when the store is created', async () => {
    const token = tokenFor(9);
    localStorage.setItem('auth', JSON.stringify({ auth: 1, token }));
    vi.resetModules();
    const fresh = await import('./auth-store.ts');
    expect(fresh.useAuthStore.getState().auth).toEqual({ auth: 1, token });
  });

  it.each([
    ['corrupt JSON', '{"auth":'],
    ['no token', JSON.stringify({ auth: 1 })],
    ['wrong flag', JSON.stringify({ auth: 2, token: 'x' })],
    ['a list', '[]'],
  ])('%s means signed out', async (_name, raw) => {
    localStorage.setItem('auth', raw);
    vi.resetModules();
    const fresh = await import('./auth-store.ts');
    expect(fresh.useAuthStore.getState().auth).toEqual({});
  });
});
