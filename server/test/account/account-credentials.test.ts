/**
 * Account credentials: sign-up (a welcome e-mail; a registered e-mail answered alike and its owner
 * told), the password reset by a one-time link, and every account call refusing a missing, expired,
 * tampered or foreign-signed token.
 * Real HTTP against a real database (SQLite, or PostgreSQL with DATABASE_URL).
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomString } from '@shop/shared-kernel/rules';
import { accountArea, unwrap } from '../helpers/account-area.ts';
import { expectErrorShape, type TestApi } from '../helpers/test-api.ts';

const area = accountArea();
const { newUser, outbox } = area;
let api: TestApi;

beforeAll(async () => {
  ({ api } = await area.start());
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
