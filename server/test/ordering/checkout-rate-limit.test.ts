/**
 * Issue 9: per-address limits on placing orders and pricing baskets (429 in the API's error
 * shape, in Slovak), the allow-list the load test uses, and the confirmation e-mail that is
 * written after the answer (side work) but still reaches the outbox.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceOrderBody } from '@shop/shared-kernel/contract';
import { randomString } from '@shop/shared-kernel/rules';
import { defaultCheckoutOptions } from '../../src/infra/checkout-options.ts';
import { RATE_LIMIT_MESSAGES } from '../../src/domains/ordering/checkout/rate-limit.ts';
import { expectErrorShape, startTestApi, type TestApi } from '../helpers/test-api.ts';
import { testContact } from '../helpers/checkout-contact.ts';

let limited: TestApi;
let allowed: TestApi;
let vId: number;

const limits = { orders: { max: 3, timeWindowMs: 60_000 }, quotes: { max: 4, timeWindowMs: 60_000 } };

beforeAll(async () => {
  const checkout = (dataDir: string) => ({ ...defaultCheckoutOptions(dataDir), outboxDir: join(dataDir, 'outbox') });
  limited = await startTestApi({ checkout, checkoutRateLimit: { ...limits, allowList: [] } });
  allowed = await startTestApi({ checkout, checkoutRateLimit: { ...limits, allowList: ['127.0.0.1', '::1', '::ffff:127.0.0.1'] } });
  const variant = await limited.db
    .selectFrom('variants')
    .select('v_id')
    .where('v_availability', '=', 'to_order')
    .where('v_weight', '<=', 2_000)
    .orderBy('v_id')
    .executeTakeFirstOrThrow();
  vId = variant.v_id;
});
afterAll(async () => {
  await limited?.close();
  await allowed?.close();
});

const order = (overrides: Partial<PlaceOrderBody> = {}): PlaceOrderBody => ({
  idempotencyKey: randomString(32),
  lines: [{ v_id: vId, amount: 1 }],
  contact: testContact,
  shippingCode: 'courier',
  paymentCode: 'transfer',
  couponCode: null,
  note: '',
  termsAccepted: true,
  ...overrides,
});

const outboxFiles = (api: TestApi) => {
  try {
    return readdirSync(join(api.dataDir, 'outbox'));
  } catch {
    return [];
  }
};

describe('per-address limits (POST /api/orders, POST /api/checkout/quote)', () => {
  it('places orders up to the limit, then answers 429 rate_limited in Slovak with Retry-After', async () => {
    for (let i = 0; i < limits.orders.max; i++) expect((await limited.post('/api/orders', order())).status).toBe(201);
    const refused = await limited.post('/api/orders', order());
    expect(refused.status).toBe(429);
    expectErrorShape(refused.body, 'rate_limited');
    expect(refused.body.error.message).toBe(RATE_LIMIT_MESSAGES.orders);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Nothing was stored for the refused one.
    const count = await limited.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(limits.orders.max);
  });

  it('limits quotes on their own counter', async () => {
    const body = { lines: [{ v_id: vId, amount: 2 }], shippingCode: 'courier', paymentCode: 'cod' };
    for (let i = 0; i < limits.quotes.max; i++) expect((await limited.post('/api/checkout/quote', body)).status).toBe(200);
    const refused = await limited.post('/api/checkout/quote', body);
    expect(refused.status).toBe(429);
    expectErrorShape(refused.body, 'rate_limited');
    expect(refused.body.error.message).toBe(RATE_LIMIT_MESSAGES.quotes);
  });

  it('does not limit the addresses of the allow-list (the load test on loopback)', async () => {
    for (let i = 0; i < limits.orders.max * 2; i++) expect((await allowed.post('/api/orders', order())).status).toBe(201);
    for (let i = 0; i < limits.quotes.max * 2; i++) {
      expect((await allowed.post('/api/checkout/quote', { lines: [{ v_id: vId, amount: 1 }] })).status).toBe(200);
    }
  });
});

describe('the confirmation e-mail after the answer', () => {
  it('still lands in the outbox for every new order, with the PAY by square code of a transfer', async () => {
    const placed = await Promise.all([1, 2, 3].map(() => allowed.post('/api/orders', order())));
    await allowed.sideWorkDone();
    const files = outboxFiles(allowed);
    for (const res of placed) {
      expect(res.status).toBe(201);
      const number = res.body.data.order.number as string;
      const mails = files.filter((f) => f.includes(`objednavka-${number}`));
      expect(mails, number).toHaveLength(1);
      const eml = readFileSync(join(allowed.dataDir, 'outbox', mails[0]!), 'utf8');
      expect(eml).toContain(`To: ${testContact.email}`);
      expect(eml).toContain('pay-by-square.png');
      // The answer's QR code and the e-mail's encode the same payment.
      expect(res.body.data.order.transfer.qrSvg).toContain('<svg');
    }
  });

  it('a replayed order (same idempotency key) sends no second e-mail', async () => {
    const body = order();
    const first = await allowed.post('/api/orders', body);
    const again = await allowed.post('/api/orders', body);
    expect([first.status, again.status]).toEqual([201, 200]);
    await allowed.sideWorkDone();
    expect(outboxFiles(allowed).filter((f) => f.includes(`objednavka-${first.body.data.order.number}`))).toHaveLength(1);
  });
});
