/**
 * Operator accounts on the operator origin (domains/operators, infra/auth/operator-auth.ts): sign-in
 * with a name, a password and the second factor's code into the origin's `__Host-` cookie; an
 * operator without a second factor who can only set it up; the idle timeout (a clock the test moves);
 * a fresh code for release actions; the lockout per name and address that nobody can turn against an
 * operator; revocation, the second factor's reset, the team credential that is never an operator, and
 * the CSRF rule of the operator origin. On SQLite, or on PostgreSQL with DATABASE_URL.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential, releaseIdentities } from '../../src/domains/releases/identities.repository.ts';
import {
  createOperator,
  ensureFirstOperator,
  FIRST_OPERATOR,
  listOperators,
  resetSecondFactor,
  revokeOperator,
  revokeSessions,
} from '../../src/domains/operators/operator-admin.repository.ts';
import {
  addressKey,
  operatorAccounts,
  OPERATOR_IDLE_MS,
  OPERATOR_REAUTH_MS,
  OPERATOR_SIGN_IN_LIMIT,
} from '../../src/domains/operators/operator-accounts.repository.ts';
import { totpCode } from '../../src/domains/operators/second-factor.ts';
import { operatorCookieSecure } from '../../src/infra/auth/operator-auth.ts';
import { readServerConfig } from '../../src/config.ts';
import { deploy, readHistory, readRegistry, localDirectoryStorage } from '@shop/release';
import { fakeAreaBuild, fakeShellBuild, tempDir } from '@shop/release/testing';
import { signInOperator } from '../helpers/operator-session.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';

const origin = tempDir('operator-accounts-');
const storage = localDirectoryStorage(origin);
/** The server's clock: the tests move it on instead of waiting. */
let clock = Date.now();
const now = () => new Date(clock);
let api: TestApi;
let address = 0;

/** Each test's requests come from their own client address (X-Forwarded-For, trusted here), so the per-address limit of one test does not reach the next. */
const nextAddress = () => `192.0.2.${++address}`;

beforeAll(async () => {
  api = await startTestApi({
    trustProxy: true,
    operatorConsole: { storage },
    operatorOrigin: { now, accounts: { now } },
  });
  for (const area of ['checkout', 'account']) {
    for (const marker of ['one', 'two', 'three']) {
      await deploy({
        storage,
        part: area as 'checkout',
        distDir: fakeAreaBuild(area, {
          marker,
          exposes: area === 'account' ? ['./LoginPage'] : ['./CartPage'],
          routes: area === 'account' ? [{ name: 'login', path: '/account/login', module: './LoginPage', layout: 'default' }] : undefined,
        }),
        packageVersion: '1.0.0',
        provenance: { who: 'seed' },
        init: true,
      });
    }
  }
  await deploy({ storage, part: 'shell', distDir: fakeShellBuild(), packageVersion: '1.0.0', provenance: { who: 'seed' } });
});
afterAll(async () => {
  await api?.close();
});

type Body = { name: string; password: string; code?: string };
const signIn = (body: Body, from: string, headers: Record<string, string> = {}) =>
  api.ops('POST', '/api/ops/session', { json: body, headers: { 'x-forwarded-for': from, ...headers } });
