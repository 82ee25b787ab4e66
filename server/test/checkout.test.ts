/**
 * Checkout: the server's pricing, placing orders (idempotency, the stock race), coupons
 * on orders, card payments through the local gateway simulator and its notifications, documents
 * and the operator's tools. Real HTTP against a real database (SQLite, or PostgreSQL with DATABASE_URL).
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CheckoutContact, CheckoutQuote, OrderDetail, PlaceOrderBody, PlacedOrder } from '@shop/shared-kernel/contract';
import { couponAmountOff, priceAfterCoupon, randomString, roundTo005, unitPriceWithVat } from '@shop/shared-kernel/rules';
import { startGatewaySimulator, type GatewaySimulator } from '@shop/gateway-simulator';
import { sign, SIGNATURE_HEADER } from '../src/domains/ordering/payments/gateway-protocol.ts';
import { DEFAULT_IBAN } from '../src/infra/checkout-options.ts';
import { expectErrorShape, startTestApi, type TestApi } from './helpers/test-api.ts';
import { releaseIdentities } from '../src/domains/releases/identities.repository.ts';
import { testContact } from './helpers/checkout-contact.ts';

const SECRET = randomBytes(16).toString('hex');
let gateway: GatewaySimulator;
let api: TestApi;
let user: { token: string; userId: number };
let other: { token: string; userId: number };
/** Light variants in stock: [v_id, sell price, vat, sale, weight]. */
let light: { v_id: number; v_sell_price: number; v_vat: number; v_sale: number; v_weight: number; v_stock: number }[];

const contact: CheckoutContact = testContact;

beforeAll(async () => {
  gateway = await startGatewaySimulator({ secret: SECRET });
  api = await startTestApi({
    checkout: (dataDir) => ({
      outboxDir: join(dataDir, 'outbox'),
      invoiceDir: join(dataDir, 'invoices'),
      smtpUrl: null,
      mailFrom: 'Stavebniny Domov <obchod@example.sk>',
      gateway: { url: gateway.url, secret: SECRET },
      publicUrl: 'http://shop.test',
      notifyUrl: null,
      iban: DEFAULT_IBAN,
    }),
  });
  user = await api.login('zakaznik@example.sk', 'Heslo123!');
  other = await api.login('maria.kovacova@example.sk', 'Heslo456!');
  light = await api.db
    .selectFrom('variants')
    .select(['v_id', 'v_sell_price', 'v_vat', 'v_sale', 'v_weight', 'v_stock'])
    .where('v_availability', '=', 'in_stock')
    .where('v_stock', '>=', 20)
    .where('v_weight', '<=', 2_000)
    .where('v_weight', '>', 0)
    .orderBy('v_id')
    .limit(6)
    .execute();
  expect(light.length).toBe(6);
});
afterAll(async () => {
  await api?.close();
  await gateway?.close();
});
beforeEach(async () => {
  await api.db.deleteFrom('user_coupons').execute();
});

const unit = (v: (typeof light)[number]) => unitPriceWithVat({ v_sellPrice: v.v_sell_price, v_vat: v.v_vat, v_sale: v.v_sale });

