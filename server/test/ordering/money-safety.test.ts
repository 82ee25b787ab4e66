/**
 * Money at the edges, against the real API, database and gateway simulator: one order is paid at
 * most once (older payment pages are cancelled at the gateway, a second payment is refunded and
 * shown to the operator), notifications are checked for shape and currency, a hanging gateway
 * does not hold the shopper, and quantities are integers within the basket's limits.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceOrderBody, PlacedOrder } from '@shop/shared-kernel/contract';
import { randomString } from '@shop/shared-kernel/rules';
import { sign, SIGNATURE_HEADER } from '../../src/domains/ordering/payments/gateway-protocol.ts';
import { startGatewaySimulator, type GatewaySimulator } from '@shop/gateway-simulator';
import { defaultCheckoutOptions } from '../../src/infra/checkout-options.ts';
import { BASKET_LIMITS } from '@shop/shared-kernel/schemas';
import { releaseIdentities } from '../../src/domains/releases/identities.repository.ts';
import { expectErrorShape, startTestApi, type TestApi } from '../helpers/test-api.ts';
import { testContact } from '../helpers/checkout-contact.ts';

const SECRET = randomBytes(16).toString('hex');
let gateway: GatewaySimulator;
let api: TestApi;
let variants: number[];

beforeAll(async () => {
  gateway = await startGatewaySimulator({ secret: SECRET });
  api = await startTestApi({
    checkout: (dataDir) => ({
      ...defaultCheckoutOptions(dataDir),
      gateway: { url: gateway.url, secret: SECRET },
      publicUrl: 'http://shop.test',
    }),
  });
  variants = (
    await api.db
      .selectFrom('variants')
      .select('v_id')
      .where('v_availability', '=', 'to_order')
      .where('v_weight', '<=', 2_000)
      .orderBy('v_id')
      .limit(3)
      .execute()
  ).map((v) => v.v_id);
  expect(variants).toHaveLength(3);
});
afterAll(async () => {
  await api?.close();
  await gateway?.close();
});

const body = (overrides: Partial<PlaceOrderBody> = {}): PlaceOrderBody => ({
  idempotencyKey: randomString(32),
  lines: [{ v_id: variants[0]!, amount: 1 }],
  contact: testContact,
  shippingCode: 'courier',
  paymentCode: 'card',
  couponCode: null,
  note: '',
  termsAccepted: true,
  ...overrides,
});
const place = async (overrides: Partial<PlaceOrderBody> = {}, token?: string) => {
  const res = await api.post<{ data: PlacedOrder }>('/api/orders', body(overrides), token);
  expect(res.status).toBe(201);
  return res.body.data;
};
const payments = (orderToken: string) =>
  api.db
    .selectFrom('payments as p')
    .innerJoin('orders as o', 'o.order_id', 'p.order_id')
    .select(['p.payment_id', 'p.gateway_ref', 'p.amount', 'p.status', 'p.refund_status', 'o.order_number'])
    .where('o.order_token', '=', orderToken)
    .orderBy('p.payment_id')
    .execute();
const atGateway = async (gatewayRef: string) =>
  ((await (await fetch(`${gateway.url}/api/payments/${gatewayRef}`)).json()) as { status: string }).status;
const notify = (payload: unknown) => {
  const raw = JSON.stringify(payload);
  return fetch(`${api.baseUrl}/api/payments/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: sign(SECRET, raw) },
    body: raw,
  });
};
const paidNotice = (p: { gateway_ref: string; order_number: string; amount: number }) => ({
  notificationId: randomString(24),
  paymentId: p.gateway_ref,
  merchantRef: p.order_number,
  status: 'paid',
  amount: p.amount,
  currency: 'EUR',
  createdAt: new Date().toISOString(),
});
const orderOf = async (token: string) => (await api.get(`/api/orders/${token}`)).body.data as { paymentStatus: string };

const payPage = (redirectUrl: string | null) => fetch(`${redirectUrl}/pay`, { method: 'POST', redirect: 'manual' });
/** The operator's calls: a signed-in operator on the operator origin. */
const operatorGet = (path: string) => api.asOperator('GET', path);
const moveOrder = (number: string, state: string) => api.asOperator('POST', `/api/operator/orders/${number}/state`, { state });

