import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BasketLine, CouponValidation, VariantData } from '@shop/shared-kernel/contract';
import { unitPriceWithVat } from '@shop/shared-kernel/rules';
import { expectErrorShape, startTestApi } from '../helpers/test-api.ts';
import type { TestApi } from '../helpers/test-api.ts';

let api: TestApi;
let user: { token: string; userId: number };
let other: { token: string; userId: number };
let expensive: VariantData;
let cheap: VariantData;

beforeAll(async () => {
  api = await startTestApi();
  user = await api.login('zakaznik@example.sk', 'Heslo123!');
  other = await api.login('maria.kovacova@example.sk', 'Heslo456!');
  const variantById = async (v_id: number) => (await api.post<{ data: VariantData }>('/api/product/variant/detail', { v_id })).body.data;
  const rows = await api.db.selectFrom('variants').select(['v_id', 'v_sell_price']).orderBy('v_sell_price').execute();
  // a variant of about 60-200 € and one under 5 €
  expensive = await variantById(rows.find((r) => r.v_sell_price > 60_000 && r.v_sell_price < 160_000)!.v_id);
  cheap = await variantById(rows.find((r) => r.v_sell_price > 1_000 && r.v_sell_price < 3_000)!.v_id);
});
afterAll(async () => {
  await api?.close();
});
beforeEach(async () => {
  await api.db.deleteFrom('user_coupons').execute();
});

const line = (variantData: VariantData, amount: number): BasketLine => ({
  v_id: variantData.v_id,
  amount,
  variantData,
  isComponent: false,
  isRequired: false,
});

const validate = (code: string, cart: BasketLine[], as = user, userId = as.userId) =>
  api.post<CouponValidation>('/api/coupon/validate', { code, cart, total: 0, userId }, as.token);

/** Euros, the way requirements R9.4 rounds: thousandths to cents. */
const euros = (thousandths: number) => Math.round(thousandths / 10) / 100;

describe('POST /api/coupon/validate', () => {
  it('applies a percent coupon on the basket re-priced from the database', async () => {
    const res = await validate('ZLAVA10', [line(expensive, 2)]);
    expect(res.status).toBe(200);
    const total = unitPriceWithVat(expensive) * 2;
    expect(total).toBeGreaterThanOrEqual(50_000);
    expect(res.body).toEqual({
      valid: true,
      message: expect.any(String),
      coupon: { code: 'ZLAVA10' },
      discount: euros(Math.round(total * 0.1)),
    });
  });

  it('ignores prices and totals sent by the client', async () => {
    const fake = { ...expensive, v_sellPrice: 1, v_sale: 0 };
    const res = await api.post<CouponValidation>(
      '/api/coupon/validate',
      { code: 'ZLAVA10', cart: [line(fake, 2)], total: 1, userId: user.userId },
      user.token,
    );
    expect(res.body.valid).toBe(true);
    expect(res.body.discount).toBe(euros(Math.round(unitPriceWithVat(expensive) * 2 * 0.1)));
    expect(res.body.discount).toBeGreaterThan(1);
  });

  it('refuses a basket under the minimum total, and names the minimum', async () => {
    const res = await validate('zlava10', [line(cheap, 1)]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: false, message: 'Kupón platí pri nákupe od 50\u00a0€', coupon: null, discount: 0 });
  });

  it('refuses an expired or unknown code with one Slovak message', async () => {
    for (const code of ['LETO2024', 'NEEXISTUJE']) {
      const res = await validate(code, [line(expensive, 1)]);
      expect(res.body).toEqual({ valid: false, message: 'Kupón neexistuje alebo už neplatí', coupon: null, discount: 0 });
    }
  });

  it('refuses an empty code', async () => {
    const res = await validate('  ', [line(expensive, 1)]);
    expect(res.body).toMatchObject({ valid: false, message: 'Kód je prázdny' });
  });

  it('never discounts more than the basket total', async () => {
    const res = await validate('MINUS5', [line(cheap, 1)]);
    expect(unitPriceWithVat(cheap)).toBeLessThan(5_000);
    expect(res.body).toMatchObject({ valid: true, coupon: { code: 'MINUS5' }, discount: euros(unitPriceWithVat(cheap)) });
    const big = await validate('MINUS5', [line(expensive, 1)]);
    expect(big.body.discount).toBe(5);
  });

  it('keeps once-per-customer and max-uses limits', async () => {
    expect((await validate('VITAJ15', [line(expensive, 1)], user)).body).toMatchObject({
      valid: false,
      message: 'Tento kupón ste už použili',
    });
    expect((await validate('VITAJ15', [line(expensive, 1)], other)).body).toMatchObject({ valid: true });
    expect((await validate('PRVYNAKUP', [line(expensive, 2)], user)).body).toMatchObject({
      valid: false,
      message: 'Kupón už bol vyčerpaný',
    });
  });

  it('403 when userId is not the signed-in user; 401 without a token', async () => {
    const res = await validate('ZLAVA10', [line(expensive, 1)], user, other.userId);
    expect(res.status).toBe(403);
    expectErrorShape(res.body, 'forbidden');
    const anonymous = await api.post('/api/coupon/validate', { code: 'ZLAVA10', cart: [], total: 0, userId: user.userId });
    expect(anonymous.status).toBe(401);
    expectErrorShape(anonymous.body, 'unauthorized');
  });

  it('400 for a bad cart', async () => {
    for (const cart of [[{ v_id: 'x', amount: 1 }], [{ v_id: 1, amount: 0 }], 'cart']) {
      const res = await api.post('/api/coupon/validate', { code: 'ZLAVA10', cart, total: 0, userId: user.userId }, user.token);
      expect(res.status, JSON.stringify(cart)).toBe(400);
      expectErrorShape(res.body, 'validation_failed');
    }
  });
});

