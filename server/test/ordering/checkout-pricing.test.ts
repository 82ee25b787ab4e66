/**
 * Checkout pricing (POST /api/checkout/quote): lines priced from the database by requirements R9.4
 * whatever prices the client sends, shipping by weight, cash rounded to 0.05 €, coupons for the
 * token's user only by requirements R9.5 (in thousandths, never below 0), unknown variants and bad
 * amounts refused. Real HTTP against a real database (SQLite, or PostgreSQL with DATABASE_URL).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { couponAmountOff, priceAfterCoupon, roundTo005 } from '@shop/shared-kernel/rules';
import { checkoutShop, unit, type LightVariant } from '../helpers/checkout-shop.ts';
import { expectErrorShape, type TestApi } from '../helpers/test-api.ts';

const shop = checkoutShop();
const { quote } = shop;
let api: TestApi;
let user: { token: string; userId: number };
let light: LightVariant[];

beforeAll(async () => {
  ({ api, user, light } = await shop.start());
});
afterAll(async () => {
  await shop.stop();
});
beforeEach(async () => {
  await api.db.deleteFrom('user_coupons').execute();
});

describe('pricing (POST /api/checkout/quote)', () => {
  it('prices lines by requirements R9.4 (rounded unit price × amount) from the database, ignoring client prices', async () => {
    const [a, b] = [light[0]!, light[1]!];
    const res = await quote({
      lines: [
        { v_id: a.v_id, amount: 3, variantData: { v_sellPrice: 1 } },
        { v_id: b.v_id, amount: 2 },
      ],
      shippingCode: 'courier',
      paymentCode: 'cod',
      total: 1,
    });
    expect(res.status).toBe(200);
    const q = res.body.data;
    expect(q.lines.map((l) => [l.unitPrice, l.lineTotal])).toEqual([
      [unit(a), unit(a) * 3],
      [unit(b), unit(b) * 2],
    ]);
    expect(q.itemsTotal).toBe(unit(a) * 3 + unit(b) * 2);
    expect(q.weight).toBe(a.v_weight * 3 + b.v_weight * 2);
    const courier = q.shipping.find((m) => m.code === 'courier')!;
    expect(courier.available).toBe(true);
    // weight bands: up to 5 kg 4,90 €, up to 10 kg 5,90 € (free from 150 €)
    const expectedCourier =
      q.itemsTotal >= 150_000 ? 0 : q.weight <= 5_000 ? 4_900 : q.weight <= 10_000 ? 5_900 : q.weight <= 20_000 ? 7_900 : 9_900;
    expect(courier.price).toBe(expectedCourier);
    expect(q.paymentPrice).toBe(1_500); // cash on delivery fee, 1,50 € with VAT
    expect(q.total).toBe(q.itemsTotal + q.shippingPrice + q.paymentPrice);
    // cash: rounded to 0.05 €
    expect(q.amountDue).toBe(roundTo005(q.total));
    expect(q.amountDue % 50).toBe(0);
    expect(q.vat.reduce((s, v) => s + v.total, 0)).toBe(q.total);
    expect(q.shipping.find((m) => m.code === 'pallet')!.available).toBe(false);
  });

  it('rounds cash to 0.05 only for cash payments', async () => {
    const lines = [{ v_id: light[2]!.v_id, amount: 1 }];
    const card = (await quote({ lines, shippingCode: 'pickup', paymentCode: 'card' })).body.data;
    const cash = (await quote({ lines, shippingCode: 'pickup', paymentCode: 'cash' })).body.data;
    expect(card.amountDue).toBe(card.total);
    expect(cash.total).toBe(card.total);
    expect(cash.amountDue).toBe(roundTo005(cash.total));
    expect(roundTo005(12_320)).toBe(12_300);
    expect(roundTo005(12_330)).toBe(12_350);
    // cash on delivery is not offered with personal pickup, cash at the store only there
    expect(cash.payment.find((m) => m.code === 'cod')!.available).toBe(false);
    expect(card.payment.find((m) => m.code === 'cash')!.available).toBe(true);
  });

  it('applies a coupon only for the token’s user, by the discount rule of requirements R9.5, never below 0', async () => {
    const lines = [{ v_id: light[0]!.v_id, amount: 40 }];
    const total = unit(light[0]!) * 40;
    const guest = (await quote({ lines, couponCode: 'ZLAVA10' })).body.data;
    expect(guest.discount).toBe(0);
    expect(guest.couponMessage).toBe('Kupón môže uplatniť iba prihlásený zákazník');

    const signed = (await quote({ lines, couponCode: 'zlava10' }, user.token)).body.data;
    if (total >= 50_000) {
      expect(signed.coupon).toEqual({ code: 'ZLAVA10' });
      expect(signed.discount).toBe(couponAmountOff(Math.round((total * 10_000) / 100_000), total));
    }
    // 5 € off a basket cheaper than 5 €: the price is 0, never negative
    const cheap = await api.db
      .selectFrom('variants')
      .select(['v_id', 'v_sell_price', 'v_vat', 'v_sale'])
      .where('v_sell_price', '<', 3_000)
      .where('v_sell_price', '>', 0)
      .orderBy('v_sell_price')
      .executeTakeFirstOrThrow();
    const small = (await quote({ lines: [{ v_id: cheap.v_id, amount: 1 }], couponCode: 'MINUS5' }, user.token)).body.data;
    expect(small.itemsTotal).toBeLessThan(5_000);
    expect(small.discount).toBe(small.itemsTotal);
    expect(priceAfterCoupon(small.itemsTotal, 5_000)).toBe(0);
    expect(small.total).toBe(0);
    // expired and used-up coupons are refused with the coupon rules' message
    expect((await quote({ lines, couponCode: 'LETO2024' }, user.token)).body.data.couponMessage).toBe('Kupón neexistuje alebo už neplatí');
    expect((await quote({ lines, couponCode: 'VITAJ15' }, user.token)).body.data.couponMessage).toBe('Tento kupón ste už použili');
  });

  it('keeps a coupon’s discount in thousandths: rounded to whole cents at .5 cents, never above the goods (requirements R9.5)', async () => {
    const coupon = (code: string, kind: 'percent' | 'amount', value: number) =>
      api.db
        .insertInto('coupons')
        .values({
          code,
          kind,
          value,
          min_total: 0,
          valid_from: '2025-01-01T00:00:00.000Z',
          valid_to: '2099-12-31T23:59:59.999Z',
          max_uses: null,
        })
        .execute();
    await coupon('CENT1005', 'amount', 1_005);
    await coupon('CENT1004', 'amount', 1_004);
    await coupon('POLOVICA', 'percent', 50_000);
    await coupon('VSETKO', 'amount', 10_000_000);
    const v = light[0]!;
    const goods = unit(v) * 3;
    const priced = async (couponCode: string, lines = [{ v_id: v.v_id, amount: 3 }]) =>
      (await quote({ lines, couponCode, shippingCode: 'courier', paymentCode: 'cod' }, user.token)).body.data;
    // 1.005 € off is 1.01 €; 1.004 € is 1.00 €.
    expect((await priced('CENT1005')).discount).toBe(1_010);
    expect((await priced('CENT1004')).discount).toBe(1_000);
    // Half of an odd number of cents ends in half a cent: rounded up, to whole cents.
    const odd = light.find((l) => (unit(l) / 10) % 2 === 1)!;
    expect(odd, 'a light variant priced at an odd number of cents').toBeDefined();
    expect((await priced('POLOVICA', [{ v_id: odd.v_id, amount: 1 }])).discount).toBe(unit(odd) / 2 + 5);
    // More off than the goods: the goods are free, shipping and payment are still paid, nothing is below 0.
    const all = await priced('VSETKO');
    expect(all.itemsTotal).toBe(goods);
    expect(all.discount).toBe(goods);
    expect(all.total).toBe(all.shippingPrice + all.paymentPrice);
    expect(all.vat.every((line) => line.total >= 0 && line.base >= 0 && line.vat >= 0)).toBe(true);
    await api.db.deleteFrom('coupons').where('code', 'in', ['CENT1005', 'CENT1004', 'POLOVICA', 'VSETKO']).execute();
  });

  it('refuses unknown variants and bad amounts', async () => {
    const res = await quote({ lines: [{ v_id: 99_999_999, amount: 1 }] });
    expect(res.status).toBe(409);
    expectErrorShape(res.body, 'conflict');
    expect((await quote({ lines: [{ v_id: light[0]!.v_id, amount: 0 }] })).status).toBe(400);
    expect((await quote({ lines: [] })).status).toBe(400);
  });
});
