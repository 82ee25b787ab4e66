// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApi } from './api-client.ts';
import { useAuthStore } from './auth-store.ts';
import { BASKET_TTL_MS } from './basket-storage.ts';
import { basketCount } from '../rules/basket-rules.ts';
import { useBasketStore } from './basket-store.ts';
import { useCouponStore } from './coupon-store.ts';
import { bus } from './event-bus.ts';
import { createFakeFetch, type FakeFetch } from '../testing/fake-fetch.ts';
import { line, signedIn, variant } from '../testing/fixtures.ts';

let fake: FakeFetch;

const stored = () => JSON.parse(localStorage.getItem('cartData') ?? 'null') as { value: unknown[]; expires: number };

/** Signed in as user 7 with a valid coupon JAR10 worth 5 €. */
function withValidCoupon() {
  useAuthStore.setState({ auth: signedIn(7) });
  useCouponStore.setState({ status: 'valid', coupon: { code: 'JAR10' }, discount: 5000, message: null });
}

beforeEach(() => {
  localStorage.clear();
  fake = createFakeFetch();
  configureApi({ fetch: fake });
  useAuthStore.setState({ auth: {} });
  useBasketStore.setState({ lines: [] });
  useCouponStore.getState().clear();
});

describe('basketCount', () => {
  it('sums the amounts', () => {
    expect(basketCount([line(1, 2), line(2, 5)])).toBe(7);
    expect(basketCount([])).toBe(0);
  });
});

describe('add', () => {
  it('adds a line, persists cartData and emits basket:edited', () => {
    const events = vi.fn();
    bus.on('basket:edited', events);
    useBasketStore.getState().add(line(1, 2));
    expect(useBasketStore.getState().lines).toEqual([line(1, 2)]);
    expect(stored().value).toEqual([line(1, 2)]);
    expect(stored().expires).toBeGreaterThan(Date.now() + BASKET_TTL_MS - 60_000);
    expect(events).toHaveBeenCalledWith({ lines: [line(1, 2)] });
    bus.off('basket:edited', events);
  });

  it('adds the amount to an existing line with the same v_id', () => {
    const { add } = useBasketStore.getState();
    add(line(1, 2));
    add(line(2, 1));
    add(line(1, 3));
    expect(useBasketStore.getState().lines.map((l) => [l.v_id, l.amount])).toEqual([
      [1, 5],
      [2, 1],
    ]);
  });

  it('ignores a non-positive amount', () => {
    useBasketStore.getState().add(line(1, 0));
    useBasketStore.getState().add(line(1, Number.NaN));
    expect(useBasketStore.getState().lines).toEqual([]);
  });

  it('makes no coupon call without a coupon', () => {
    useBasketStore.getState().add(line(1, 2));
    expect(fake.calls).toEqual([]);
  });

  it('re-validates an applied coupon', async () => {
    fake.on('POST /api/coupon/validate', { body: { valid: true, message: '', coupon: { code: 'JAR10' }, discount: 5 } });
    withValidCoupon();
    useBasketStore.getState().add(line(1, 2, { v_sellPrice: 10000, v_vat: 23 }));
    await vi.waitFor(() => expect(useCouponStore.getState().status).toBe('valid'));
    expect(fake.callsTo('POST /api/coupon/validate')).toHaveLength(1);
    expect(fake.calls[0]?.body).toMatchObject({ code: 'JAR10', total: 24600, userId: 7 });
  });
});

