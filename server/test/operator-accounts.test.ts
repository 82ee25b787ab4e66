/**
 * Operator accounts of /ops (domains/releases/operators.repository.ts, routes/ops): sign-in with a name and a password
 * into an HttpOnly session cookie, the rate limit of failed sign-ins, sessions that end at once when
 * the owner revokes the operator, the team credential that is never an operator, each operator named
 * in the history and the audit log, and the CSRF rules of a change made with the cookie.
 * On SQLite, or on PostgreSQL with DATABASE_URL.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../src/infra/http/error-handler.ts';
import { createCredential, releaseIdentities } from '../src/domains/releases/identities.repository.ts';
import {
  createOperator,
  ensureFirstOperator,
  FIRST_OPERATOR,
  listOperators,
  operatorAccounts,
  OPERATOR_SIGN_IN_LIMIT,
  revokeOperator,
  revokeSessions,
} from '../src/domains/releases/operators.repository.ts';
import { deploy, readHistory, readRegistry, localDirectoryStorage } from '@shop/release';
import { opsRoutes } from '../src/domains/ops/console/index.ts';
import { fakeAreaBuild, fakeShellBuild } from './helpers/fake-builds.ts';
import { signInOperator } from './helpers/operator-session.ts';
import { startTestApi, type TestApi } from './helpers/test-api.ts';

const PUBLIC_URL = 'https://shop.example';
const origin = mkdtempSync(join(tmpdir(), 'operator-accounts-'));
const storage = localDirectoryStorage(origin);
let api: TestApi;
let app: FastifyInstance;
let base = '';
let address = 0;

/** Each test's requests come from their own client address (X-Forwarded-For, trusted here), so the per-address limit of one test does not reach the next. */
const nextAddress = () => `192.0.2.${++address}`;

async function opsApp(publicUrl: string): Promise<{ app: FastifyInstance; base: string }> {
  const instance = Fastify({ trustProxy: true });
  instance.setErrorHandler(errorHandler);
  await instance.register(opsRoutes, {
    prefix: '/api',
    storage,
    operatorToken: 'operator-token-signs-previews-only',
    publicUrl,
    identities: releaseIdentities(api.db),
    operators: operatorAccounts(api.db),
  });
  return { app: instance, base: await instance.listen({ port: 0, host: '127.0.0.1' }) };
}

beforeAll(async () => {
  api = await startTestApi();
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
  ({ app, base } = await opsApp(PUBLIC_URL));
});
afterAll(async () => {
  await app?.close();
  await api?.close();
  rmSync(origin, { recursive: true, force: true });
});

const signIn = (body: unknown, from: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/ops/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from, ...headers },
    body: JSON.stringify(body),
  });
