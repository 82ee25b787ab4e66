/**
 * The shop the account-area tests ask (account-*.test.ts): the API with mail written to its outbox
 * directory and the shop's public address in the links, sign-ups from one address not limited
 * (account-rate-limit.test.ts tests the limits), and three light variants in stock to order. Test
 * files share their worker's modules, so each file makes its own: `accountArea()` at its top,
 * `start()` before its tests, `api.close()` after them.
 */
import { stockedLightVariants } from './stocked-variants.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { PlaceOrderBody, PlacedOrder } from '@shop/shared-kernel/contract';
import { randomString } from '@shop/shared-kernel/rules';
import { DEFAULT_IBAN } from '../../src/infra/checkout-options.ts';
import { testContact } from './checkout-contact.ts';
import { startTestApi, type TestApi } from './test-api.ts';

/** Quoted-printable bodies wrap lines; this undoes it enough to find links. */
export const unwrap = (mail: string) => mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

export function accountArea() {
  let api: TestApi;
  let variants: number[];

  async function start() {
    api = await startTestApi({
      // These files sign up many accounts from one address; account-rate-limit.test.ts tests the limits.
      authRateLimit: { perAddress: { max: 10_000, timeWindowMs: 60_000 }, perAccount: { max: 5, timeWindowMs: 60_000 } },
      checkout: (dataDir) => ({
        outboxDir: join(dataDir, 'outbox'),
        invoiceDir: join(dataDir, 'invoices'),
        smtpUrl: null,
        mailFrom: 'Stavebniny Domov <obchod@example.sk>',
        gateway: { url: null, secret: 'unused-secret' },
        publicUrl: 'http://shop.test',
        notifyUrl: null,
        iban: DEFAULT_IBAN,
      }),
    });
    variants = await stockedLightVariants(api.db, 3);
    expect(variants.length).toBe(3);
    return { api, variants };
  }

  /** A fresh account (sign-up, then sign-in) so tests do not share state. */
  async function newUser(prefix = 'u') {
    const email = `${prefix}-${randomString(8).toLowerCase()}@example.sk`;
    const reg = await api.post('/api/account/register', { email, password: 'Heslo123!', name: 'Testovací Zákazník' });
    expect(reg.status).toBe(202);
    const { token, userId } = await api.login(email, 'Heslo123!');
    return { email, token, userId };
  }

  /** An order of two of the first variant and one of the second, by courier, cash on delivery. */
  async function placeOrder(token: string, overrides: Partial<PlaceOrderBody> = {}) {
    const body: PlaceOrderBody = {
      idempotencyKey: randomString(32),
      lines: [
        { v_id: variants[0]!, amount: 2 },
        { v_id: variants[1]!, amount: 1 },
      ],
      contact: testContact,
      shippingCode: 'courier',
      paymentCode: 'cod',
      couponCode: null,
      note: '',
      termsAccepted: true,
      ...overrides,
    };
    const res = await api.post<{ data: PlacedOrder }>('/api/orders', body, token);
    expect(res.status).toBe(201);
    return res.body.data.order;
  }

  /** The operator moves an order (a signed-in operator on the operator origin; `token`: a Bearer token instead). */
  const move = async (number: string, state: string, token?: string) =>
    token
      ? api.ops('POST', `/api/operator/orders/${number}/state`, { json: { state }, token })
      : api.asOperator('POST', `/api/operator/orders/${number}/state`, { state });

  /** An order placed, shipped and delivered. */
  async function delivered(token: string, overrides: Partial<PlaceOrderBody> = {}) {
    const order = await placeOrder(token, overrides);
    for (const state of ['shipped', 'delivered']) expect((await move(order.number, state)).status).toBe(200);
    return order;
  }

  /** The mails in the outbox directory that contain `text`. */
  function outbox(text: string): string[] {
    const dir = join(api.dataDir, 'outbox');
    let files: string[] = [];
    try {
      files = readdirSync(dir);
    } catch {
      return [];
    }
    return files.map((f) => readFileSync(join(dir, f), 'utf8')).filter((c) => c.includes(text));
  }

  return { start, newUser, placeOrder, move, delivered, outbox };
}