describe('one order is paid at most once', () => {
  it('paying again cancels the older payment page at the gateway', async () => {
    const { order, redirectUrl: first } = await place();
    const again = await api.post<{ data: PlacedOrder }>(`/api/orders/${order.token}/pay`, {});
    expect(again.status).toBe(200);
    const [older, newer] = await payments(order.token);
    // In our database at once, at the gateway once the outbox has run.
    expect(older!.status).toBe('cancelled');
    await api.sideWorkDone();
    expect(await atGateway(older!.gateway_ref)).toBe('cancelled');
    // The old page no longer takes money; the new one does.
    expect((await payPage(first)).status).toBe(303);
    expect(await atGateway(older!.gateway_ref)).toBe('cancelled');
    expect((await orderOf(order.token)).paymentStatus).toBe('pending');
    await payPage(again.body.data.redirectUrl);
    expect(await atGateway(newer!.gateway_ref)).toBe('paid');
    expect((await orderOf(order.token)).paymentStatus).toBe('paid');
    expect((await payments(order.token)).map((p) => p.refund_status)).toEqual([null, null]);
  });

  it('the page that pays the order closes the other open page at the gateway', async () => {
    const { order, redirectUrl: first } = await place();
    gateway.holdNotifications();
    // The shopper pays the first page; its notification is slow, so the shopper starts paying again.
    await payPage(first);
    const again = await api.post<{ data: PlacedOrder }>(`/api/orders/${order.token}/pay`, {});
    expect(again.status).toBe(200);
    await api.sideWorkDone(); // the cancel of the first page: the gateway answers it was paid already
    await gateway.releaseNotifications();
    await api.sideWorkDone();
    const [older, newer] = await payments(order.token);
    expect(older).toMatchObject({ status: 'paid', refund_status: null });
    expect(newer).toMatchObject({ status: 'cancelled', refund_status: null });
    expect(await atGateway(newer!.gateway_ref)).toBe('cancelled');
    await payPage(again.body.data.redirectUrl);
    expect(await atGateway(newer!.gateway_ref)).toBe('cancelled');
    expect((await orderOf(order.token)).paymentStatus).toBe('paid');
  });

  it('both pages paid at the gateway at the same moment: exactly one counts, the other is refunded and listed for the operator', async () => {
    const { order, redirectUrl: first } = await place();
    gateway.holdNotifications();
    await payPage(first);
    const again = await api.post<{ data: PlacedOrder }>(`/api/orders/${order.token}/pay`, {});
    await api.sideWorkDone();
    // The second page is paid before the first payment's notification has arrived: the gateway
    // holds the money of both, and both notifications reach the shop at the same moment.
    await payPage(again.body.data.redirectUrl);
    await gateway.releaseNotifications();
    await api.sideWorkDone();

    const both = await payments(order.token);
    expect(both.map((p) => p.status)).toEqual(['paid', 'paid']);
    const kept = both.filter((p) => p.refund_status === null);
    const refunded = both.filter((p) => p.refund_status === 'refunded');
    expect(kept).toHaveLength(1);
    expect(refunded).toHaveLength(1);
    expect(await atGateway(kept[0]!.gateway_ref)).toBe('paid');
    expect(await atGateway(refunded[0]!.gateway_ref)).toBe('refunded');
    expect((await orderOf(order.token)).paymentStatus).toBe('paid');

    const list = await operatorGet('/api/operator/payments/refunds');
    expect(list.status).toBe(200);
    const entry = (list.body.data as { gatewayRef: string }[]).find((r) => r.gatewayRef === refunded[0]!.gateway_ref);
    expect(entry).toMatchObject({
      orderNumber: order.number,
      amountCents: refunded[0]!.amount,
      status: 'refunded',
      reason: expect.stringMatching(/^Duplicitná platba/),
    });
    expect(entry).toMatchObject({ paidAt: expect.any(String), refundedAt: expect.any(String) });
    expect((await api.ops('GET', '/api/operator/payments/refunds')).status).toBe(401);
    expect((await api.get('/api/operator/payments/refunds')).status).toBe(404);
    const metrics = await api.metrics();
    expect(metrics.text).toMatch(/shop_payment_notifications_total\{outcome="refund"\} [1-9]/);
  });

  it('two paid notifications of one order at the same moment: one is applied, the other refunded', async () => {
    const { order } = await place();
    await api.post(`/api/orders/${order.token}/pay`, {});
    const [a, b] = await payments(order.token);
    const answers = await Promise.all(
      [notify(paidNotice(a!)), notify(paidNotice(b!))].map(
        async (r) => ((await (await r).json()) as { data: { result: string } }).data.result,
      ),
    );
    expect(answers.sort()).toEqual(['applied', 'refund']);
    const after = await payments(order.token);
    expect(after.every((p) => p.status === 'paid')).toBe(true);
    expect(after.filter((p) => p.refund_status !== null)).toHaveLength(1);
    expect((await orderOf(order.token)).paymentStatus).toBe('paid');
    // The gateway never took these hand-made payments: it refuses the refund, and the operator sees it failed.
    await api.sideWorkDone();
    const refused = (await payments(order.token)).find((p) => p.refund_status !== null)!;
    expect(refused.refund_status).toBe('failed');
    // Refunded by hand at the gateway, the operator records it: once, and in the audit log under its name.
    const byHand = `/api/operator/payments/${refused.payment_id}/refunded`;
    // Two operators' clicks at the same moment: one records it, the other is told it is done already.
    const both = await Promise.all([
      api.asOperator('POST', byHand, { note: 'vrátené ručne v portáli brány' }),
      api.asOperator('POST', byHand, { note: 'vrátené ručne v portáli brány' }),
    ]);
    expect(both.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const recorded = both.find((answer) => answer.status === 200)!;
    expect(recorded.body.data).toMatchObject({ paymentId: refused.payment_id, status: 'refunded', refundedAt: expect.any(String) });
    expect((await api.asOperator('POST', byHand, { note: 'znova' })).status).toBe(409);
    const { name } = await api.operator();
    const log = (await releaseIdentities(api.db).recent(10)).map((row) => `${row.actor} ${row.action} ${row.detail}`);
    expect(log.filter((line) => line.includes('refund-by-hand'))).toEqual([
      `${name} refund-by-hand platba ${refused.payment_id}, objednávka ${order.number}: vrátené ručne v portáli brány`,
    ]);
  });

  it('a payment that arrives for an order cancelled meanwhile is refunded', async () => {
    const { order, redirectUrl } = await place();
    gateway.holdNotifications();
    await payPage(redirectUrl);
    expect((await moveOrder(order.number, 'cancelled')).status).toBe(200);
    await api.sideWorkDone();
    await gateway.releaseNotifications();
    await api.sideWorkDone();
    const [p] = await payments(order.token);
    expect(p).toMatchObject({ status: 'paid', refund_status: 'refunded' });
    expect(await atGateway(p!.gateway_ref)).toBe('refunded');
    const list = await operatorGet('/api/operator/payments/refunds');
    expect(list.body.data).toContainEqual(
      expect.objectContaining({ orderNumber: order.number, status: 'refunded', reason: expect.stringMatching(/zrušení objednávky/) }),
    );
    expect((await api.post(`/api/orders/${order.token}/pay`, {})).status).toBe(409);
  });

  it('an order the operator cancels closes its open payment page', async () => {
    const { order, redirectUrl } = await place();
    expect((await moveOrder(order.number, 'cancelled')).status).toBe(200);
    await api.sideWorkDone();
    const [p] = await payments(order.token);
    expect(p!.status).toBe('cancelled');
    expect(await atGateway(p!.gateway_ref)).toBe('cancelled');
    await payPage(redirectUrl);
    expect(await atGateway(p!.gateway_ref)).toBe('cancelled');
  });
});

describe('the gateway simulator cancels and refunds only when signed, idempotently', () => {
  const action = (gatewayRef: string, kind: 'cancel' | 'refund', secret = SECRET) => {
    const raw = JSON.stringify({ paymentId: gatewayRef, reason: 'test' });
    return fetch(`${gateway.url}/api/payments/${gatewayRef}/${kind}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: sign(secret, raw) },
      body: raw,
    });
  };

  it('cancel: 200 twice, 409 once paid; refund: 409 until paid, then 200 twice; a bad signature 401', async () => {
    const { order: a } = await place();
    const [pa] = await payments(a.token);
    expect((await action(pa!.gateway_ref, 'cancel', 'wrong-secret')).status).toBe(401);
    expect((await action(pa!.gateway_ref, 'refund')).status).toBe(409);
    expect((await action(pa!.gateway_ref, 'cancel')).status).toBe(200);
    expect((await action(pa!.gateway_ref, 'cancel')).status).toBe(200);
    expect(await atGateway(pa!.gateway_ref)).toBe('cancelled');

    const { order: b, redirectUrl } = await place();
    const [pb] = await payments(b.token);
    await payPage(redirectUrl);
    expect((await action(pb!.gateway_ref, 'cancel')).status).toBe(409);
    expect((await action(pb!.gateway_ref, 'refund')).status).toBe(200);
    expect((await action(pb!.gateway_ref, 'refund')).status).toBe(200);
    expect(await atGateway(pb!.gateway_ref)).toBe('refunded');
  });
});

describe('notifications are checked for shape and currency', () => {
  it.each([
    ['null', null],
    ['an array', [1, 2]],
    ['a string', 'paid'],
    ['another currency', { currency: 'CZK' }],
    ['no notification id', { notificationId: undefined }],
    ['an amount that is not an integer', { amount: 12.5 }],
    ['an unknown status', { status: 'refunded' }],
    ['no creation time', { createdAt: undefined }],
    ['an amount as text', { amount: '1000' }],
    ['an over-long notification id', { notificationId: 'n'.repeat(101) }],
    ['a merchant reference as a number', { merchantRef: 2026 }],
  ])('%s is refused with 400 and changes nothing', async (_what, change) => {
    const { order } = await place();
    const [p] = await payments(order.token);
    const payload = change === null || Array.isArray(change) || typeof change === 'string' ? change : { ...paidNotice(p!), ...change };
    const res = await notify(payload);
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { error: { message: string } };
    expectErrorShape(answer, 'bad_request');
    expect(answer.error.message).toMatch(/^Neplatná notifikácia/);
    expect((await orderOf(order.token)).paymentStatus).toBe('pending');
    expect((await payments(order.token))[0]!.status).toBe('created');
    expect(
      await api.db.selectFrom('payment_notifications').select('notification_id').where('gateway_ref', '=', p!.gateway_ref).execute(),
    ).toEqual([]);
  });

  it('a null body with a wrong signature is refused with 401', async () => {
    const res = await fetch(`${api.baseUrl}/api/payments/notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: sign('wrong', 'null') },
      body: 'null',
    });
    expect(res.status).toBe(401);
    expectErrorShape(await res.json(), 'unauthorized');
  });
});

