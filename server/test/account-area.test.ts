/**
 * The account area: sign-up, password reset, profile, password change, account
 * deletion, addresses and the checkout prefill, order history with states, withdrawal and
 * complaints with photos; ownership, expired and tampered tokens on every call.
 * Real HTTP against a real database (SQLite, or PostgreSQL with DATABASE_URL).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AccountOrderDetail,
  Address,
  CheckoutContact,
  Complaint,
  PlaceOrderBody,
  PlacedOrder,
  Profile,
} from '@shop/shared-kernel/contract';
import { randomString } from '@shop/shared-kernel/rules';
import { DEFAULT_IBAN } from '../src/infra/checkout-options.ts';
import { releaseIdentities } from '../src/domains/releases/identities.repository.ts';
import { expectErrorShape, startTestApi, type TestApi } from './helpers/test-api.ts';
import { testContact } from './helpers/checkout-contact.ts';

let api: TestApi;
let variants: number[];

const contact: CheckoutContact = testContact;

/** A fresh account (sign-up, then sign-in) so tests do not share state. */
async function newUser(prefix = 'u') {
  const email = `${prefix}-${randomString(8).toLowerCase()}@example.sk`;
  const reg = await api.post('/api/account/register', { email, password: 'Heslo123!', name: 'Testovací Zákazník' });
  expect(reg.status).toBe(202);
  const { token, userId } = await api.login(email, 'Heslo123!');
  return { email, token, userId };
}

