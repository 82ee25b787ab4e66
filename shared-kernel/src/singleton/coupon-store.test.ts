// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApi } from './api-client.ts';
import { useAuthStore } from './auth-store.ts';
import { useBasketStore } from './basket-store.ts';
import { finalTotal } from '../rules/basket-rules.ts';
import { COUPON_MESSAGES, useCouponStore } from './coupon-store.ts';
import { bus } from './event-bus.ts';
import { createFakeFetch, type FakeFetch } from '../testing/fake-fetch.ts';
import { line, signedIn } from '../testing/fixtures.ts';

let fake: FakeFetch;

const signIn = (userId = 7) => useAuthStore.setState({ auth: signedIn(userId) });
const coupon = () => useCouponStore.getState();
const validAnswer = (discount = 2.5) => ({
  body: { valid: true, message: 'Kupón bol uplatnený', coupon: { code: 'JAR10' }, discount },
});

beforeEach(() => {
  localStorage.clear();
  fake = createFakeFetch();
  configureApi({ fetch: fake });
  useAuthStore.setState({ auth: {} });
  useBasketStore.setState({ lines: [line(1, 2, { v_sellPrice: 10000, v_vat: 23, v_sale: 15000 })] });
  useCouponStore.getState().clear();
});

describe('messages', () => {
  it('are the required texts (requirements R8)', () => {
    expect(COUPON_MESSAGES.empty).toBe('Kód je prázdny');
    expect(COUPON_MESSAGES.failed).toBe('Chyba pri aplikovaní kupónu');
  });
});

describe('apply', () => {
  it('an empty code sets "Kód je prázdny" and makes no call', async () => {
    signIn();
    await expect(coupon().apply('')).resolves.toBe('none');
    expect(coupon()).toMatchObject({ status: 'none', message: 'Kód je prázdny' });
    await coupon().apply('   ');
    expect(coupon().message).toBe('Kód je prázdny');
    expect(fake.calls).toEqual([]);
  });

  it('an empty code keeps an applied coupon', async () => {
    signIn();
    useCouponStore.setState({ status: 'valid', coupon: { code: 'JAR10' }, discount: 2500 });
    await coupon().apply('');
    expect(coupon()).toMatchObject({ status: 'valid', coupon: { code: 'JAR10' }, discount: 2500, message: 'Kód je prázdny' });
    expect(fake.calls).toEqual([]);
  });

  it('a signed-out shopper gets a message and no call', async () => {
    await coupon().apply('JAR10');
    expect(coupon()).toMatchObject({ status: 'none', message: 'Kupón môže uplatniť iba prihlásený zákazník' });
    expect(fake.calls).toEqual([]);
  });

  it('a valid code: status valid, coupon, discount in thousandths', async () => {
    signIn(7);
    fake.on('POST /api/coupon/validate', validAnswer(2.5));
    await expect(coupon().apply(' JAR10 ')).resolves.toBe('valid');
    expect(coupon()).toMatchObject({
      status: 'valid',
      coupon: { code: 'JAR10' },
      discount: 2500,
      message: 'Kupón bol uplatnený',
    });
    const calls = fake.callsTo('POST /api/coupon/validate');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({
      code: 'JAR10',
      cart: useBasketStore.getState().lines,
      total: 20920,
      userId: 7,
    });
  });

  it('is applying while the call runs and emits coupon:changed', async () => {
    signIn();
    let release: () => void = () => undefined;
    fake.on(
      'POST /api/coupon/validate',
      () =>
        new Promise((resolve) => {
          release = () => resolve(validAnswer());
        }),
    );
    const events = vi.fn();
    bus.on('coupon:changed', events);
    const pending = coupon().apply('JAR10');
    expect(coupon().status).toBe('applying');
    await vi.waitFor(() => expect(fake.calls).toHaveLength(1));
    release();
    await pending;
    expect(events.mock.calls.map(([e]) => e)).toEqual([
      { status: 'applying', code: null },
      { status: 'valid', code: 'JAR10' },
    ]);
    bus.off('coupon:changed', events);
  });

  it('an invalid code: status invalid, coupon cleared, message from the answer', async () => {
    signIn();
    useCouponStore.setState({ status: 'valid', coupon: { code: 'STARY' }, discount: 1000 });
    fake.on('POST /api/coupon/validate', {
      body: { valid: false, message: 'Kupón už vypršal', coupon: null, discount: 0 },
    });
    await expect(coupon().apply('LETO')).resolves.toBe('invalid');
    expect(coupon()).toMatchObject({ status: 'invalid', coupon: null, discount: 0, message: 'Kupón už vypršal' });
  });

  it('an invalid answer without a message gets a Slovak default', async () => {
    signIn();
    fake.on('POST /api/coupon/validate', { body: { valid: false, message: '', coupon: null, discount: 0 } });
    await coupon().apply('LETO');
    expect(coupon().message).toBe('Kupón nie je platný');
  });

  it.each([
    ['a server error', { status: 500, body: { error: { code: 'internal', message: 'x' } } }],
    ['a network error', new TypeError('fetch failed')],
    ['a malformed answer', { body: { something: 'else' } }],
  ])('%s: "Chyba pri aplikovaní kupónu" and the coupon cleared', async (_name, answer) => {
    signIn();
    useCouponStore.setState({ status: 'valid', coupon: { code: 'JAR10' }, discount: 2500 });
    fake.on('POST /api/coupon/validate', answer);
    await coupon().apply('JAR10');
    expect(coupon()).toMatchObject({
      status: 'invalid',
      coupon: null,
      discount: 0,
      message: 'Chyba pri aplikovaní kupónu',
    });
  });

  it('only the answer to the latest apply counts', async () => {
    signIn();
    fake.on('POST /api/coupon/validate', async (call) => {
      const { code } = call.body as { code: string };
      if (code === 'POMALY') {
        await new Promise((r) => setTimeout(r, 30));
        return { body: { valid: true, message: '', coupon: { code: 'POMALY' }, discount: 9 } };
      }
      return { body: { valid: true, message: '', coupon: { code: 'RYCHLY' }, discount: 1 } };
    });
    const slow = coupon().apply('POMALY');
    await coupon().apply('RYCHLY');
    await slow;
    expect(coupon()).toMatchObject({ status: 'valid', coupon: { code: 'RYCHLY' }, discount: 1000 });
  });
});