const as = (cookie: string, method: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
  api.ops(method, `/api/ops${path}`, { cookie, ...(json !== undefined ? { json } : {}), headers });
const cookieOf = (setCookie: string | null) => (setCookie ?? '').split(';')[0]!;
const auditLog = async () =>
  (await releaseIdentities(api.db).recent(200)).map((row) => ({
    actor: row.actor,
    action: row.action,
    part: row.part,
    allowed: row.allowed === 1,
    detail: row.detail,
  }));
/** A code of the next time step (a code counts once: the clock moves on to the step after the last one taken). */
const nextCode = (secret: string) => {
  clock += 30_000;
  return totpCode(secret, now());
};

describe('signing in', () => {
  it("without a second factor opens a session that may only set one up: no read, no action, on the console's or the operator's calls", async () => {
    const from = nextAddress();
    const { password } = await createOperator(api.db, { name: 'nova' });
    const wrong = await signIn({ name: 'nova', password: `${password}x` }, from);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: { code: 'unauthorized', message: 'Nesprávne meno, heslo alebo kód z aplikácie.' } });
    expect(wrong.headers.get('set-cookie')).toBeNull();

    const right = await signIn({ name: 'nova', password }, from);
    expect(right.status).toBe(200);
    expect(right.body.data).toMatchObject({ name: 'nova', secondFactor: false });
    const setCookie = right.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^__Host-shop_ops=[A-Za-z0-9_-]{43};/);
    for (const attribute of ['HttpOnly', 'SameSite=Strict', 'Path=/;', 'Secure', 'Max-Age=43200']) expect(setCookie).toContain(attribute);
    expect(setCookie).not.toContain('Domain');
    const cookie = cookieOf(setCookie);

    for (const [method, path, json] of [
      ['GET', '/api/ops/releases'],
      ['GET', '/api/ops/audit'],
      ['POST', '/api/ops/releases/checkout/pin', {}],
      ['GET', '/api/operator/payments/refunds'],
      ['GET', '/api/operator/redirects'],
      ['PUT', '/api/operator/redirects', { old_url: '/stara', new_url: '/nova' }],
      ['POST', '/api/operator/orders/100000/paid', {}],
    ] as const) {
      const refused = await api.ops(method, path, { cookie, ...(json ? { json } : {}) });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'forbidden', refusal: 'second_factor_required' });
    }
    // What it may: who is signed in, and the set-up.
    expect((await as(cookie, 'GET', '/session')).body.data).toMatchObject({ name: 'nova', secondFactor: false });
    const setup = await as(cookie, 'POST', '/second-factor', {});
    expect(setup.status).toBe(200);
    expect(setup.body.data.uri).toMatch(/^otpauth:\/\/totp\/.*nova\?.*secret=[A-Z2-7]+/);
    expect(setup.body.data.qr).toMatch(/^data:image\/png;base64,/);
    const secret = setup.body.data.secret as string;

    // A wrong first code confirms nothing.
    expect((await as(cookie, 'POST', '/second-factor/confirm', { code: '000000' }, { 'x-forwarded-for': from })).status).toBe(400);
    const confirmed = await as(cookie, 'POST', '/second-factor/confirm', { code: totpCode(secret, now()) }, { 'x-forwarded-for': from });
    expect(confirmed.status).toBe(200);
    const codes = confirmed.body.data.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(codes.every((code) => /^[a-z2-9]{5}-[a-z2-9]{5}$/.test(code))).toBe(true);
    // Only hashes of the recovery codes are kept.
    const stored = JSON.stringify(await api.db.selectFrom('operator_recovery_codes').selectAll().execute());
    for (const code of codes) expect(stored).not.toContain(code);
    // The same session may now act; a second set-up is refused (the owner resets a lost device).
    expect((await as(cookie, 'GET', '/releases')).status).toBe(200);
    expect((await as(cookie, 'POST', '/second-factor', {})).status).toBe(409);

    // From now on the password alone opens nothing.
    expect((await signIn({ name: 'nova', password }, from)).status).toBe(401);
    const withCode = await signIn({ name: 'nova', password, code: nextCode(secret) }, from);
    expect(withCode.status).toBe(200);
    expect(withCode.body.data.secondFactor).toBe(true);
    // A recovery code works once.
    const recovered = await signIn({ name: 'nova', password, code: codes[3]!.toUpperCase() }, from);
    expect(recovered.status).toBe(200);
    expect((await signIn({ name: 'nova', password, code: codes[3]! }, from)).status).toBe(401);

    const log = (await auditLog()).filter((entry) => entry.actor === 'nova');
    expect(log.map((entry) => `${entry.action} ${entry.allowed}`)).toEqual(
      expect.arrayContaining(['sign-in true', 'sign-in false', 'second-factor-start true', 'second-factor-confirm true']),
    );
  });

  it('takes a code once: the same code a second time is refused', async () => {
    const op = await signInOperator(api.db, api.opsUrl, 'replay', { 'x-forwarded-for': nextAddress() }, now);
    const from = nextAddress();
    const code = nextCode(op.secret);
    expect((await signIn({ name: 'replay', password: op.password, code }, from)).status).toBe(200);
    expect((await signIn({ name: 'replay', password: op.password, code }, from)).status).toBe(401);
  });

  it('takes a code and a recovery code once even when sent at the same moment', async () => {
    const op = await signInOperator(api.db, api.opsUrl, 'concurrent', { 'x-forwarded-for': nextAddress() }, now);
    const code = nextCode(op.secret);
    const withCode = await Promise.all(
      Array.from({ length: 4 }, () => signIn({ name: 'concurrent', password: op.password, code }, nextAddress())),
    );
    expect(withCode.map((answer) => answer.status).sort()).toEqual([200, 401, 401, 401]);
    const recovery = op.recoveryCodes[0]!;
    const withRecovery = await Promise.all(
      Array.from({ length: 4 }, () => signIn({ name: 'concurrent', password: op.password, code: recovery }, nextAddress())),
    );
    expect(withRecovery.map((answer) => answer.status).sort()).toEqual([200, 401, 401, 401]);
  });

  it("refuses a team's release credential with 403, as the password or as the Bearer token, and audits it", async () => {
    const team = await createCredential(api.db, { name: 'ci-checkout-signin', area: 'checkout' });
    const asPassword = await signIn({ name: 'ci-checkout-signin', password: team }, nextAddress());
    expect(asPassword.status).toBe(403);
    expect(asPassword.body.error.code).toBe('forbidden');
    expect(asPassword.headers.get('set-cookie')).toBeNull();
    const asBearer = await signIn({ name: 'jana', password: 'whatever-password' }, nextAddress(), { authorization: `Bearer ${team}` });
    expect(asBearer.status).toBe(403);
    const refusals = (await auditLog()).filter((entry) => entry.actor === 'ci-checkout-signin' && entry.action === 'sign-in');
    expect(refusals).toHaveLength(2);
    expect(refusals.every((entry) => !entry.allowed)).toBe(true);
  });
});