describe('updateAmount and remove', () => {
  beforeEach(() => {
    useBasketStore.setState({ lines: [line(1, 2, { v_sellPrice: 10000, v_vat: 23 }), line(2, 1, { v_sellPrice: 1000, v_vat: 23 })] });
  });

  it('updateAmount sets the amount and re-validates with the new total', async () => {
    fake.on('POST /api/coupon/validate', { body: { valid: true, message: 'OK', coupon: { code: 'JAR10' }, discount: 6 } });
    withValidCoupon();
    useBasketStore.getState().updateAmount(1, 4);
    expect(useBasketStore.getState().lines[0]?.amount).toBe(4);
    expect(stored().value).toHaveLength(2);
    await vi.waitFor(() => expect(useCouponStore.getState().discount).toBe(6000));
    const calls = fake.callsTo('POST /api/coupon/validate');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toMatchObject({ code: 'JAR10', total: 4 * 12300 + 1230, userId: 7 });
    expect((calls[0]?.body as { cart: unknown[] }).cart).toHaveLength(2);
  });

  it('updateAmount below 1 removes the line', () => {
    useBasketStore.getState().updateAmount(1, 0);
    expect(useBasketStore.getState().lines.map((l) => l.v_id)).toEqual([2]);
  });

  it('updateAmount of an unknown line changes nothing and makes no call', () => {
    withValidCoupon();
    useBasketStore.getState().updateAmount(99, 3);
    expect(useBasketStore.getState().lines).toHaveLength(2);
    expect(fake.calls).toEqual([]);
  });

  it('remove deletes the line and re-validates', async () => {
    fake.on('POST /api/coupon/validate', { body: { valid: true, message: '', coupon: { code: 'JAR10' }, discount: 5 } });
    withValidCoupon();
    useBasketStore.getState().remove(1);
    expect(useBasketStore.getState().lines.map((l) => l.v_id)).toEqual([2]);
    expect(stored().value).toHaveLength(1);
    await vi.waitFor(() => expect(fake.callsTo('POST /api/coupon/validate')).toHaveLength(1));
    expect(fake.calls[0]?.body).toMatchObject({ total: 1230 });
  });

  it('an invalid re-validation clears the coupon', async () => {
    fake.on('POST /api/coupon/validate', {
      body: { valid: false, message: 'Minimálna hodnota objednávky je 50 €', coupon: null, discount: 0 },
    });
    withValidCoupon();
    useBasketStore.getState().remove(1);
    await vi.waitFor(() => expect(useCouponStore.getState().status).toBe('invalid'));
    expect(useCouponStore.getState()).toMatchObject({
      coupon: null,
      discount: 0,
      message: 'Minimálna hodnota objednávky je 50 €',
    });
  });
});

describe('clear', () => {
  it('empties the basket, the stored basket and the coupon', () => {
    useBasketStore.setState({ lines: [line(1, 2)] });
    withValidCoupon();
    useBasketStore.getState().clear();
    expect(useBasketStore.getState().lines).toEqual([]);
    expect(stored().value).toEqual([]);
    expect(useCouponStore.getState()).toMatchObject({ status: 'none', coupon: null, discount: 0 });
    expect(fake.calls).toEqual([]);
  });
});

describe('hydrate', () => {
  it('reads the stored basket', () => {
    localStorage.setItem('cartData', JSON.stringify({ value: [line(3, 4)], expires: Date.now() + 60_000 }));
    useBasketStore.getState().hydrate();
    expect(useBasketStore.getState().lines).toEqual([line(3, 4)]);
  });

  it('ignores an expired basket', () => {
    localStorage.setItem('cartData', JSON.stringify({ value: [line(3, 4)], expires: Date.now() - 1 }));
    useBasketStore.getState().hydrate();
    expect(useBasketStore.getState().lines).toEqual([]);
  });

  it('the store starts from the stored basket', async () => {
    localStorage.setItem('cartData', JSON.stringify({ value: [line(5, 1)], expires: Date.now() + 60_000 }));
    vi.resetModules();
    const fresh = await import('./basket-store.ts');
    expect(fresh.useBasketStore.getState().lines).toEqual([line(5, 1)]);
  });
});