describe('a gateway that never answers', () => {
  let hanging: Server;
  let slowApi: TestApi;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    hanging = createServer((socket) => void sockets.push(socket)); // accepts, reads nothing, answers nothing
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const port = (hanging.address() as { port: number }).port;
    slowApi = await startTestApi({
      checkout: (dataDir) => ({ ...defaultCheckoutOptions(dataDir), gateway: { url: `http://127.0.0.1:${port}`, secret: SECRET } }),
    });
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => hanging.close(resolve));
    await slowApi?.close();
  });

  it('does not hold the order: it is accepted in under a second, to be paid again later', async () => {
    const started = performance.now();
    const res = await slowApi.post<{ data: PlacedOrder }>('/api/orders', body());
    const ms = performance.now() - started;
    console.info(`order answered in ${Math.round(ms)} ms with a gateway that never answers`);
    expect(res.status).toBe(201);
    expect(ms).toBeLessThan(2000);
    expect(res.body.data.redirectUrl).toBeNull();
    expect(res.body.data.order.canRetryPayment).toBe(true);
    const stored = await slowApi.db
      .selectFrom('orders')
      .select('order_number')
      .where('order_token', '=', res.body.data.order.token)
      .executeTakeFirst();
    expect(stored?.order_number).toBe(res.body.data.order.number);

    // Paying again meets the same gateway: a quick 503 in the error shape, and the order stays payable.
    const retryStarted = performance.now();
    const retry = await slowApi.post(`/api/orders/${res.body.data.order.token}/pay`, {});
    expect(performance.now() - retryStarted).toBeLessThan(2000);
    expect(retry.status).toBe(503);
    expectErrorShape(retry.body, 'internal');
    expect(retry.body.error.message).toMatch(/^Platobná brána je momentálne nedostupná/);
    expect((await slowApi.get(`/api/orders/${res.body.data.order.token}`)).body.data.canRetryPayment).toBe(true);
  });
});