describe('the lockout', () => {
  it('counts failures per name and address: 100 failures for an operator from one address leave it signing in from its own', async () => {
    const owner = await signInOperator(api.db, api.opsUrl, 'owner-locked', { 'x-forwarded-for': nextAddress() }, now);
    const attacker = nextAddress();
    const answers: number[] = [];
    for (let i = 0; i < 100; i++) answers.push((await signIn({ name: 'owner-locked', password: `wrong-${i}` }, attacker)).status);
    expect(answers.slice(0, OPERATOR_SIGN_IN_LIMIT.perNameAndAddress).every((status) => status === 401)).toBe(true);
    expect(answers.slice(OPERATOR_SIGN_IN_LIMIT.perNameAndAddress).every((status) => status === 429)).toBe(true);
    // The attacker's address is locked out, even with the right password and code.
    const locked = await signIn({ name: 'owner-locked', password: owner.password, code: nextCode(owner.secret) }, attacker);
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('rate_limited');
    // The operator, from its own address, is not.
    const own = await signIn({ name: 'owner-locked', password: owner.password, code: nextCode(owner.secret) }, nextAddress());
    expect(own.status).toBe(200);
  });

  it('stops one address trying many names past its own limit, for every name, and an IPv6 network as one', async () => {
    const from = nextAddress();
    const { password } = await createOperator(api.db, { name: 'bystander' });
    for (let i = 0; i < OPERATOR_SIGN_IN_LIMIT.perAddress; i++)
      expect((await signIn({ name: `name-${i}`, password: 'wrong-password' }, from)).status).toBe(401);
    expect((await signIn({ name: 'bystander', password }, from)).status).toBe(429);
    expect((await signIn({ name: 'bystander', password }, nextAddress())).status).toBe(200);
    expect(addressKey('2001:db8:aa:bb:1:2:3:4')).toBe(addressKey('2001:db8:aa:bb::ffff'));
    expect(addressKey('2001:db8:aa:bb::1')).not.toBe(addressKey('2001:db8:aa:bc::1'));
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });

  it('does not let parallel guesses pass the limit', async () => {
    await createOperator(api.db, { name: 'parallel' });
    const from = nextAddress();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn({ name: 'parallel', password: `wrong-${i}` }, from)));
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(OPERATOR_SIGN_IN_LIMIT.perNameAndAddress);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(12 - OPERATOR_SIGN_IN_LIMIT.perNameAndAddress);
  });
});

