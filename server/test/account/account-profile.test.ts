/**
 * The account's own data: the profile (name, phone, company data, newsletter; an e-mail change
 * confirmed by a link to the new address), the password change, the account's deletion (personal
 * data anonymised, orders kept), and the addresses with the checkout prefill, never another
 * customer's.
 * Real HTTP against a real database (SQLite, or PostgreSQL with DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address, CheckoutContact, Profile } from '@shop/shared-kernel/contract';
import { randomString } from '@shop/shared-kernel/rules';
import { accountArea, unwrap } from '../helpers/account-area.ts';
import { expectErrorShape, type TestApi } from '../helpers/test-api.ts';

const area = accountArea();
const { newUser, placeOrder, outbox } = area;
let api: TestApi;

beforeAll(async () => {
  ({ api } = await area.start());
});
afterAll(async () => {
  await api?.close();
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
