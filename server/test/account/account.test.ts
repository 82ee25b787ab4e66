import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorShape, startTestApi } from '../helpers/test-api.ts';
import type { TestApi } from '../helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

describe('login', () => {
  it('signs in with the right password and answers an HS256 token with user_id, valid 7 days', async () => {
    const res = await api.post('/api/account/login', { email: 'zakaznik@example.sk', password: 'Heslo123!' });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toEqual({ id: expect.any(Number), email: 'zakaznik@example.sk', name: 'Ján Novák' });
    const token: string = res.body.data.token;
    expect(decodeProtectedHeader(token).alg).toBe('HS256');
    const claims = decodeJwt(token);
    expect(claims['user_id']).toBe(res.body.data.user.id);
    const ttl = claims.exp! - claims.iat!;
    expect(ttl).toBe(7 * 24 * 3600);
  });

  it('accepts the e-mail in any case and with spaces', async () => {
    const res = await api.post('/api/account/login', { email: '  Zakaznik@Example.SK ', password: 'Heslo123!' });
    expect(res.status).toBe(200);
  });

  it('gives one 401 message for a wrong password and for an unknown e-mail', async () => {
    const wrong = await api.post('/api/account/login', { email: 'zakaznik@example.sk', password: 'Heslo124!' });
    const unknown = await api.post('/api/account/login', { email: 'nikto@example.sk', password: 'Heslo123!' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expectErrorShape(res.body, 'unauthorized');
    }
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error.message).toBe('Nesprávny e-mail alebo heslo');
  });

  it('400 for a bad login body', async () => {
    const res = await api.post('/api/account/login', { email: 'zakaznik@example.sk' });
    expect(res.status).toBe(400);
    expectErrorShape(res.body, 'validation_failed');
  });
});

describe('tokens', () => {
  it('GET /api/account/me needs a token', async () => {
    const res = await api.get('/api/account/me');
    expect(res.status).toBe(401);
    expectErrorShape(res.body, 'unauthorized');
  });

  it('GET /api/account/me answers the signed-in user', async () => {
    const { token, userId } = await api.login('maria.kovacova@example.sk', 'Heslo456!');
    const res = await api.get('/api/account/me', token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: userId, email: 'maria.kovacova@example.sk', name: 'Mária Kováčová' } });
  });

  it('rejects a tampered token, a foreign signature and garbage', async () => {
    const { token } = await api.login();
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, user_id: 2 })).toString('base64url');
    const tampered = `${header}.${forgedPayload}.${signature}`;
    const foreign = await new SignJWT({ user_id: 1 })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti('x')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not-the-secret-of-this-server'));
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    const expired = await new SignJWT({ user_id: 1 })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti('y')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(api.jwtSecret));
    for (const bad of [tampered, foreign, unsigned, expired, 'abc']) {
      const res = await api.get('/api/account/me', bad);
      expect(res.status).toBe(401);
      expectErrorShape(res.body, 'unauthorized');
    }
  });

  it('POST /api/account/logout answers ok and ends the token', async () => {
    const { token } = await api.login();
    expect((await api.get('/api/account/me', token)).status).toBe(200);
    const res = await api.post('/api/account/logout', { authHash: token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { ok: true } });
    expect((await api.get('/api/account/me', token)).status).toBe(401);
    // Logging out again, or with something that is not a token, is still fine.
    expect((await api.post('/api/account/logout', { authHash: token })).body).toEqual({ data: { ok: true } });
    expect((await api.post('/api/account/logout', { authHash: 'whatever' })).body).toEqual({ data: { ok: true } });
  });
});
