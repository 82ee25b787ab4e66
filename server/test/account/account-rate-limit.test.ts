/**
 * Sign-in, sign-up and password reset are rate limited per address and per account,
 * with one message that does not tell whether the e-mail is registered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorShape, startTestApi, type TestApi } from '../helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({
    authRateLimit: { perAddress: { max: 20, timeWindowMs: 60_000 }, perAccount: { max: 3, timeWindowMs: 60_000 } },
  });
});
afterAll(async () => {
  await api?.close();
});

describe('rate limits', () => {
  it('per account: after 3 failed sign-ins even the right password waits; the same for an unknown e-mail', async () => {
    for (const email of ['zakaznik@example.sk', 'nikto-taky@example.sk']) {
      for (let i = 0; i < 3; i++) {
        const res = await api.post('/api/account/login', { email, password: 'zle-heslo-1' });
        expect(res.status).toBe(401);
      }
    }
    const known = await api.post('/api/account/login', { email: 'zakaznik@example.sk', password: 'Heslo123!' });
    const unknown = await api.post('/api/account/login', { email: 'nikto-taky@example.sk', password: 'Heslo123!' });
    for (const res of [known, unknown]) {
      expect(res.status).toBe(429);
      expectErrorShape(res.body, 'rate_limited');
    }
    expect(known.body).toEqual(unknown.body);
    // Another account is not affected.
    expect((await api.post('/api/account/login', { email: 'maria.kovacova@example.sk', password: 'Heslo456!' })).status).toBe(200);
  });

  it('per account: sign-up and reset requests for one e-mail', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await api.post('/api/account/password-reset', { email: 'maria.kovacova@example.sk' })).status);
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
    const reg: number[] = [];
    for (let i = 0; i < 4; i++) {
      reg.push(
        (await api.post('/api/account/register', { email: 'novy.limit@example.sk', password: 'Heslo789!', name: 'Nový Zákazník' })).status,
      );
    }
    expect(reg).toEqual([202, 202, 202, 429]);
  });

  it('per address: every sign-in, sign-up and reset from one address counts', async () => {
    let last = 0;
    for (let i = 0; i < 20 && last !== 429; i++) {
      last = (await api.post('/api/account/login', { email: `adresa${i}@example.sk`, password: 'x' })).status;
    }
    expect(last).toBe(429);
    const res = await api.post('/api/account/register', { email: 'iny@example.sk', password: 'Heslo789!', name: 'Iný Zákazník' });
    expect(res.status).toBe(429);
    expectErrorShape(res.body, 'rate_limited');
  });
});