describe('quantities', () => {
  it('repeated lines are merged before the per-line limit', async () => {
    const lines = Array.from({ length: 3 }, () => ({ v_id: variants[0]!, amount: BASKET_LIMITS.lineAmount - 1 }));
    for (const path of ['/api/checkout/quote', '/api/orders']) {
      const res = await api.post(path, path === '/api/orders' ? body({ lines }) : { lines });
      expect(res.status, path).toBe(422);
      expectErrorShape(res.body, 'validation_failed');
      expect(res.body.error.message).toMatch(/najviac 10\s000 ks/);
    }
    const atLimit = await api.post('/api/checkout/quote', {
      lines: [
        { v_id: variants[0]!, amount: BASKET_LIMITS.lineAmount / 2 },
        { v_id: variants[0]!, amount: BASKET_LIMITS.lineAmount / 2 },
      ],
    });
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.data.lines[0].amount).toBe(BASKET_LIMITS.lineAmount);
  });

  it('the whole basket is bounded too: distinct items, pieces in all, lines sent', async () => {
    const within = variants.map((v_id) => ({ v_id, amount: BASKET_LIMITS.lineAmount }));
    expect((await api.post('/api/checkout/quote', { lines: within })).status).toBe(200);
    // The limits are checked before the catalog is read, so made-up ids show them too.
    const distinct = Array.from({ length: BASKET_LIMITS.lines + 1 }, (_, i) => ({ v_id: 1_000_000 + i, amount: 1 }));
    const pieces = Array.from({ length: Math.floor(BASKET_LIMITS.totalAmount / BASKET_LIMITS.lineAmount) + 1 }, (_, i) => ({
      v_id: 1_000_000 + i,
      amount: BASKET_LIMITS.lineAmount,
    }));
    for (const path of ['/api/checkout/quote', '/api/orders']) {
      for (const [lines, limit] of [
        [distinct, /najviac 100 rôznych položiek/],
        [pieces, /spolu najviac 50\s000 ks/],
      ] as const) {
        const res = await api.post(path, path === '/api/orders' ? body({ lines: [...lines] }) : { lines });
        expect(res.status, path).toBe(422);
        expectErrorShape(res.body, 'validation_failed');
        expect(res.body.error.message).toMatch(limit);
      }
    }
    const tooMany = Array.from({ length: BASKET_LIMITS.lines * 2 + 1 }, () => ({ v_id: variants[0]!, amount: 1 }));
    expect((await api.post('/api/checkout/quote', { lines: tooMany })).status).toBe(400);
  });

  it.each([
    ['"0x10"', '"0x10"'],
    ['"16"', '"16"'],
    ['1e9', '1e9'],
    ['-1', '-1'],
    ['0', '0'],
    ['1.5', '1.5'],
    ['null', 'null'],
  ])('an amount of %s is refused by the quote and the order', async (_what, amount) => {
    const line = `{"v_id":${variants[0]},"amount":${amount}}`;
    const quote = await api.request('POST', '/api/checkout/quote', { raw: `{"lines":[${line}]}` });
    expect(quote.status).toBe(400);
    expectErrorShape(quote.body, 'validation_failed');
    const order = await api.request('POST', '/api/orders', {
      raw: JSON.stringify(body({ lines: [] })).replace('"lines":[]', `"lines":[${line}]`),
    });
    expect(order.status).toBe(400);
    expectErrorShape(order.body, 'validation_failed');
  });
});