describe('a session', () => {
  it(`ends after ${OPERATOR_IDLE_MS / 60_000} minutes without a request; each request moves the end on`, async () => {
    const op = await signInOperator(api.db, api.opsUrl, 'idle', { 'x-forwarded-for': nextAddress() }, now);
    const start = clock;
    try {
      clock = start + OPERATOR_IDLE_MS - 60_000;
      const used = await as(op.cookie, 'GET', '/session');
      expect(used.body.data).toMatchObject({ name: 'idle', idleUntil: new Date(clock + OPERATOR_IDLE_MS).toISOString() });
      clock = start + 2 * OPERATOR_IDLE_MS - 120_000;
      expect((await as(op.cookie, 'GET', '/releases')).status).toBe(200);
      clock += OPERATOR_IDLE_MS;
      const ended = await as(op.cookie, 'GET', '/releases');
      expect(ended.status).toBe(401);
      expect(ended.body.error).toEqual({ code: 'unauthorized', message: 'Prihláste sa ako operátor.' });
      expect((await as(op.cookie, 'GET', '/session')).body).toEqual({ data: null });
      // Signing in again is the way back.
      expect((await signIn({ name: 'idle', password: op.password, code: nextCode(op.secret) }, nextAddress())).status).toBe(200);
    } finally {
      clock = start;
    }
  });

  it(`needs a code typed within ${OPERATOR_REAUTH_MS / 60_000} minutes for a release action, not for a read or an order tool`, async () => {
    const op = await signInOperator(api.db, api.opsUrl, 'reauth', { 'x-forwarded-for': nextAddress() }, now);
    const start = clock;
    try {
      clock = start + OPERATOR_REAUTH_MS + 1000;
      expect((await as(op.cookie, 'GET', '/releases')).status).toBe(200);
      expect((await api.ops('GET', '/api/operator/redirects', { cookie: op.cookie })).status).toBe(200);
      const before = JSON.stringify(await readRegistry(storage));
      for (const action of ['pin', 'unpin', 'rollback', 'promote', 'abort']) {
        const refused = await as(op.cookie, 'POST', `/releases/account/${action}`, {});
        expect(refused.status, action).toBe(403);
        expect(refused.body.error).toMatchObject({ code: 'forbidden', refusal: 'reauth_required' });
      }
      const preview = await as(op.cookie, 'POST', '/releases/account/preview', { version: '1.0.0-x' });
      expect(preview.body.error.refusal).toBe('reauth_required');
      expect(JSON.stringify(await readRegistry(storage))).toBe(before);

      expect((await as(op.cookie, 'POST', '/session/reauth', { code: '123456' })).status).toBe(403);
      const fresh = await as(op.cookie, 'POST', '/session/reauth', { code: nextCode(op.secret) });
      expect(fresh.status).toBe(200);
      expect((await as(op.cookie, 'POST', '/releases/account/pin', { reason: 'fresh code' })).status).toBe(200);
      expect((await as(op.cookie, 'POST', '/releases/account/unpin', {})).status).toBe(200);
    } finally {
      clock = start;
    }
  });

  it("ends at once when the owner revokes the operator, only its sessions, or its second factor; sign-out revokes the session's row", async () => {
    const leaving = await signInOperator(api.db, api.opsUrl, 'leaving', { 'x-forwarded-for': nextAddress() }, now);
    const staying = await signInOperator(api.db, api.opsUrl, 'staying', { 'x-forwarded-for': nextAddress() }, now);
    const lost = await signInOperator(api.db, api.opsUrl, 'lost-phone', { 'x-forwarded-for': nextAddress() }, now);
    expect((await as(leaving.cookie, 'GET', '/releases')).status).toBe(200);

    expect(await revokeOperator(api.db, 'leaving')).toBe(true);
    expect((await as(leaving.cookie, 'GET', '/releases')).status).toBe(401);
    expect((await signIn({ name: 'leaving', password: leaving.password, code: nextCode(leaving.secret) }, nextAddress())).status).toBe(401);

    expect(await revokeSessions(api.db, 'staying')).toBe(1);
    expect((await as(staying.cookie, 'GET', '/releases')).status).toBe(401);
    const again = await signIn({ name: 'staying', password: staying.password, code: nextCode(staying.secret) }, nextAddress());
    expect(again.status).toBe(200);
    const cookie = cookieOf(again.headers.get('set-cookie'));
    const out = await as(cookie, 'DELETE', '/session', {});
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^__Host-shop_ops=; Max-Age=0; Path=\/; HttpOnly; Secure; SameSite=Strict/);
    expect((await as(cookie, 'GET', '/releases')).status).toBe(401);

    // A lost device: the owner removes the second factor; the password opens a set-up session again.
    expect(await resetSecondFactor(api.db, 'lost-phone')).toBe(true);
    expect((await as(lost.cookie, 'GET', '/releases')).status).toBe(401);
    const reset = await signIn({ name: 'lost-phone', password: lost.password }, nextAddress());
    expect(reset.body.data).toMatchObject({ secondFactor: false });
    expect(
      await api.db
        .selectFrom('operator_recovery_codes')
        .select('code_id')
        .where('operator_id', 'in', api.db.selectFrom('operators').select('operator_id').where('name', '=', 'lost-phone'))
        .execute(),
    ).toEqual([]);

    expect(await listOperators(api.db)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'staying', revoked_at: null, sessions: 0, totp_confirmed_at: expect.any(String) }),
        expect.objectContaining({ name: 'leaving', revoked_at: expect.any(String) }),
        expect.objectContaining({ name: 'lost-phone', totp_confirmed_at: null }),
      ]),
    );
    const owner = (await auditLog()).filter((entry) => entry.actor === 'owner').map((entry) => `${entry.action} ${entry.detail}`);
    expect(owner).toEqual(
      expect.arrayContaining([
        'operator-create leaving',
        'operator-revoke leaving',
        'sessions-revoke staying: 1',
        'operator-totp-reset lost-phone',
      ]),
    );
  });
});