async function placeOrder(token: string, overrides: Partial<PlaceOrderBody> = {}) {
  const body: PlaceOrderBody = {
    idempotencyKey: randomString(32),
    lines: [
      { v_id: variants[0]!, amount: 2 },
      { v_id: variants[1]!, amount: 1 },
    ],
    contact,
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

async function delivered(token: string, overrides: Partial<PlaceOrderBody> = {}) {
  const order = await placeOrder(token, overrides);
  for (const state of ['shipped', 'delivered']) expect((await move(order.number, state)).status).toBe(200);
  return order;
}

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

/** Quoted-printable bodies wrap lines; this undoes it enough to find links. */
const unwrap = (mail: string) => mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

beforeAll(async () => {
  api = await startTestApi({
    // This file signs up many accounts from one address; account-rate-limit.test.ts tests the limits.
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
  const rows = await api.db
    .selectFrom('variants')
    .select('v_id')
    .where('v_availability', '=', 'in_stock')
    .where('v_stock', '>=', 100)
    .where('v_weight', '<=', 1_000)
    .where('v_weight', '>', 0)
    .orderBy('v_id')
    .limit(3)
    .execute();
  variants = rows.map((r) => r.v_id);
  expect(variants.length).toBe(3);
});
afterAll(async () => {
  await api?.close();
});

describe('sign-up', () => {
  it('creates an account that can sign in, and sends a welcome e-mail', async () => {
    const { email, token } = await newUser('reg');
    await api.sideWorkDone();
    expect(outbox(email).some((m) => m.includes('Vitajte'))).toBe(true);
    const me = await api.get('/api/account/me', token);
    expect(me.body.data).toMatchObject({ email, name: 'Testovací Zákazník' });
  });

  it('answers the same for a registered e-mail, keeps its password, and tells the owner by e-mail', async () => {
    const fresh = await api.post('/api/account/register', {
      email: `novy-${randomString(6).toLowerCase()}@example.sk`,
      password: 'Heslo123!',
      name: 'Nový Zákazník',
    });
    const taken = await api.post('/api/account/register', { email: 'Zakaznik@example.sk', password: 'Ine12345!', name: 'Útočník Zlý' });
    expect(taken.status).toBe(fresh.status);
    expect(taken.body).toEqual(fresh.body);
    expect((await api.post('/api/account/login', { email: 'zakaznik@example.sk', password: 'Ine12345!' })).status).toBe(401);
    await api.sideWorkDone();
    expect(outbox('zakaznik@example.sk').some((m) => m.includes('niekto sa pok'))).toBe(true);
  });

  it('validates the e-mail, the name and the password strength (422)', async () => {
    for (const body of [
      { email: 'zly-email', password: 'Heslo123!', name: 'Ján Novák' },
      { email: 'ok@example.sk', password: 'kratke1', name: 'Ján Novák' },
      { email: 'ok@example.sk', password: 'beznumeru', name: 'Ján Novák' },
      { email: 'ok@example.sk', password: 'Heslo123!', name: 'Ján' },
    ]) {
      const res = await api.post('/api/account/register', body);
      expect(res.status).toBe(422);
      expectErrorShape(res.body, 'validation_failed');
    }
    expect((await api.post('/api/account/register', { email: 'ok@example.sk' })).status).toBe(400);
  });
});

describe('password reset', () => {
  it('e-mails a one-time link; the new password works, the old one and old sessions do not', async () => {
    const { email, token: oldSession } = await newUser('reset');
    const asked = await api.post('/api/account/password-reset', { email });
    const unknown = await api.post('/api/account/password-reset', { email: 'nikto-reset@example.sk' });
    expect(asked.status).toBe(202);
    expect(unknown.body).toEqual(asked.body);
    await api.sideWorkDone();
    const mail = unwrap(outbox(email).find((m) => m.includes('password-reset?token='))!);
    const link = /http:\/\/shop\.test\/account\/password-reset\?token=([A-Za-z0-9_-]+)/.exec(mail)![1]!;

    const weak = await api.post('/api/account/password-reset/confirm', { token: link, password: 'slabe' });
    expect(weak.status).toBe(422);
    const ok = await api.post('/api/account/password-reset/confirm', { token: link, password: 'NoveHeslo9' });
    expect(ok.status).toBe(200);
    const again = await api.post('/api/account/password-reset/confirm', { token: link, password: 'InéHeslo10' });
    expect(again.status).toBe(400);
    expectErrorShape(again.body, 'bad_request');
    expect((await api.post('/api/account/login', { email, password: 'Heslo123!' })).status).toBe(401);
    expect((await api.post('/api/account/login', { email, password: 'NoveHeslo9' })).status).toBe(200);
    expect((await api.get('/api/account/profile', oldSession)).status).toBe(401);
  });

  it('refuses an expired or made-up link', async () => {
    const { email } = await newUser('reset2');
    await api.post('/api/account/password-reset', { email });
    await api.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    await api.sideWorkDone();
    const mail = unwrap(outbox(email).find((m) => m.includes('password-reset?token='))!);
    const link = /password-reset\?token=([A-Za-z0-9_-]+)/.exec(mail)![1]!;
    expect((await api.post('/api/account/password-reset/confirm', { token: link, password: 'NoveHeslo9' })).status).toBe(400);
    expect((await api.post('/api/account/password-reset/confirm', { token: 'vymyslene', password: 'NoveHeslo9' })).status).toBe(400);
  });
});

describe('profile', () => {
  it('reads and updates name, phone, company data and the newsletter choice with the checkout rules', async () => {
    const { email, token } = await newUser('prof');
    const read = await api.get<{ data: Profile }>('/api/account/profile', token);
    expect(read.body.data).toMatchObject({ email, phone: '', company: null, newsletter: false });
    const bad = await api.request('PUT', '/api/account/profile', {
      token,
      json: {
        name: 'Jana Nová',
        email,
        phone: '12345',
        company: { name: 'Firma s.r.o.', ico: '123', dic: '2020', icDph: 'X' },
        newsletter: true,
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain('IČO má 8 číslic.');
    const good = await api.request<{ data: Profile }>('PUT', '/api/account/profile', {
      token,
      json: {
        name: 'Jana  Nová',
        email,
        phone: '0905 111 222',
        company: { name: 'Firma s.r.o.', ico: '12345678', dic: '2020123456', icDph: 'sk2020123456' },
        newsletter: true,
      },
    });
    expect(good.status).toBe(200);
    expect(good.body.data).toMatchObject({
      name: 'Jana Nová',
      phone: '+421905111222',
      newsletter: true,
      company: { ico: '12345678', icDph: 'SK2020123456' },
    });
  });

  it('changing the e-mail needs the password and the link sent to the new address; taken and free addresses answer alike', async () => {
    const { email, token } = await newUser('mail');
    const base = { name: 'Jana Nová', phone: '', company: null, newsletter: false };
    const other = `zmena-${randomString(6).toLowerCase()}@example.sk`;
    expect((await api.request('PUT', '/api/account/profile', { token, json: { ...base, email: other } })).status).toBe(403);

    // Another customer's address: the same answer as a free one (no account-enumeration oracle); its owner is told.
    const taken = await api.request('PUT', '/api/account/profile', {
      token,
      json: { ...base, email: 'zakaznik@example.sk', currentPassword: 'Heslo123!' },
    });
    const free = await api.request('PUT', '/api/account/profile', { token, json: { ...base, email: other, currentPassword: 'Heslo123!' } });
    expect([taken.status, free.status]).toEqual([200, 200]);
    expect(Object.keys(taken.body.data).sort()).toEqual(Object.keys(free.body.data).sort());
    expect(taken.body.data.email).toBe(email);
    expect(taken.body.data.pendingEmail).toBe('zakaznik@example.sk');
    expect(free.body.data).toMatchObject({ email, pendingEmail: other });
    await api.sideWorkDone();
    expect(outbox('zakaznik@example.sk').some((m) => m.includes('zmena-emailu-obsadeny') || m.includes('pokúsil nastaviť'))).toBe(true);

    // Nothing changes until the link is opened; the newer request replaced the older one.
    expect((await api.post('/api/account/login', { email: other, password: 'Heslo123!' })).status).toBe(401);
    const mail = unwrap(outbox(other).find((m) => m.includes('emailToken='))!);
    const link = /emailToken=([\w-]+)/.exec(mail)![1]!;
    const confirmed = await api.post('/api/account/email/confirm', { token: link }, token);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({ email: other, pendingEmail: null });
    expect((await api.post('/api/account/email/confirm', { token: link }, token)).status).toBe(400);
    expect((await api.post('/api/account/login', { email: other, password: 'Heslo123!' })).status).toBe(200);
  });

  it('password change: needs the current password, ends other sessions, answers a working token', async () => {
    const { email, token } = await newUser('pwd');
    const second = await api.login(email, 'Heslo123!');
    expect((await api.post('/api/account/password', { currentPassword: 'zle', newPassword: 'NoveHeslo9' }, token)).status).toBe(403);
    expect((await api.post('/api/account/password', { currentPassword: 'Heslo123!', newPassword: 'slabe' }, token)).status).toBe(422);
    const res = await api.post<{ data: { token: string } }>(
      '/api/account/password',
      { currentPassword: 'Heslo123!', newPassword: 'NoveHeslo9' },
      token,
    );
    expect(res.status).toBe(200);
    expect((await api.get('/api/account/profile', res.body.data.token)).status).toBe(200);
    expect((await api.get('/api/account/profile', token)).status).toBe(401);
    expect((await api.get('/api/account/profile', second.token)).status).toBe(401);
  });

  it('account deletion anonymises personal data, keeps the orders, and ends the sessions', async () => {
    const { email, token, userId } = await newUser('del');
    await api.post(
      '/api/account/addresses',
      { kind: 'billing', name: 'Jana Nová', street: 'Dlhá 1', city: 'Nitra', zip: '949 01', isDefault: true },
      token,
    );
    const order = await placeOrder(token);
    expect((await api.post('/api/account/delete', { password: 'zle' }, token)).status).toBe(403);
    expect((await api.post('/api/account/delete', { password: 'Heslo123!' }, token)).status).toBe(200);
    expect((await api.get('/api/account/profile', token)).status).toBe(401);
    expect((await api.post('/api/account/login', { email, password: 'Heslo123!' })).status).toBe(401);
    const user = await api.db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(user.email).not.toContain(email.split('@')[0]!);
    expect(user.name).toBe('Zmazaný zákazník');
    expect(user.deleted_at).not.toBeNull();
    expect(await api.db.selectFrom('addresses').selectAll().where('user_id', '=', userId).execute()).toEqual([]);
    const kept = await api.db.selectFrom('orders').select(['order_number']).where('order_token', '=', order.token).executeTakeFirst();
    expect(kept?.order_number).toBe(order.number);
    // The e-mail is free for a new account.
    expect((await api.post('/api/account/register', { email, password: 'Heslo123!', name: 'Nová Jana' })).status).toBe(202);
    expect((await api.post('/api/account/login', { email, password: 'Heslo123!' })).status).toBe(200);
  });
});

describe('addresses', () => {
  const billing = { kind: 'billing', name: 'Jana Nová', street: 'Dlhá 1', city: 'Nitra', zip: '949 01', isDefault: false };

  it('add, edit, delete and choose the default; the first of a kind becomes the default', async () => {
    const { token } = await newUser('addr');
    const a = await api.post<{ data: Address }>('/api/account/addresses', billing, token);
    expect(a.status).toBe(201);
    expect(a.body.data).toMatchObject({ zip: '94901', isDefault: true });
    const b = await api.post<{ data: Address }>('/api/account/addresses', { ...billing, street: 'Krátka 2', isDefault: true }, token);
    const list = await api.get<{ data: Address[] }>('/api/account/addresses', token);
    expect(list.body.data.filter((x) => x.isDefault).map((x) => x.id)).toEqual([b.body.data.id]);
    const edited = await api.request<{ data: Address }>('PUT', `/api/account/addresses/${a.body.data.id}`, {
      token,
      json: { ...billing, city: 'Trnava', isDefault: true },
    });
    expect(edited.body.data).toMatchObject({ city: 'Trnava', isDefault: true });
    expect((await api.request('DELETE', `/api/account/addresses/${a.body.data.id}`, { token })).status).toBe(200);
    const after = await api.get<{ data: Address[] }>('/api/account/addresses', token);
    expect(after.body.data).toEqual([expect.objectContaining({ id: b.body.data.id, isDefault: true })]);
    const invalid = await api.post('/api/account/addresses', { ...billing, zip: '123', street: 'Bez čísla' }, token);
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.message).toContain('PSČ má 5 číslic');
  });

  it('prefills the checkout from the profile and the default addresses', async () => {
    const { email, token } = await newUser('pre');
    await api.post('/api/account/addresses', { ...billing, isDefault: true }, token);
    await api.post(
      '/api/account/addresses',
      { kind: 'delivery', name: 'Stavba Novák', street: 'Poľná 7', city: 'Senec', zip: '90301', isDefault: true },
      token,
    );
    await api.request('PUT', '/api/account/profile', {
      token,
      json: { name: 'Jana Nová', email, phone: '0905 111 222', company: null, newsletter: false },
    });
    const res = await api.get<{ data: { contact: CheckoutContact } }>('/api/account/checkout-prefill', token);
    expect(res.body.data.contact).toEqual({
      email,
      phone: '+421905111222',
      name: 'Jana Nová',
      billing: { street: 'Dlhá 1', city: 'Nitra', zip: '94901' },
      company: null,
      delivery: { name: 'Stavba Novák', street: 'Poľná 7', city: 'Senec', zip: '90301' },
    });
  });

  it('never shows or changes another customer’s address', async () => {
    const owner = await newUser('own');
    const other = await newUser('oth');
    const a = await api.post<{ data: Address }>('/api/account/addresses', billing, owner.token);
    const id = a.body.data.id;
    expect((await api.get<{ data: Address[] }>('/api/account/addresses', other.token)).body.data).toEqual([]);
    const put = await api.request('PUT', `/api/account/addresses/${id}`, { token: other.token, json: { ...billing, city: 'Cudzie' } });
    const del = await api.request('DELETE', `/api/account/addresses/${id}`, { token: other.token });
    for (const res of [put, del]) {
      expect(res.status).toBe(404);
      expectErrorShape(res.body, 'not_found');
    }
    expect((await api.get<{ data: Address[] }>('/api/account/addresses', owner.token)).body.data[0]!.city).toBe('Nitra');
  });
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

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 1)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 2)]);

function complaintForm(token: string, itemId: number, photos: { data: Buffer; name: string; type: string }[] = []) {
  const form = new FormData();
  form.set('orderToken', token);
  form.set('itemId', String(itemId));
  form.set('reason', 'damaged');
  form.set('description', 'Vrece prišlo roztrhnuté, polovica obsahu chýba.');
  for (const p of photos) form.append('photos', new Blob([new Uint8Array(p.data)], { type: p.type }), p.name);
  return form;
}
const postComplaint = (form: FormData, token?: string) =>
  fetch(`${api.baseUrl}/api/account/complaints`, {
    method: 'POST',
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

describe('complaints', () => {
  it('files a complaint with photos for a delivered line; lists it with state and the 30-day deadline; photos only for the owner', async () => {
    const { token } = await newUser('rk');
    const other = await newUser('rk2');
    const order = await delivered(token);
    const itemId = (await api.get<{ data: AccountOrderDetail }>(`/api/account/orders/${order.token}`, token)).body.data.lines[1]!.itemId;
    const res = await postComplaint(
      complaintForm(order.token, itemId, [
        { data: JPEG, name: 'a.jpg', type: 'image/jpeg' },
        { data: PNG, name: 'b.png', type: 'image/png' },
      ]),
      token,
    );
    expect(res.status).toBe(201);
    const complaint = ((await res.json()) as { data: Complaint }).data;
    expect(complaint).toMatchObject({ orderNumber: order.number, itemId, reason: 'damaged', state: 'received' });
    expect(complaint.photos.map((p) => p.contentType)).toEqual(['image/jpeg', 'image/png']);
    expect(Date.parse(complaint.settleBy) - Date.parse(complaint.createdAt)).toBe(30 * 86_400_000);
    const list = await api.get<{ data: Complaint[] }>('/api/account/complaints', token);
    expect(list.body.data.map((c) => c.id)).toEqual([complaint.id]);
    expect((await api.get<{ data: Complaint[] }>('/api/account/complaints', other.token)).body.data).toEqual([]);

    const photoUrl = `/api/account/complaints/${complaint.id}/photos/${complaint.photos[0]!.id}`;
    const mine = await fetch(`${api.baseUrl}${photoUrl}`, { headers: { authorization: `Bearer ${token}` } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await mine.arrayBuffer()).equals(JPEG)).toBe(true);
    expect((await api.get(photoUrl, other.token)).status).toBe(404);
    expect((await api.get(photoUrl)).status).toBe(401);

    const moved = await api.asOperator('POST', `/api/operator/complaints/${complaint.id}/state`, {
      state: 'accepted',
      resolution: 'Vymeníme tovar.',
    });
    expect(moved.status).toBe(200);
    const { name } = await api.operator();
    expect((await releaseIdentities(api.db).recent(5)).map((row) => `${row.actor} ${row.action} ${row.detail}`)).toContain(
      `${name} complaint-state reklamácia ${complaint.id} → accepted`,
    );
    expect((await api.get<{ data: Complaint[] }>('/api/account/complaints', token)).body.data[0]).toMatchObject({
      state: 'accepted',
      resolution: 'Vymeníme tovar.',
    });
  });

  it('checks photos by their bytes and size, and refuses lines not delivered', async () => {
    const { token } = await newUser('rk3');
    const order = await delivered(token);
    const itemId = (await api.get<{ data: AccountOrderDetail }>(`/api/account/orders/${order.token}`, token)).body.data.lines[0]!.itemId;
    const fake = await postComplaint(
      complaintForm(order.token, itemId, [{ data: Buffer.from('<svg onload=alert(1)>'), name: 'x.jpg', type: 'image/jpeg' }]),
      token,
    );
    expect(fake.status).toBe(422);
    expectErrorShape(await fake.json(), 'validation_failed');
    const big = Buffer.concat([JPEG, Buffer.alloc(5 * 1024 * 1024, 3)]);
    const tooBig = await postComplaint(complaintForm(order.token, itemId, [{ data: big, name: 'big.jpg', type: 'image/jpeg' }]), token);
    expect(tooBig.status).toBe(413);
    expectErrorShape(await tooBig.json(), 'bad_request');
    const short = complaintForm(order.token, itemId);
    short.set('description', 'zlé');
    expect((await postComplaint(short, token)).status).toBe(422);
    const notYet = await placeOrder(token);
    const notYetItem = (await api.get<{ data: AccountOrderDetail }>(`/api/account/orders/${notYet.token}`, token)).body.data.lines[0]!
      .itemId;
    expect((await postComplaint(complaintForm(notYet.token, notYetItem), token)).status).toBe(409);
    expect((await api.get<{ data: Complaint[] }>('/api/account/complaints', token)).body.data).toEqual([]);
    expect((await postComplaint(complaintForm(order.token, itemId))).status).toBe(401);
  });
});

describe('tokens on every account call', () => {
  const calls: [string, string, unknown?][] = [
    ['GET', '/api/account/profile'],
    ['PUT', '/api/account/profile', { name: 'A B', email: 'a@b.sk', phone: '', company: null, newsletter: false }],
    ['POST', '/api/account/password', { currentPassword: 'x', newPassword: 'y' }],
    ['POST', '/api/account/delete', { password: 'x' }],
    ['GET', '/api/account/addresses'],
    ['POST', '/api/account/addresses', { kind: 'billing', name: 'A B', street: 'Ulica 1', city: 'Mesto', zip: '01001', isDefault: false }],
    ['PUT', '/api/account/addresses/1', { kind: 'billing', name: 'A B', street: 'Ulica 1', city: 'Mesto', zip: '01001', isDefault: false }],
    ['DELETE', '/api/account/addresses/1'],
    ['GET', '/api/account/checkout-prefill'],
    ['GET', '/api/account/orders'],
    ['GET', `/api/account/orders/${'a'.repeat(32)}`],
    ['POST', `/api/account/orders/${'a'.repeat(32)}/withdraw`, { itemIds: [1], confirm: true }],
    ['GET', '/api/account/complaints'],
    ['GET', '/api/account/complaints/1/photos/1'],
  ];

  it('401 without a token, with an expired, a tampered or a foreign-signed token', async () => {
    const { token, userId } = await newUser('tok');
    const secret = new TextEncoder().encode(api.jwtSecret);
    const expired = await new SignJWT({ user_id: userId })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti('e')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(secret);
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, user_id: 1 })).toString('base64url')}.${s}`;
    const foreign = await new SignJWT({ user_id: userId })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti('f')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-of-another-shop'));
    for (const [method, path, json] of calls) {
      for (const bad of [undefined, expired, tampered, foreign]) {
        const res = await api.request(method, path, { json, token: bad });
        expect(res.status, `${method} ${path} with ${bad ? 'a bad token' : 'no token'}`).toBe(401);
        expectErrorShape(res.body, 'unauthorized');
      }
    }
  });
});