describe('active coupon', () => {
  it('a valid coupon becomes active; deactive clears it', async () => {
    const none = await api.get(`/api/coupon/active?user_id=${user.userId}`, user.token);
    expect(none.body).toEqual({ coupon: null });
    await validate('ZLAVA10', [line(expensive, 2)]);
    const active = await api.get(`/api/coupon/active?user_id=${user.userId}`, user.token);
    expect(active.status).toBe(200);
    expect(active.body).toEqual({ coupon: { code: 'ZLAVA10' } });
    // someone else's coupon state is separate
    expect((await api.get(`/api/coupon/active?user_id=${other.userId}`, other.token)).body).toEqual({ coupon: null });

    const off = await api.request('POST', `/api/coupon/deactive?userId=${user.userId}`, { token: user.token });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ data: { ok: true } });
    expect((await api.get(`/api/coupon/active?user_id=${user.userId}`, user.token)).body).toEqual({ coupon: null });
  });

  it('an invalid re-validation clears the active coupon, as the client does', async () => {
    await validate('ZLAVA10', [line(expensive, 2)]);
    await validate('ZLAVA10', [line(cheap, 1)]);
    expect((await api.get(`/api/coupon/active?user_id=${user.userId}`, user.token)).body).toEqual({ coupon: null });
    await validate('ZLAVA10', [line(expensive, 2)]);
    await validate('NEEXISTUJE', [line(expensive, 2)]);
    expect((await api.get(`/api/coupon/active?user_id=${user.userId}`, user.token)).body).toEqual({ coupon: null });
  });

  it('a new valid coupon replaces the active one', async () => {
    await validate('ZLAVA10', [line(expensive, 2)]);
    await validate('MINUS5', [line(expensive, 2)]);
    expect((await api.get(`/api/coupon/active?user_id=${user.userId}`, user.token)).body).toEqual({ coupon: { code: 'MINUS5' } });
  });

  it('only for the token user', async () => {
    for (const [method, path] of [
      ['GET', `/api/coupon/active?user_id=${other.userId}`],
      ['POST', `/api/coupon/deactive?userId=${other.userId}`],
    ] as const) {
      const res = await api.request(method, path, { token: user.token });
      expect(res.status).toBe(403);
      expectErrorShape(res.body, 'forbidden');
      const anonymous = await api.request(method, path);
      expect(anonymous.status).toBe(401);
    }
  });

  it('GET /api/coupon/deactive changes nothing: 405 in the error shape, the coupon stays active', async () => {
    await validate('ZLAVA10', [line(expensive, 2)]);
    for (const path of [`/api/coupon/deactive?userId=${user.userId}`, '/api/coupon/deactive']) {
      const res = await api.request('GET', path, { token: user.token });
      expect(res.status).toBe(405);
      expectErrorShape(res.body, 'method_not_allowed');
      expect(res.body.error.message).toMatch(/POST/);
      expect(res.headers.get('allow')).toBe('POST');
    }
    expect((await api.get(`/api/coupon/active?user_id=${user.userId}`, user.token)).body).toEqual({ coupon: { code: 'ZLAVA10' } });
  });

  it('a cookie-authenticated deactivation from another site is refused (CSRF rule)', async () => {
    await validate('ZLAVA10', [line(expensive, 2)]);
    const res = await api.request('POST', '/api/coupon/deactive', {
      headers: { cookie: `shop_session=${user.token}`, 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
    expect((await api.get(`/api/coupon/active?user_id=${user.userId}`, user.token)).body).toEqual({ coupon: { code: 'ZLAVA10' } });
  });
});