describe('two operators', () => {
  it('roll back and pin, and the history and the audit log name each', async () => {
    const eva = await signInOperator(api.db, api.opsUrl, 'eva', { 'x-forwarded-for': nextAddress() }, now);
    const marek = await signInOperator(api.db, api.opsUrl, 'marek', { 'x-forwarded-for': nextAddress() }, now);
    expect((await as(eva.cookie, 'POST', '/releases/checkout/rollback', { reason: 'broken basket' })).status).toBe(200);
    expect((await readHistory(storage)).at(-1)).toMatchObject({ part: 'checkout', action: 'rollback', who: 'eva' });
    expect((await as(marek.cookie, 'POST', '/releases/account/pin', { reason: 'night' })).status).toBe(200);
    expect((await readHistory(storage)).at(-1)).toMatchObject({ part: 'account', action: 'pin', who: 'marek' });
    expect((await readRegistry(storage)).pins?.account).toMatchObject({ by: 'marek' });
    expect(await auditLog()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actor: 'eva', action: 'rollback', part: 'checkout', allowed: true }),
        expect.objectContaining({ actor: 'marek', action: 'pin', part: 'account', allowed: true }),
      ]),
    );
  });
});

describe('a change made with the cookie', () => {
  it('must be JSON and name the operator origin exactly in Origin (same-origin when the browser says); otherwise 403 and nothing moves', async () => {
    const { cookie } = await signInOperator(api.db, api.opsUrl, 'csrf-target', { 'x-forwarded-for': nextAddress() }, now);
    const before = JSON.stringify(await readRegistry(storage));
    const unpin = (headers: Record<string, string>, body = '{}') =>
      fetch(`${api.opsUrl}/api/ops/releases/checkout/unpin`, { method: 'POST', headers: { cookie, ...headers }, body });
    const json = { 'content-type': 'application/json' };
    for (const [why, headers] of [
      ['a form post', { 'content-type': 'application/x-www-form-urlencoded', origin: api.opsUrl }],
      ['text/plain', { 'content-type': 'text/plain', origin: api.opsUrl }],
      ['no Origin', json],
      ['the shop’s origin', { ...json, origin: api.baseUrl }],
      ['another site', { ...json, origin: 'https://evil.example' }],
      ['a sibling of the same site', { ...json, origin: api.opsUrl, 'sec-fetch-site': 'same-site' }],
      ['a cross-site request', { ...json, origin: api.opsUrl, 'sec-fetch-site': 'cross-site' }],
    ] as const) {
      const refused = await unpin(headers);
      expect(refused.status, why).toBe(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('forbidden');
    }
    expect(JSON.stringify(await readRegistry(storage))).toBe(before);
    // Sign-out and sign-in follow the same rule.
    expect((await as(cookie, 'DELETE', '/session', {}, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await as(cookie, 'GET', '/session')).body.data).toMatchObject({ name: 'csrf-target' });
    expect((await signIn({ name: 'csrf-target', password: 'x' }, nextAddress(), { origin: api.baseUrl })).status).toBe(403);

    const allowed = await unpin({ ...json, origin: api.opsUrl, 'sec-fetch-site': 'same-origin' });
    expect(allowed.status).toBe(200);
    // A read with the cookie from another page is refused as well (a shop page cannot make the console read for it).
    for (const site of ['same-site', 'cross-site']) {
      const read = await fetch(`${api.opsUrl}/api/ops/audit`, { headers: { cookie, 'sec-fetch-site': site } });
      expect(read.status, site).toBe(403);
    }
    for (const site of ['same-origin', 'none'])
      expect((await fetch(`${api.opsUrl}/api/ops/audit`, { headers: { cookie, 'sec-fetch-site': site } })).status, site).toBe(200);
  });

  it('is Secure on https and on a loopback address; OPS_URL must be one of them', () => {
    expect(operatorCookieSecure('https://ops.shop.example')).toBe(true);
    expect(operatorCookieSecure('http://localhost:3003')).toBe(true);
    expect(operatorCookieSecure('http://127.0.0.1:3003')).toBe(true);
    expect(() => readServerConfig({ OPS_URL: 'http://ops.shop.example' })).toThrow(/OPS_URL/);
    expect(() => readServerConfig({ OPS_URL: 'not an address' })).toThrow(/OPS_URL/);
    expect(readServerConfig({ PORT: '3200' })).toMatchObject({ opsPort: 3203, opsUrl: 'http://localhost:3203' });
    expect(readServerConfig({ OPS_URL: 'https://ops.shop.example/', OPS_PORT: '9000' })).toMatchObject({
      opsPort: 9000,
      opsUrl: 'https://ops.shop.example',
    });
  });
});

describe('the first start', () => {
  it(`creates ${FIRST_OPERATOR.name} with a generated password in the data directory (mode 600) only when no operator exists`, async () => {
    const fresh = await startTestApi();
    try {
      const file = await ensureFirstOperator(fresh.db, fresh.dataDir);
      expect(file).toBe(join(fresh.dataDir, FIRST_OPERATOR.file));
      expect(statSync(file!).mode & 0o777).toBe(0o600);
      const password = readFileSync(file!, 'utf8').trim();
      expect(password.length).toBeGreaterThanOrEqual(24);
      const signedIn = await operatorAccounts(fresh.db).signIn({ name: FIRST_OPERATOR.name, password, address: '192.0.2.250' });
      expect(signedIn).toMatchObject({ ok: true, session: { secondFactor: false } });
      expect(await ensureFirstOperator(fresh.db, fresh.dataDir)).toBeNull();
      expect(readFileSync(file!, 'utf8').trim()).toBe(password);
      expect((await releaseIdentities(fresh.db).recent(5)).map((row) => `${row.actor} ${row.action} ${row.detail}`)).toContain(
        `owner operator-create ${FIRST_OPERATOR.name}`,
      );
    } finally {
      await fresh.close();
    }
  });
});