describe('revalidate', () => {
  it('does nothing without a coupon', async () => {
    signIn();
    await coupon().revalidate();
    expect(fake.calls).toEqual([]);
  });

  it('re-applies the current code', async () => {
    signIn();
    useCouponStore.setState({ status: 'valid', coupon: { code: 'JAR10' }, discount: 2500 });
    fake.on('POST /api/coupon/validate', validAnswer(3));
    await coupon().revalidate();
    expect(fake.callsTo('POST /api/coupon/validate')[0]?.body).toMatchObject({ code: 'JAR10' });
    expect(coupon().discount).toBe(3000);
  });

  it('an invalid answer clears the coupon', async () => {
    signIn();
    useCouponStore.setState({ status: 'valid', coupon: { code: 'JAR10' }, discount: 2500 });
    fake.on('POST /api/coupon/validate', { body: { valid: false, message: 'Neplatný', coupon: null, discount: 0 } });
    await coupon().revalidate();
    expect(coupon()).toMatchObject({ status: 'invalid', coupon: null, discount: 0 });
  });

  it('clears the coupon without a call when signed out', async () => {
    useCouponStore.setState({ status: 'valid', coupon: { code: 'JAR10' }, discount: 2500 });
    await coupon().revalidate();
    expect(coupon()).toMatchObject({ status: 'none', coupon: null });
    expect(fake.calls).toEqual([]);
  });
});

describe('remove and clear', () => {
  it('remove clears and deactivates for the user', async () => {
    signIn(7);
    useCouponStore.setState({ status: 'valid', coupon: { code: 'JAR10' }, discount: 2500 });
    fake.on('POST /api/coupon/deactive', { body: { data: { ok: true } } });
    await coupon().remove();
    expect(coupon()).toMatchObject({ status: 'none', coupon: null, discount: 0, message: null });
    const calls = fake.callsTo('POST /api/coupon/deactive');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.query).toEqual({ userId: '7' });
  });

  it('remove ignores a failed deactivation', async () => {
    signIn(7);
    useCouponStore.setState({ status: 'valid', coupon: { code: 'JAR10' }, discount: 2500 });
    fake.on('POST /api/coupon/deactive', new TypeError('fetch failed'));
    await expect(coupon().remove()).resolves.toBeUndefined();
    expect(coupon().coupon).toBeNull();
  });

  it('clear is local only', () => {
    signIn();
    useCouponStore.setState({ status: 'valid', coupon: { code: 'JAR10' }, discount: 2500 });
    coupon().clear();
    expect(coupon()).toMatchObject({ status: 'none', coupon: null, discount: 0 });
    expect(fake.calls).toEqual([]);
  });
});

describe('reapplyActive', () => {
  it('applies the active coupon of the signed-in user', async () => {
    signIn(7);
    fake.on('GET /api/coupon/active', { body: { coupon: { code: 'JAR10' } } });
    fake.on('POST /api/coupon/validate', validAnswer(4));
    await coupon().reapplyActive();
    expect(fake.callsTo('GET /api/coupon/active')[0]?.query).toEqual({ user_id: '7' });
    expect(fake.callsTo('POST /api/coupon/validate')[0]?.body).toMatchObject({ code: 'JAR10', userId: 7 });
    expect(coupon()).toMatchObject({ status: 'valid', coupon: { code: 'JAR10' }, discount: 4000 });
  });

  it('clears when there is no active coupon', async () => {
    signIn(7);
    useCouponStore.setState({ status: 'valid', coupon: { code: 'STARY' }, discount: 2500 });
    fake.on('GET /api/coupon/active', { body: { coupon: null } });
    await coupon().reapplyActive();
    expect(coupon()).toMatchObject({ status: 'none', coupon: null, discount: 0 });
    expect(fake.callsTo('POST /api/coupon/validate')).toHaveLength(0);
  });

  it('makes no call for a guest', async () => {
    await coupon().reapplyActive();
    expect(fake.calls).toEqual([]);
    expect(coupon().status).toBe('none');
  });

  it('ignores a failure silently', async () => {
    signIn(7);
    fake.on('GET /api/coupon/active', { status: 500 });
    await expect(coupon().reapplyActive()).resolves.toBeUndefined();
    expect(coupon()).toMatchObject({ status: 'none', message: null });
  });
});

describe('finalTotal', () => {
  it('is the basket total minus the discount, never below 0', () => {
    const lines = [line(1, 2, { v_sellPrice: 10000, v_vat: 23, v_sale: 15000 })];
    expect(finalTotal(lines, 2500)).toBe(20920 - 2500);
    expect(finalTotal(lines, 50000)).toBe(0);
    expect(finalTotal([], 0)).toBe(0);
  });
});
