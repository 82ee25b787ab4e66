import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCheckoutOptions } from '../../src/infra/checkout-options.ts';
import { expectErrorShape, startTestApi, type TestApi } from '../helpers/test-api.ts';

let api: TestApi;
let outbox: string;
beforeAll(async () => {
  api = await startTestApi({
    checkout: (dataDir) => ({ ...defaultCheckoutOptions(dataDir), outboxDir: join(dataDir, 'outbox') }),
    contactRateLimit: { max: 4, timeWindowMs: 60_000 },
  });
  outbox = join(api.dataDir, 'outbox');
});
afterAll(async () => {
  await api?.close();
});

const mails = () => {
  try {
    return readdirSync(outbox)
      .filter((file) => file.endsWith('.eml'))
      .map((file) => readFileSync(join(outbox, file), 'utf8'));
  } catch {
    return [];
  }
};
const message = {
  name: 'Ján Novák',
  email: 'jan.novak@example.sk',
  phone: '0905 123 456',
  message: 'Prosím o cenovú ponuku na 2 palety tehál.',
};

describe('contact form (limit 4 a minute in this test)', () => {
  it('stores a valid message and sends it to the shop, answer to the customer', async () => {
    const sent = await api.post('/api/contact', message);
    expect(sent.status).toBe(201);
    const rows = await api.db.selectFrom('contact_messages').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'Ján Novák', email: 'jan.novak@example.sk', phone: '0905 123 456' });
    await api.sideWorkDone();
    const mail = mails().find((content) => content.includes('jan.novak@example.sk'))!;
    expect(mail).toContain('To: obchod@example.sk');
    expect(mail).toContain('Reply-To: jan.novak@example.sk');
    expect(mail).toMatch(/Subject: =\?UTF-8\?|Subject: Spr/);
  });

  it('refuses bad input with a Slovak message and stores nothing', async () => {
    const bad = await api.post('/api/contact', { ...message, email: 'jan@', message: 'krátka' });
    expect(bad.status).toBe(400);
    expectErrorShape(bad.body, 'validation_failed');
    expect((bad.body as { error: { message: string } }).error.message).toContain('e-mail');
    const missing = await api.post('/api/contact', { name: 'X' });
    expect(missing.status).toBe(400);
    expect(await api.db.selectFrom('contact_messages').selectAll().execute()).toHaveLength(1);
  });

  it('accepts a filled spam trap without storing or sending anything', async () => {
    const before = mails().length;
    const bot = await api.post('/api/contact', { ...message, website: 'http://spam.example' });
    expect(bot.status).toBe(201);
    expect(await api.db.selectFrom('contact_messages').selectAll().execute()).toHaveLength(1);
    await api.sideWorkDone();
    expect(mails()).toHaveLength(before);
  });

  it('limits the messages from one address', async () => {
    // Four requests were made above; the fifth in the window is refused.
    const limited = await api.post('/api/contact', message);
    expect(limited.status).toBe(429);
    expectErrorShape(limited.body, 'rate_limited');
    expect((limited.body as { error: { message: string } }).error.message).toBe(
      'Príliš veľa správ za krátky čas. Skúste to o chvíľu alebo nám zavolajte.',
    );
  });
});

describe('loyalty points', () => {
  it('needs sign-in and counts one point per whole euro of paid orders', async () => {
    expect((await api.get('/api/loyalty')).status).toBe(401);
    const { token, userId } = await api.login();
    const none = await api.get<{ data: { points: number; paidOrders: number } }>('/api/loyalty', token);
    expect(none.body.data).toMatchObject({ points: 0, paidOrders: 0, pointsPerEuro: 1 });

    const base = {
      request_hash: 'x',
      user_id: userId,
      email: 'a@b.sk',
      contact_json: '{}',
      shipping_code: 'courier',
      shipping_name: 'Kuriér',
      shipping_price: 0,
      shipping_vat: 23,
      payment_code: 'card',
      payment_name: 'Karta',
      payment_price: 0,
      payment_vat: 23,
      coupon_code: null,
      weight: 0,
      status: 'received',
      created_at: new Date().toISOString(),
    };
    const row = (n: number, total: number, paid: boolean) => ({
      ...base,
      order_number: `T${n}`,
      order_token: `t${n}`.padEnd(32, 'x'),
      idempotency_key: `k${n}`,
      total,
      amount_due: total,
      items_total: total,
      payment_status: paid ? 'paid' : 'pending',
      paid_at: paid ? new Date().toISOString() : null,
    });
    await api.db
      .insertInto('orders')
      .values([row(1, 45_990, true), row(2, 12_500, true), row(3, 99_000, false)])
      .execute();
    const some = await api.get<{ data: { points: number; paidOrders: number; paidTotal: number } }>('/api/loyalty', token);
    expect(some.body.data).toMatchObject({ points: 58, paidOrders: 2, paidTotal: 58_490 });
  });
});