const withCookie = (cookie: string, path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  fetch(`${base}/api/ops${path}`, {
    method: init.method ?? 'GET',
    headers: { cookie, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
const auditLog = async () =>
  (await releaseIdentities(api.db).recent(100)).map((row) => ({
    actor: row.actor,
    action: row.action,
    part: row.part,
    allowed: row.allowed === 1,
    detail: row.detail,
  }));
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

describe('signing in', () => {
  it('a right password opens a session in an HttpOnly, SameSite=Strict cookie for /api/ops only; a wrong one is refused in Slovak', async () => {
    const from = nextAddress();
    const { password } = await createOperator(api.db, { name: 'jana' });
    const wrong = await signIn({ name: 'jana', password: `${password}x` }, from);
    expect(wrong.status).toBe(401);
    expect(await errorOf(wrong)).toEqual({ code: 'unauthorized', message: 'Nesprávne meno alebo heslo.' });
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const unknown = await signIn({ name: 'nobody', password }, from);
    expect(unknown.status).toBe(401);

    const right = await signIn({ name: 'jana', password }, from);
    expect(right.status).toBe(200);
    const answer = (await right.json()) as { data: { name: string; expiresAt: string } };
    expect(answer.data.name).toBe('jana');
    // An absolute expiry 12 hours on.
    expect(Date.parse(answer.data.expiresAt) - Date.now()).toBeGreaterThan(11.9 * 3_600_000);
    const setCookie = right.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^shop_ops_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/api/ops');
    expect(setCookie).toContain('Max-Age=43200');
    expect(setCookie).toContain('Secure');
    const cookie = setCookie.split(';')[0]!;

    const me = await withCookie(cookie, '/session');
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { name: string } }).data.name).toBe('jana');
    expect((await withCookie(cookie, '/releases')).status).toBe(200);
    // Without a session: nobody is signed in, an answer rather than an error.
    const nobody = await fetch(`${base}/api/ops/session`);
    expect(nobody.status).toBe(200);
    expect(await nobody.json()).toEqual({ data: null });
    // Only a hash of the session's secret is stored.
    const stored = JSON.stringify(await api.db.selectFrom('operator_sessions').selectAll().execute());
    expect(stored).not.toContain(cookie.split('=')[1]);
  });

  it('sets a cookie without Secure when the shop is served over plain http', async () => {
    const plain = await opsApp('http://shop.test');
    try {
      const { password } = await createOperator(api.db, { name: 'plain-http' });
      const right = await fetch(`${plain.base}/api/ops/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
        body: JSON.stringify({ name: 'plain-http', password }),
      });
      expect(right.status).toBe(200);
      const setCookie = right.headers.get('set-cookie')!;
      expect(setCookie).toContain('HttpOnly');
      expect(setCookie).not.toContain('Secure');
    } finally {
      await plain.app.close();
    }
  });

  it(`answers 429 in Slovak after ${OPERATOR_SIGN_IN_LIMIT.perName} failures for a name, even to the right password, and counts per address too`, async () => {
    const { password } = await createOperator(api.db, { name: 'guessed' });
    for (let i = 0; i < OPERATOR_SIGN_IN_LIMIT.perName; i++)
      expect((await signIn({ name: 'guessed', password: `wrong-${i}` }, nextAddress())).status).toBe(401);
    const limited = await signIn({ name: 'guessed', password }, nextAddress());
    expect(limited.status).toBe(429);
    expect(await errorOf(limited)).toEqual({
      code: 'rate_limited',
      message: 'Príliš veľa neúspešných prihlásení. Skúste to znova o 15 minút.',
    });
    expect(limited.headers.get('set-cookie')).toBeNull();

    // One address trying many names is stopped past its own limit, for every name.
    const from = nextAddress();
    const { password: other } = await createOperator(api.db, { name: 'bystander' });
    for (let i = 0; i < OPERATOR_SIGN_IN_LIMIT.perAddress; i++)
      expect((await signIn({ name: `name-${i}`, password: 'wrong-password' }, from)).status).toBe(401);
    expect((await signIn({ name: 'bystander', password: other }, from)).status).toBe(429);
    // Another address is not concerned.
    expect((await signIn({ name: 'bystander', password: other }, nextAddress())).status).toBe(200);
  });

  it('does not let parallel guesses pass the limit', async () => {
    await createOperator(api.db, { name: 'parallel' });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signIn({ name: 'parallel', password: `wrong-${i}` }, nextAddress())),
    );
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(OPERATOR_SIGN_IN_LIMIT.perName);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(12 - OPERATOR_SIGN_IN_LIMIT.perName);
  });

  it("refuses a team's release credential with 403, as the password or as the Bearer token, and audits it", async () => {
    const team = await createCredential(api.db, { name: 'ci-checkout-signin', area: 'checkout' });
    const asPassword = await signIn({ name: 'ci-checkout-signin', password: team }, nextAddress());
    expect(asPassword.status).toBe(403);
    expect((await errorOf(asPassword)).code).toBe('forbidden');
    expect(asPassword.headers.get('set-cookie')).toBeNull();
    const asBearer = await signIn({ name: 'jana', password: 'whatever-password' }, nextAddress(), { authorization: `Bearer ${team}` });
    expect(asBearer.status).toBe(403);
    const refusals = (await auditLog()).filter((entry) => entry.actor === 'ci-checkout-signin' && entry.action === 'sign-in');
    expect(refusals).toHaveLength(2);
    expect(refusals.every((entry) => !entry.allowed)).toBe(true);
  });
});

describe('sessions', () => {
  it("end at once when the owner revokes the operator, or only its sessions; signing out revokes the session's row", async () => {
    const first = await signInOperator(api.db, base, 'leaving');
    const second = await signInOperator(api.db, base, 'staying');
    expect((await withCookie(first.cookie, '/releases')).status).toBe(200);

    expect(await revokeOperator(api.db, 'leaving')).toBe(true);
    expect((await withCookie(first.cookie, '/releases')).status).toBe(401);
    expect(await (await withCookie(first.cookie, '/session')).json()).toEqual({ data: null });
    expect((await signIn({ name: 'leaving', password: first.password }, nextAddress())).status).toBe(401);

    expect(await revokeSessions(api.db, 'staying')).toBe(1);
    expect((await withCookie(second.cookie, '/releases')).status).toBe(401);
    const again = await signIn({ name: 'staying', password: second.password }, nextAddress());
    expect(again.status).toBe(200);
    const cookie = again.headers.get('set-cookie')!.split(';')[0]!;

    const out = await withCookie(cookie, '/session', { method: 'DELETE', body: {} });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^shop_ops_session=; Max-Age=0;/);
    expect((await withCookie(cookie, '/releases')).status).toBe(401);
    expect(await listOperators(api.db)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'staying', revoked_at: null, sessions: 0 }),
        expect.objectContaining({ name: 'leaving', revoked_at: expect.any(String) }),
      ]),
    );

    const owner = (await auditLog()).filter((entry) => entry.actor === 'owner').map((entry) => `${entry.action} ${entry.detail}`);
    expect(owner).toEqual(expect.arrayContaining(['operator-create leaving', 'operator-revoke leaving', 'sessions-revoke staying: 1']));
  });
});

describe('two operators', () => {
  it('roll back and pin, and the history and the audit log name each', async () => {
    const eva = await signInOperator(api.db, base, 'eva');
    const marek = await signInOperator(api.db, base, 'marek');
    expect(
      (await withCookie(eva.cookie, '/releases/checkout/rollback', { method: 'POST', body: { reason: 'broken basket' } })).status,
    ).toBe(200);
    expect((await readHistory(storage)).at(-1)).toMatchObject({ part: 'checkout', action: 'rollback', who: 'eva' });
    expect((await withCookie(marek.cookie, '/releases/account/pin', { method: 'POST', body: { reason: 'night' } })).status).toBe(200);
    expect((await readHistory(storage)).at(-1)).toMatchObject({ part: 'account', action: 'pin', who: 'marek' });
    expect((await readRegistry(storage)).pins?.account).toMatchObject({ by: 'marek' });
    const log = await auditLog();
    expect(log).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actor: 'eva', action: 'rollback', part: 'checkout', allowed: true }),
        expect.objectContaining({ actor: 'marek', action: 'pin', part: 'account', allowed: true }),
      ]),
    );
    expect(log.some((entry) => entry.actor === 'ops')).toBe(false);
  });
});

describe('a change made with the cookie', () => {
  it('must be JSON and come from the shop’s public origin when the browser names one; otherwise 403 and nothing moves', async () => {
    const { cookie } = await signInOperator(api.db, base, 'csrf-target');
    const before = JSON.stringify(await readRegistry(storage));
    const pin = (headers: Record<string, string>, body = '{}') =>
      fetch(`${base}/api/ops/releases/checkout/unpin`, { method: 'POST', headers: { cookie, ...headers }, body });
    for (const [why, headers] of [
      ['a form post', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['text/plain', { 'content-type': 'text/plain' }],
      ['another site', { 'content-type': 'application/json', origin: 'https://evil.example' }],
      // The request's own Host is no proof: only the configured public origin counts.
      ['the request’s host', { 'content-type': 'application/json', origin: base }],
    ] as const) {
      const refused = await pin(headers);
      expect(refused.status, why).toBe(403);
      expect((await errorOf(refused)).code).toBe('forbidden');
    }
    expect(JSON.stringify(await readRegistry(storage))).toBe(before);
    // Sign-out and sign-in follow the same rule.
    expect((await withCookie(cookie, '/session', { method: 'DELETE', body: {}, headers: { origin: 'https://evil.example' } })).status).toBe(
      403,
    );
    expect((await withCookie(cookie, '/session')).status).toBe(200);
    expect((await signIn({ name: 'csrf-target', password: 'x' }, nextAddress(), { origin: 'https://evil.example' })).status).toBe(403);

    const allowed = await pin({ 'content-type': 'application/json', origin: PUBLIC_URL });
    expect(allowed.status).toBe(200);
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
      expect(signedIn.ok).toBe(true);
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
