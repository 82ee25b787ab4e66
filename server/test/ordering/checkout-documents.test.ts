/**
 * An order's documents and the operator's tools: the invoice PDF (a guest order's by its token, a
 * signed-in shopper's for that shopper only), and the operator routes (only a signed-in operator on
 * the operator origin, each call audited; /paid marks a bank transfer paid). Real HTTP against a
 * real database (SQLite, or PostgreSQL with DATABASE_URL).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CheckoutContact, OrderDetail } from '@shop/shared-kernel/contract';
import { releaseIdentities } from '../../src/domains/releases/identities.repository.ts';
import { testContact } from '../helpers/checkout-contact.ts';
import { checkoutShop } from '../helpers/checkout-shop.ts';
import type { TestApi } from '../helpers/test-api.ts';

const shop = checkoutShop();
const { body, place } = shop;
let api: TestApi;
let user: { token: string; userId: number };
let other: { token: string; userId: number };

const contact: CheckoutContact = testContact;

beforeAll(async () => {
  ({ api, user, other } = await shop.start());
});
afterAll(async () => {
  await shop.stop();
});
beforeEach(async () => {
  await api.db.deleteFrom('user_coupons').execute();
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