describe('refreshLines', () => {
  it('replaces variantData from variant/detail and skips failures', async () => {
    useBasketStore.setState({ lines: [line(1, 2), line(2, 1), line(3, 5)] });
    fake.on('POST /api/product/variant/detail', (call) => {
      const { v_id } = call.body as { v_id: number };
      if (v_id === 1) return { body: { data: variant({ v_id: 1, v_sellPrice: 20000 }) } };
      if (v_id === 2) return { status: 500, body: { error: { code: 'internal', message: 'Chyba' } } };
      return new TypeError('fetch failed');
    });
    await useBasketStore.getState().refreshLines();
    expect(fake.callsTo('POST /api/product/variant/detail').map((c) => c.body)).toEqual([{ v_id: 1 }, { v_id: 2 }, { v_id: 3 }]);
    const lines = useBasketStore.getState().lines;
    expect(lines.map((l) => [l.v_id, l.amount])).toEqual([
      [1, 2],
      [2, 1],
      [3, 5],
    ]);
    expect(lines[0]?.variantData.v_sellPrice).toBe(20000);
    expect(lines[1]?.variantData).toEqual(line(2, 1).variantData);
    expect(lines[2]?.variantData).toEqual(line(3, 5).variantData);
    expect((stored().value[0] as { variantData: { v_sellPrice: number } }).variantData.v_sellPrice).toBe(20000);
  });

  it('makes no call for an empty basket', async () => {
    await useBasketStore.getState().refreshLines();
    expect(fake.calls).toEqual([]);
  });

  it('asks once while a refresh of the same lines is under way, and again for other lines or later', async () => {
    useBasketStore.setState({ lines: [line(1, 2)] });
    fake.on('POST /api/product/variant/detail', (call) => ({ body: { data: variant({ v_id: (call.body as { v_id: number }).v_id }) } }));
    const calls = () => fake.callsTo('POST /api/product/variant/detail').map((c) => (c.body as { v_id: number }).v_id);
    await Promise.all([useBasketStore.getState().refreshLines(), useBasketStore.getState().refreshLines()]);
    expect(calls()).toEqual([1]);
    const first = useBasketStore.getState().refreshLines();
    useBasketStore.setState({ lines: [line(1, 2), line(2, 1)] });
    await Promise.all([first, useBasketStore.getState().refreshLines()]);
    expect(calls()).toEqual([1, 1, 1, 2]);
  });

  it('keeps changes made while the refresh was running', async () => {
    useBasketStore.setState({ lines: [line(1, 2)] });
    fake.on('POST /api/product/variant/detail', () => {
      useBasketStore.getState().updateAmount(1, 9);
      return { body: { data: variant({ v_id: 1, v_sellPrice: 3000 }) } };
    });
    await useBasketStore.getState().refreshLines();
    expect(useBasketStore.getState().lines[0]).toMatchObject({ amount: 9, variantData: { v_sellPrice: 3000 } });
  });
});

describe('events', () => {
  it('emits only events someone listens to: what was added, removed, edited or cleared, never a bare change', () => {
    localStorage.setItem('cartData', JSON.stringify({ value: [line(3, 4)], expires: Date.now() + 60_000 }));
    const names: string[] = [];
    const record = (name: string) => names.push(name);
    bus.on('*', record);
    const store = useBasketStore.getState();
    store.hydrate();
    store.add(line(1, 2));
    store.updateAmount(1, 3);
    store.remove(3);
    store.clear();
    bus.off('*', record);
    expect(names.filter((name) => name.startsWith('basket:'))).toEqual([
      'basket:added',
      'basket:edited',
      'basket:edited',
      'basket:removed',
      'basket:edited',
      'basket:cleared',
    ]);
  });
});

describe('the basket cookie', () => {
  // Sent only to the basket's page: read where the server reads it.
  const basketCookie = () => {
    history.replaceState(null, '', '/checkout/cart');
    const value = /(?:^|;\s*)shop_basket=([^;]*)/.exec(document.cookie)?.[1];
    history.replaceState(null, '', '/');
    return value;
  };

  it("mirrors each line's id and amount for the server's render of the basket page, and goes with the last line", () => {
    useBasketStore.getState().add(line(12, 2));
    useBasketStore.getState().add(line(7, 1));
    expect(basketCookie()).toBe('12x2.7x1');
    useBasketStore.getState().updateAmount(12, 5);
    expect(basketCookie()).toBe('12x5.7x1');
    expect(document.cookie).not.toContain('shop_basket');
    useBasketStore.getState().clear();
    expect(basketCookie()).toBeUndefined();
  });
});
