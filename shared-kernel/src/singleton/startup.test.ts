// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApi } from './api-client.ts';
import { LOGOUT_PENDING_KEY, useAuthStore } from './auth-store.ts';
import { useBasketStore } from './basket-store.ts';
import { useCouponStore } from './coupon-store.ts';
import { initKernel, resetKernelStartupForTests } from './startup.ts';
import { createFakeFetch, type FakeFetch } from '../testing/fake-fetch.ts';
import { line, signedIn, variant } from '../testing/fixtures.ts';

let fake: FakeFetch;

function storeBasket(lines: unknown[]) {
  localStorage.setItem('cartData', JSON.stringify({ value: lines, expires: Date.now() + 60_000 }));
}

beforeEach(() => {
  localStorage.clear();
  fake = createFakeFetch();
  configureApi({ fetch: fake });
  useAuthStore.setState({ auth: {} });
  useBasketStore.setState({ lines: [] });
  useCouponStore.getState().clear();
  resetKernelStartupForTests();
});

describe('initKernel', () => {
  it('hydrates, refreshes the lines, then re-applies the active coupon for a signed-in user', async () => {
    storeBasket([line(1, 2), line(2, 1)]);
    useAuthStore.setState({ auth: signedIn(7) });
    fake.on('POST /api/product/variant/detail', (call) => {
      const { v_id } = call.body as { v_id: number };
      return v_id === 1
        ? { body: { data: variant({ v_id: 1, v_sellPrice: 5000, v_vat: 20 }) } }
        : { status: 404, body: { error: { code: 'not_found', message: 'Variant neexistuje' } } };
    });
    fake.on('GET /api/coupon/active', { body: { coupon: { code: 'JAR10' } } });
    fake.on('POST /api/coupon/validate', { body: { valid: true, message: '', coupon: { code: 'JAR10' }, discount: 1 } });

    await initKernel();

    expect(fake.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /api/product/variant/detail',
      'POST /api/product/variant/detail',
      'GET /api/coupon/active',
      'POST /api/coupon/validate',
    ]);
    const lines = useBasketStore.getState().lines;
    expect(lines.map((l) => l.v_id)).toEqual([1, 2]);
    expect(lines[0]?.variantData.v_sellPrice).toBe(5000);
    // A variant the shop no longer sells (404) stays in the basket, marked as not for sale.
    expect(lines[1]?.variantData).toEqual({ ...line(2, 1).variantData, v_availability: 'unavailable' });
    // the coupon is validated against the refreshed prices: 2 × 6.00 € + 12.30 €
    expect(fake.calls[3]?.body).toMatchObject({ code: 'JAR10', total: 2 * 6000 + 12300, userId: 7 });
    expect(useCouponStore.getState()).toMatchObject({ status: 'valid', discount: 1000 });
  });

  it('a guest gets no coupon calls', async () => {
    storeBasket([line(1, 2)]);
    fake.on('POST /api/product/variant/detail', { body: { data: variant({ v_id: 1 }) } });
    await initKernel();
    expect(fake.calls.map((c) => c.path)).toEqual(['/api/product/variant/detail']);
  });

  it('ignores every failure', async () => {
    storeBasket([line(1, 2)]);
    useAuthStore.setState({ auth: signedIn(7) });
    fake.on('POST /api/product/variant/detail', new TypeError('fetch failed'));
    fake.on('GET /api/coupon/active', new TypeError('fetch failed'));
    await expect(initKernel()).resolves.toBeUndefined();
    expect(useBasketStore.getState().lines).toEqual([line(1, 2)]);
    expect(useCouponStore.getState().status).toBe('none');
  });

  it('ignores a corrupt stored basket and removes it', async () => {
    localStorage.setItem('cartData', '{oops');
    await initKernel();
    expect(useBasketStore.getState().lines).toEqual([]);
    expect(localStorage.getItem('cartData')).toBeNull();
    expect(fake.calls).toEqual([]);
  });

  it('sends a sign-out the API never confirmed, at start and when the browser is back online', async () => {
    localStorage.setItem(LOGOUT_PENDING_KEY, '1');
    fake.on('POST /api/account/logout', new TypeError('fetch failed'));
    await initKernel();
    await vi.waitFor(() => expect(fake.callsTo('POST /api/account/logout')).toHaveLength(1));
    fake.on('POST /api/account/logout', { body: { data: { ok: true } } });
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(localStorage.getItem(LOGOUT_PENDING_KEY)).toBeNull());
    expect(fake.callsTo('POST /api/account/logout')).toHaveLength(2);
  });

  it('is idempotent', async () => {
    storeBasket([line(1, 2)]);
    fake.on('POST /api/product/variant/detail', { body: { data: variant({ v_id: 1 }) } });
    const first = initKernel();
    const second = initKernel();
    expect(second).toBe(first);
    await first;
    await initKernel();
    expect(fake.calls).toHaveLength(1);
  });
});
