/**
 * Card payments through the local gateway simulator: paid on the gateway's page, cancelled there and
 * paid again, and its signed notifications (a good one applied once; a bad signature, an unknown
 * payment and a replay change nothing). Real HTTP against a real database (SQLite, or PostgreSQL
 * with DATABASE_URL).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OrderDetail, PlacedOrder } from '@shop/shared-kernel/contract';
import { randomString } from '@shop/shared-kernel/rules';
import type { GatewaySimulator } from '@shop/gateway-simulator';
import { sign, SIGNATURE_HEADER } from '../../src/domains/ordering/payments/gateway-protocol.ts';
import { checkoutShop, type LightVariant } from '../helpers/checkout-shop.ts';
import type { TestApi } from '../helpers/test-api.ts';

const shop = checkoutShop();
const { SECRET, body, place } = shop;
let gateway: GatewaySimulator;
let api: TestApi;
let light: LightVariant[];

beforeAll(async () => {
  ({ gateway, api, light } = await shop.start());
});
afterAll(async () => {
  await shop.stop();
});
beforeEach(async () => {
  await api.db.deleteFrom('user_coupons').execute();
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