function body(overrides: Partial<PlaceOrderBody> = {}): PlaceOrderBody {
  return {
    idempotencyKey: randomString(32),
    lines: [
      { v_id: light[0]!.v_id, amount: 2 },
      { v_id: light[1]!.v_id, amount: 1 },
    ],
    contact,
    shippingCode: 'courier',
    paymentCode: 'cod',
    couponCode: null,
    note: '',
    termsAccepted: true,
    ...overrides,
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- success and error answers share one variable
const place = (b: PlaceOrderBody, token?: string) => api.post<{ data: PlacedOrder; error?: any }>('/api/orders', b, token);
const quote = (b: object, token?: string) => api.post<{ data: CheckoutQuote }>('/api/checkout/quote', b, token);
const stockOf = async (v_id: number) =>
  (await api.db.selectFrom('variants').select('v_stock').where('v_id', '=', v_id).executeTakeFirstOrThrow()).v_stock;
const orderCount = async () =>
  Number(
    (
      await api.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

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

describe('card payments through the gateway simulator', () => {
  const cardOrder = async () => {
    const res = await place(body({ paymentCode: 'card', lines: [{ v_id: light[5]!.v_id, amount: 1 }] }));
    expect(res.status).toBe(201);
    expect(res.body.data.order.paymentStatus).toBe('pending');
    expect(res.body.data.redirectUrl).toMatch(new RegExp(`^${gateway.url}/pay/`));
    return res.body.data;
  };
  const readOrder = async (token: string) => (await api.get<{ data: OrderDetail }>(`/api/orders/${token}`)).body.data;
  const paymentOf = async (token: string) =>
    api.db
      .selectFrom('payments as p')
      .innerJoin('orders as o', 'o.order_id', 'p.order_id')
      .select(['p.gateway_ref', 'p.amount', 'o.order_number'])
      .where('o.order_token', '=', token)
      .orderBy('p.payment_id', 'desc')
      .executeTakeFirstOrThrow();
  const notify = (payload: object, signature?: string) => {
    const raw = JSON.stringify(payload);
    return fetch(`${api.baseUrl}/api/payments/notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature ?? sign(SECRET, raw) },
      body: raw,
    });
  };

  it('pay on the gateway page: signed notification, the shopper returns to /payment/pending, the order is paid', async () => {
    const { order, redirectUrl } = await cardOrder();
    const pageRes = await fetch(redirectUrl!);
    const html = await pageRes.text();
    expect(html).toContain('Zaplatiť');
    expect(html).toContain('Zrušiť platbu');
    const paid = await fetch(`${redirectUrl}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://shop.test/payment/pending?order=${order.token}`);
    expect((await readOrder(order.token)).paymentStatus).toBe('paid');
    // a replayed or second click changes nothing
    expect((await fetch(`${redirectUrl}/cancel`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    expect((await readOrder(order.token)).paymentStatus).toBe('paid');
  });

  it('cancel on the gateway: the order is cancelled and can be paid again', async () => {
    const { order, redirectUrl } = await cardOrder();
    await fetch(`${redirectUrl}/cancel`, { method: 'POST', redirect: 'manual' });
    const cancelled = await readOrder(order.token);
    expect(cancelled.paymentStatus).toBe('cancelled');
    expect(cancelled.canRetryPayment).toBe(true);
    const retry = await api.post<{ data: PlacedOrder }>(`/api/orders/${order.token}/pay`, {});
    expect(retry.status).toBe(200);
    expect(retry.body.data.redirectUrl).not.toBe(redirectUrl);
    await fetch(`${retry.body.data.redirectUrl}/pay`, { method: 'POST', redirect: 'manual' });
    expect((await readOrder(order.token)).paymentStatus).toBe('paid');
    expect((await api.post(`/api/orders/${order.token}/pay`, {})).status).toBe(409);
  });

  it('notifications: a good one applies once; bad signature, unknown payment and replay change nothing', async () => {
    const { order } = await cardOrder();
    const payment = await paymentOf(order.token);
    const good = {
      notificationId: randomString(24),
      paymentId: payment.gateway_ref,
      merchantRef: payment.order_number,
      status: 'paid',
      amount: payment.amount,
      currency: 'EUR',
      createdAt: new Date().toISOString(),
    };
    const forged = await notify(good, sign('wrong-secret', JSON.stringify(good)));
    expect(forged.status).toBe(401);
    expect((await notify({ ...good, paymentId: 'neexistuje' })).status).toBe(404);
    expect((await notify({ ...good, amount: good.amount + 1 })).status).toBe(400);
    expect((await readOrder(order.token)).paymentStatus).toBe('pending');

    const applied = await notify(good);
    expect(applied.status).toBe(200);
    expect(await applied.json()).toEqual({ data: { result: 'applied' } });
    expect((await readOrder(order.token)).paymentStatus).toBe('paid');

    const replay = await notify(good);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ data: { result: 'duplicate' } });
    const late = await notify({ ...good, notificationId: randomString(24), status: 'cancelled' });
    expect(await late.json()).toEqual({ data: { result: 'ignored' } });
    const after = await readOrder(order.token);
    expect(after.paymentStatus).toBe('paid');
    const rows = await api.db.selectFrom('payment_notifications').selectAll().where('gateway_ref', '=', payment.gateway_ref).execute();
    expect(rows.length).toBe(2);
  });
});

describe('documents and the operator’s tools', () => {
  it('the invoice PDF: a guest order by its token, a signed-in shopper’s only for that shopper', async () => {
    const guest = (await place(body())).body.data.order;
    const pdf = await fetch(`${api.baseUrl}/api/orders/${guest.token}/invoice`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    const own = (
      await place(
        body({
          contact: { ...contact, company: { name: 'Stavby Kupec s.r.o.', ico: '12345678', dic: '2020123456', icDph: 'sk2020123456' } },
        }),
        user.token,
      )
    ).body.data.order;
    expect(own.contact.company?.icDph).toBe('SK2020123456');
    expect((await api.get(`/api/orders/${own.token}/invoice`)).status).toBe(401);
    expect((await api.get(`/api/orders/${own.token}/invoice`, other.token)).status).toBe(403);
    expect((await api.get(`/api/orders/${own.token}/invoice`, user.token)).status).toBe(200);
  });

  it('operator routes need a signed-in operator on the operator origin, each call audited; /paid marks a bank transfer paid', async () => {
    const transfer = (await place(body({ paymentCode: 'transfer' }))).body.data.order;
    const { cookie, name } = await api.operator();
    const op = (method: string, path: string) =>
      fetch(`${api.opsUrl}/api/operator/orders/${transfer.number}${path}`, {
        method,
        headers: { cookie, ...(method === 'GET' ? {} : { 'content-type': 'application/json', origin: api.opsUrl }) },
        ...(method === 'GET' ? {} : { body: '{}' }),
      });
    expect((await api.ops('GET', `/api/operator/orders/${transfer.number}`, { token: 'zly-token' })).status).toBe(401);
    expect((await api.ops('GET', `/api/operator/orders/${transfer.number}`)).status).toBe(401);
    // The shop's origin answers none of them, whoever asks.
    expect((await fetch(`${api.baseUrl}/api/operator/orders/${transfer.number}`, { headers: { cookie } })).status).toBe(404);
    const preview = (await (await op('GET', '/email')).json()) as { data: { subject: string; html: string } };
    expect(preview.data.subject).toContain(transfer.number);
    expect(preview.data.html).toContain('Variabilný symbol');
    const sent = await op('POST', '/email');
    expect(sent.status).toBe(200);
    const generated = (await (await op('POST', '/invoice')).json()) as { data: { file: string } };
    expect(generated.data.file).toBe(`faktura-${transfer.number}.pdf`);
    expect(
      readFileSync(join(api.dataDir, 'invoices', generated.data.file))
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    expect((await op('GET', '/invoice')).headers.get('content-type')).toBe('application/pdf');
    const paid = (await (await op('POST', '/paid')).json()) as { data: OrderDetail };
    expect(paid.data.paymentStatus).toBe('paid');
    expect(paid.data.transfer).toBeNull();

    const cod = (await place(body())).body.data.order;
    expect((await api.asOperator('POST', `/api/operator/orders/${cod.number}/paid`)).status).toBe(409);

    const log = (await releaseIdentities(api.db).recent(20))
      .filter((row) => row.actor === name)
      .map((row) => `${row.action} ${row.detail}`);
    for (const action of ['email-preview', 'email-send', 'invoice-generate', 'invoice-read', 'order-paid'])
      expect(log, action).toContain(`${action} objednávka ${transfer.number}`);
  });
});
