/**
 * The shopper's orders in the account: the list (own orders only, newest first, paged), the detail
 * with the history the operator moves, another customer's order answered 404, and the withdrawal
 * from the contract (a consumer's, within 14 days of delivery, line by line, acknowledged by e-mail).
 * Real HTTP against a real database (SQLite, or PostgreSQL with DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountOrderDetail, CheckoutContact } from '@shop/shared-kernel/contract';
import { accountArea } from '../helpers/account-area.ts';
import { testContact } from '../helpers/checkout-contact.ts';
import { expectErrorShape, type TestApi } from '../helpers/test-api.ts';

const area = accountArea();
const { newUser, placeOrder, move, delivered, outbox } = area;
let api: TestApi;
let variants: number[];

const contact: CheckoutContact = testContact;

beforeAll(async () => {
  ({ api, variants } = await area.start());
});
afterAll(async () => {
  await api?.close();
});

describe('orders', () => {
  it('lists the shopper’s own orders, newest first, 15 a page', async () => {
    const { token } = await newUser('list');
    const other = await newUser('list2');
    await placeOrder(other.token);
    const numbers: string[] = [];
    for (let i = 0; i < 16; i++) numbers.push((await placeOrder(token, { lines: [{ v_id: variants[2]!, amount: 1 }] })).number);
    const first = await api.get('/api/account/orders', token);
    expect(first.body.meta).toEqual({ page: 1, pageSize: 15, total: 16, pageCount: 2 });
    expect(first.body.data).toHaveLength(15);
    expect(first.body.data[0]).toMatchObject({ number: numbers[15], state: 'received', paymentStatus: 'on_delivery', itemCount: 1 });
    const second = await api.get('/api/account/orders?page=2', token);
    expect(second.body.data.map((o: { number: string }) => o.number)).toEqual([numbers[0]]);
    expect((await api.get('/api/account/orders?page=0', token)).status).toBe(400);
  });

  it('the detail: lines, prices, payment, and a history the operator moves; wrong moves are refused', async () => {
    const { token } = await newUser('det');
    const order = await placeOrder(token, { paymentCode: 'transfer' });
    const read = async () => (await api.get<{ data: AccountOrderDetail }>(`/api/account/orders/${order.token}`, token)).body.data;
    let detail = await read();
    expect(detail).toMatchObject({
      number: order.number,
      state: 'received',
      paymentStatus: 'pending',
      canWithdraw: false,
      canComplain: false,
    });
    expect(detail.lines.map((l) => l.v_id)).toEqual([variants[0], variants[1]]);
    expect(detail.lines[0]!.itemId).toEqual(expect.any(Number));

    expect((await move(order.number, 'delivered')).status).toBe(409);
    expect((await move(order.number, 'shipped', 'zly-token')).status).toBe(401);
    // The existing /paid tool moves the state too.
    const paid = await api.asOperator('POST', `/api/operator/orders/${order.number}/paid`);
    expect(paid.status).toBe(200);
    expect((await read()).state).toBe('paid');
    expect((await move(order.number, 'shipped')).status).toBe(200);
    expect((await move(order.number, 'delivered')).status).toBe(200);
    detail = await read();
    expect(detail.state).toBe('delivered');
    expect(detail.history.map((h) => h.state)).toEqual(['received', 'paid', 'shipped', 'delivered']);
    expect(detail.canComplain).toBe(true);
    expect(detail.canWithdraw).toBe(true);
    expect(detail.withdrawalUntil).not.toBeNull();
    expect((await move(order.number, 'cancelled')).status).toBe(409);
  });

  it('a cancelled card order cannot be paid again', async () => {
    const { token } = await newUser('canc');
    const order = await placeOrder(token);
    expect((await move(order.number, 'cancelled')).status).toBe(200);
    const detail = (await api.get<{ data: AccountOrderDetail }>(`/api/account/orders/${order.token}`, token)).body.data;
    expect(detail.state).toBe('cancelled');
    expect(detail.status).toBe('cancelled');
    expect(detail.canRetryPayment).toBe(false);
  });

  it('another customer’s order answers 404 for the detail, withdrawal and complaints, whatever token is sent', async () => {
    const owner = await newUser('o1');
    const thief = await newUser('o2');
    const order = await delivered(owner.token);
    const itemId = (await api.get<{ data: AccountOrderDetail }>(`/api/account/orders/${order.token}`, owner.token)).body.data.lines[0]!
      .itemId;
    const detail = await api.get(`/api/account/orders/${order.token}`, thief.token);
    const withdraw = await api.post(`/api/account/orders/${order.token}/withdraw`, { itemIds: [itemId], confirm: true }, thief.token);
    const form = new FormData();
    form.set('orderToken', order.token);
    form.set('itemId', String(itemId));
    form.set('reason', 'defect');
    form.set('description', 'Prasknuté vrece, obsah vysypaný.');
    const complaint = await fetch(`${api.baseUrl}/api/account/complaints`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${thief.token}` },
    });
    expect(detail.status).toBe(404);
    expect(withdraw.status).toBe(404);
    expect(complaint.status).toBe(404);
    expect((await api.get('/api/account/orders', thief.token)).body.meta.total).toBe(0);
    // The invoice of a signed-in shopper's order needs that shopper.
    expect((await api.get(`/api/orders/${order.token}/invoice`, thief.token)).status).toBe(403);
    const pdf = await fetch(`${api.baseUrl}/api/orders/${order.token}/invoice`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  });
});

describe('withdrawal from the contract', () => {
  it('a consumer withdraws from a line, then from the rest; each time an acknowledgement e-mail', async () => {
    const { token } = await newUser('wd');
    const order = await delivered(token);
    const before = (await api.get<{ data: AccountOrderDetail }>(`/api/account/orders/${order.token}`, token)).body.data;
    const [first, second] = before.lines;
    expect(
      (await api.post(`/api/account/orders/${order.token}/withdraw`, { itemIds: [first!.itemId], confirm: false }, token)).status,
    ).toBe(422);
    const res = await api.post<{ data: AccountOrderDetail }>(
      `/api/account/orders/${order.token}/withdraw`,
      { itemIds: [first!.itemId], confirm: true },
      token,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.lines.map((l) => l.withdrawn)).toEqual([true, false]);
    expect(res.body.data.state).toBe('delivered');
    expect(res.body.data.withdrawals).toEqual([
      expect.objectContaining({ itemIds: [first!.itemId], refund: first!.lineTotal, wholeOrder: false }),
    ]);
    await api.sideWorkDone();
    expect(
      outbox(order.number).filter((m) => m.includes(`odstupenie-${order.number}`) || /Subject:.*=\?UTF-8\?/.test(m)).length,
    ).toBeGreaterThan(0);
    const again = await api.post(`/api/account/orders/${order.token}/withdraw`, { itemIds: [first!.itemId], confirm: true }, token);
    expect(again.status).toBe(409);
    const rest = await api.post<{ data: AccountOrderDetail }>(
      `/api/account/orders/${order.token}/withdraw`,
      { itemIds: [second!.itemId], confirm: true },
      token,
    );
    expect(rest.body.data.state).toBe('withdrawn');
    const refunds = rest.body.data.withdrawals.reduce((sum, w) => sum + w.refund, 0);
    expect(refunds).toBe(before.total);
  });

  it('not for a company purchase, not before delivery, not after 14 days, not for a foreign line', async () => {
    const { token } = await newUser('wd2');
    const company = await delivered(token, {
      contact: { ...contact, company: { name: 'Stavby s.r.o.', ico: '12345678', dic: '2020123456', icDph: '' } },
    });
    const fresh = await placeOrder(token);
    const late = await delivered(token);
    await api.db
      .updateTable('order_status_history')
      .set({ created_at: new Date(Date.now() - 20 * 86_400_000).toISOString() })
      .where(
        'order_id',
        '=',
        (await api.db.selectFrom('orders').select('order_id').where('order_token', '=', late.token).executeTakeFirstOrThrow()).order_id,
      )
      .execute();
    for (const o of [company, fresh, late]) {
      const d = (await api.get<{ data: AccountOrderDetail }>(`/api/account/orders/${o.token}`, token)).body.data;
      expect(d.canWithdraw).toBe(false);
      const res = await api.post(`/api/account/orders/${o.token}/withdraw`, { itemIds: [d.lines[0]!.itemId], confirm: true }, token);
      expect(res.status).toBe(409);
      expectErrorShape(res.body, 'conflict');
      expect(res.body.error.message).toBe(d.withdrawalBlockedReason);
    }
    const ok = await delivered(token);
    const foreignLine = (await api.get<{ data: AccountOrderDetail }>(`/api/account/orders/${late.token}`, token)).body.data.lines[0]!
      .itemId;
    expect((await api.post(`/api/account/orders/${ok.token}/withdraw`, { itemIds: [foreignLine], confirm: true }, token)).status).toBe(422);
  });
});
