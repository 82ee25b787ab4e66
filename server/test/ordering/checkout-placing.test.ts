/**
 * Placing an order (POST /api/orders): an order with nothing to pay is paid at once, a guest order
 * takes its stock and queues its e-mail, the contact is validated with a Slovak message, the same
 * idempotency key makes one order also when sent concurrently, two shoppers racing for the last
 * pieces leave nothing half-done, a total or user id the shopper did not see is refused, and a
 * signed-in shopper's coupon is recorded. Real HTTP against a real database (SQLite, or PostgreSQL
 * with DATABASE_URL).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CheckoutContact, OrderDetail } from '@shop/shared-kernel/contract';
import { roundTo005 } from '@shop/shared-kernel/rules';
import { testContact } from '../helpers/checkout-contact.ts';
import { checkoutShop, unit, type LightVariant } from '../helpers/checkout-shop.ts';
import { expectErrorShape, type TestApi } from '../helpers/test-api.ts';

const shop = checkoutShop();
const { body, place, quote, stockOf, orderCount } = shop;
let api: TestApi;
let user: { token: string; userId: number };
let other: { token: string; userId: number };
let light: LightVariant[];

const contact: CheckoutContact = testContact;

beforeAll(async () => {
  ({ api, user, other, light } = await shop.start());
});
afterAll(async () => {
  await shop.stop();
});
beforeEach(async () => {
  await api.db.deleteFrom('user_coupons').execute();
});

describe('placing an order (POST /api/orders)', () => {
  it('an order with nothing to pay is paid when placed: no transfer instructions, no payment page, never "waiting for payment"', async () => {
    const cheap = await api.db
      .selectFrom('variants')
      .select(['v_id'])
      .where('v_sell_price', '<', 3_000)
      .where('v_sell_price', '>', 0)
      .where('v_availability', '=', 'in_stock')
      .where('v_stock', '>=', 5)
      .orderBy('v_sell_price')
      .executeTakeFirstOrThrow();
    for (const paymentCode of ['transfer', 'card']) {
      const res = await place(
        body({ lines: [{ v_id: cheap.v_id, amount: 1 }], couponCode: 'MINUS5', shippingCode: 'pickup', paymentCode }),
        user.token,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const { order, redirectUrl } = res.body.data;
      expect(order.amountDue).toBe(0);
      expect(order.paymentStatus).toBe('paid');
      expect(order.transfer).toBeNull();
      expect(order.canRetryPayment).toBe(false);
      expect(redirectUrl).toBeNull();
    }
  });

  it('a guest order with cash on delivery: number, 32-character token, stock taken, e-mail in the outbox', async () => {
    const before = [await stockOf(light[0]!.v_id), await stockOf(light[1]!.v_id)];
    const res = await place(body());
    expect(res.status).toBe(201);
    const { order, redirectUrl } = res.body.data;
    expect(redirectUrl).toBeNull();
    expect(order.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(order.number).toMatch(/^\d{10}$/);
    expect(order.paymentStatus).toBe('on_delivery');
    expect(order.amountDue).toBe(roundTo005(order.total));
    expect(order.contact.phone).toBe('+421905123456');
    expect(order.contact.billing.zip).toBe('03601');
    expect([await stockOf(light[0]!.v_id), await stockOf(light[1]!.v_id)]).toEqual([before[0]! - 2, before[1]! - 1]);

    // The confirmation e-mail is written right after the answer.
    await api.sideWorkDone();
    const outbox = join(api.dataDir, 'outbox');
    const mail = readdirSync(outbox).find((f) => f.includes(order.number));
    expect(mail).toBeDefined();
    const eml = readFileSync(join(outbox, mail!), 'utf8');
    expect(eml).toContain('To: kupujuci@example.sk');
    expect(eml).toMatch(/^Subject: /m);
    expect(eml).toContain(order.number);

    const read = await api.get<{ data: OrderDetail }>(`/api/orders/${order.token}`);
    expect(read.status).toBe(200);
    expect(read.body.data.number).toBe(order.number);
    expect((await api.get(`/api/orders/${'x'.repeat(32)}`)).status).toBe(404);
  });

  it('validates the contact with a Slovak message, and needs the terms', async () => {
    const bad = await place(body({ contact: { ...contact, billing: { ...contact.billing, zip: '123' }, phone: '123' } }));
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain('PSČ má 5 číslic');
    expect(bad.body.error.message).toContain('telefónne číslo');
    const terms = await place(body({ termsAccepted: false }));
    expect(terms.status).toBe(422);
    expect(terms.body.error.message).toContain('obchodnými podmienkami');
    const company = await place(
      body({ contact: { ...contact, company: { name: 'Stavby s.r.o.', ico: '1234', dic: '2020123456', icDph: '' } } }),
    );
    expect(company.body.error.message).toContain('IČO má 8 číslic');
  });

  it('is idempotent: the same key makes one order, also when sent concurrently', async () => {
    const b = body();
    const stock = await stockOf(light[0]!.v_id);
    const count = await orderCount();
    const results = await Promise.all([place(b), place(b), place(b), place(b)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.data.order.number)).size).toBe(1);
    expect(await orderCount()).toBe(count + 1);
    expect(await stockOf(light[0]!.v_id)).toBe(stock - 2);
    const again = await place(b);
    expect(again.status).toBe(200);
    expect(again.body.data.order.number).toBe(results[0]!.body.data.order.number);
    // the same key with another basket is refused, not silently answered with the first order
    const reused = await place({ ...b, lines: [{ v_id: light[0]!.v_id, amount: 5 }] });
    expect(reused.status).toBe(409);
    expectErrorShape(reused.body, 'conflict');
  });

  it('two shoppers racing for the last pieces: one wins, the other gets a clear message, nothing half-done', async () => {
    const v = light[3]!;
    await api.db.updateTable('variants').set({ v_stock: 3 }).where('v_id', '=', v.v_id).execute();
    const count = await orderCount();
    const race = (email: string) =>
      place(
        body({
          lines: [
            { v_id: light[4]!.v_id, amount: 1 },
            { v_id: v.v_id, amount: 2 },
          ],
          contact: { ...contact, email },
        }),
      );
    const stock4 = await stockOf(light[4]!.v_id);
    const results = await Promise.all([race('prvy@example.sk'), race('druhy@example.sk')]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect(loser.body.error.message).toMatch(/už nie je na sklade v požadovanom množstve \(zostáva 1 /);
    expect(await stockOf(v.v_id)).toBe(1);
    // the loser's other line was not taken either
    expect(await stockOf(light[4]!.v_id)).toBe(stock4 - 1);
    expect(await orderCount()).toBe(count + 1);
    const items = await api.db.selectFrom('order_items').select('order_id').distinct().execute();
    const orders = await api.db.selectFrom('orders').select('order_id').execute();
    expect(items.length).toBe(orders.length);
  });

  it('refuses a total the shopper did not see, and a user id that is not the token’s', async () => {
    const priced = (await quote({ lines: body().lines, shippingCode: 'courier', paymentCode: 'cod' })).body.data;
    const wrong = await place(body({ expectedTotal: priced.amountDue + 10 }));
    expect(wrong.status).toBe(409);
    const right = await place(body({ expectedTotal: priced.amountDue }));
    expect(right.status).toBe(201);
    const forged = await place(body({ userId: other.userId }), user.token);
    expect(forged.status).toBe(403);
    const guestForged = await place(body({ userId: user.userId }));
    expect(guestForged.status).toBe(403);
  });

  it('a signed-in shopper’s coupon is validated for the token’s user and recorded in coupon_redemptions', async () => {
    const lines = [{ v_id: light[0]!.v_id, amount: 1 }];
    const res = await place(body({ lines, couponCode: 'MINUS5', paymentCode: 'transfer' }), user.token);
    expect(res.status).toBe(201);
    const order = res.body.data.order;
    expect(order.couponCode).toBe('MINUS5');
    expect(order.discount).toBe(Math.min(5_000, unit(light[0]!)));
    expect(order.transfer?.variableSymbol).toBe(order.number);
    expect(order.transfer?.qrSvg).toContain('<svg');
    const redemption = await api.db.selectFrom('coupon_redemptions').selectAll().where('order_ref', '=', order.number).executeTakeFirst();
    expect(redemption?.user_id).toBe(user.userId);
    // a coupon that does not validate stops the order instead of being dropped silently
    const expired = await place(body({ lines, couponCode: 'LETO2024' }), user.token);
    expect(expired.status).toBe(409);
    expect(expired.body.error.message).toBe('Kupón neexistuje alebo už neplatí');
    const guest = await place(body({ lines, couponCode: 'MINUS5' }));
    expect(guest.status).toBe(409);
  });
});
