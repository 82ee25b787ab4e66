/**
 * Telemetry that cannot steer a release (issue 50): the canary watch judges a canary on the
 * shoppers' reports, so a report must come from the shop's own page (Origin, Sec-Fetch-Site), name
 * a version in force or in a canary, and weigh one telemetry session however often it is repeated.
 * A cross-site page posting 1,000 forged batches neither aborts a healthy canary nor moves its
 * judged error rate; one page view repeating its reports counts once; a bad canary cannot be
 * shielded by repeated views. The watch here is the real one (release's startCanaryWatch) over the
 * API's clientHealth. SQLite, or PostgreSQL with DATABASE_URL.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TelemetryEvent } from '@shop/shared-kernel/contract';
import {
  canaryVerdict,
  emptyRegistry,
  localDirectoryStorage,
  REGISTRY_KEY,
  startCanaryWatch,
  type CanaryPolicy,
  type CanaryWatch,
} from '@shop/release';
import { defaultCheckoutOptions } from '../../src/infra/checkout-options.ts';
import { clientHealth } from '../../src/domains/ops/telemetry/client-health.ts';
import { sessionVitals } from '../../src/domains/ops/telemetry/client-sessions.repository.ts';
import { TELEMETRY_SESSION_COOKIE } from '../../src/domains/ops/telemetry/telemetry-session.ts';
import { expectErrorShape, startTestApi, type HttpResult, type TestApi } from '../helpers/test-api.ts';
import { tempDir } from '@shop/release/testing';

const SHOP = 'https://obchod.example.sk';
const STABLE = '1.0.0-stable';
const CANARY = '1.1.0-canary';
const SHELL = '2.0.0-shell';
const SESSIONS_PER_ADDRESS = 10;
const POLICY: CanaryPolicy = { minViews: 20, margin: 0.05, intervalMs: 3_600_000 };

let api: TestApi;
let watch: CanaryWatch;
const since = new Date(Date.now() - 60_000);
const storage = localDirectoryStorage(tempDir('telemetry-trust-origin-'));

const area = (version: string) => ({
  version,
  entry: `remotes/checkout/${version}/remoteEntry.js`,
  kernel: '3.0.0',
  exposes: [],
  routes: [],
});

beforeAll(async () => {
  mkdirSync(join(storage.localPath('builds')), { recursive: true });
  const registry = {
    ...emptyRegistry(),
    revision: 'r1',
    shell: { version: SHELL, dir: `shells/shell/${SHELL}`, kernel: '3.0.0' },
    areas: { checkout: area(STABLE) },
    canaries: { checkout: { ...area(CANARY), share: 50, since: since.toISOString(), by: 'tím pokladne' } },
  };
  writeFileSync(storage.localPath(REGISTRY_KEY), JSON.stringify(registry));
  api = await startTestApi({
    checkout: (dataDir) => ({ ...defaultCheckoutOptions(dataDir), publicUrl: SHOP }),
    // The per-address report limit is not what refuses a forgery here.
    telemetryRateLimit: { max: 1_000_000, timeWindowMs: 60_000 },
    telemetrySessionRateLimit: { max: SESSIONS_PER_ADDRESS, timeWindowMs: 10 * 60_000 },
    // Each request names its client in X-Forwarded-For: the test speaks for many shoppers.
    trustProxy: '127.0.0.1',
    releasedVersions: async () =>
      new Map([
        ['checkout', new Set([STABLE, CANARY])],
        ['shell', new Set([SHELL])],
      ]),
  });
  watch = startCanaryWatch({
    storage,
    health: (from) => clientHealth(api.db, from),
    policy: POLICY,
    log: { warn: () => undefined, error: () => undefined },
  });
});
afterAll(async () => {
  watch?.stop();
  await api?.close();
});

const view = (version: string): TelemetryEvent => ({ type: 'view', area: 'checkout', version, route: 'cart' });
const error = (version: string): TelemetryEvent => ({
  type: 'error',
  area: 'checkout',
  version,
  route: 'cart',
  kind: 'uncaught',
  message: 'TypeError: x is undefined',
});
const SHOP_PAGE = { origin: SHOP, 'sec-fetch-site': 'same-origin' };

/** A beacon (text/plain, no preflight) with these headers, from `client`, with its cookie if it has one. */
const beacon = (events: TelemetryEvent[], headers: Record<string, string>, client = '198.51.100.1', cookie?: string) =>
  api.request('POST', '/api/telemetry', {
    raw: JSON.stringify({ events }),
    contentType: 'text/plain;charset=UTF-8',
    headers: { ...headers, 'x-forwarded-for': client, ...(cookie ? { cookie } : {}) },
  });
const sessionCookieOf = (res: HttpResult) =>
  res.headers
    .getSetCookie()
    .find((line) => line.startsWith(`__Host-${TELEMETRY_SESSION_COOKIE}=`))
    ?.split(';')[0];

/** One shopper's visit from its own address: a first report gets the session, later ones carry it. */
async function visit(client: string, batches: TelemetryEvent[][]) {
  let cookie: string | undefined;
  for (const events of batches) {
    const res = await beacon(events, SHOP_PAGE, client, cookie);
    expect(res.status, res.text).toBe(204);
    cookie ??= sessionCookieOf(res);
  }
  return cookie;
}

/** Runs `count` requests, `parallel` at a time. */
async function repeat(count: number, send: (i: number) => Promise<HttpResult>, parallel = 25): Promise<HttpResult[]> {
  const answers: HttpResult[] = [];
  for (let start = 0; start < count; start += parallel) {
    answers.push(...(await Promise.all(Array.from({ length: Math.min(parallel, count - start) }, (_, i) => send(start + i)))));
  }
  return answers;
}

/** What the watch judges each side on. */
async function judged() {
  const rows = (await clientHealth(api.db, since)).filter((row) => row.area === 'checkout');
  const of = (version: string) => {
    const row = rows.find((candidate) => candidate.version === version);
    return { views: row?.views ?? 0, errors: row?.errors ?? 0 };
  };
  return { stable: of(STABLE), canary: of(CANARY) };
}
const rate = (side: { views: number; errors: number }) => side.errors / side.views;
const canaryRunning = async () => Boolean(JSON.parse((await storage.readText(REGISTRY_KEY))!).canaries?.checkout);

// A thousand requests a test, on a machine shared with other work.
vi.setConfig({ testTimeout: 180_000 });

describe('forged telemetry cannot steer a canary', () => {
  it('real shoppers: 40 sessions a side, 2 of each with an error; the canary holds', async () => {
    for (let i = 0; i < 40; i += 1) {
      const version = i % 2 === 0 ? STABLE : CANARY;
      const erred = i < 4;
      // Several reports in one visit: the session counts once.
      await visit(`203.0.113.${i + 1}`, [[view(version)], [view(version), ...(erred ? [error(version)] : [])], [view(version)]]);
    }
    for (let i = 40; i < 80; i += 1) await visit(`203.0.113.${i + 1}`, [[view(i % 2 === 0 ? STABLE : CANARY)]]);
    expect(await judged()).toEqual({ stable: { views: 40, errors: 2 }, canary: { views: 40, errors: 2 } });
    expect(await watch.check()).toEqual([]);
    expect(await canaryRunning()).toBe(true);
  });

  it('a cross-site page posting 1,000 forged batches for the canary neither aborts it nor changes its judged error rate', async () => {
    const before = await judged();
    const forged = [view(CANARY), ...Array.from({ length: 49 }, () => error(CANARY))];
    // Visitors of the other site, each from their own address, their browsers naming that site.
    const answers = await repeat(1000, (i) =>
      beacon(forged, { origin: 'https://zly.example', 'sec-fetch-site': 'cross-site' }, `192.0.2.${(i % 250) + 1}`),
    );
    for (const res of answers) {
      expect(res.status).toBe(403);
      expectErrorShape(res.body, 'forbidden');
      expect(sessionCookieOf(res)).toBeUndefined();
    }
    expect(await judged()).toEqual(before);
    expect(rate((await judged()).canary)).toBe(rate(before.canary));
    expect(await watch.check()).toEqual([]);
    expect(await canaryRunning()).toBe(true);
  });

  it('no Origin, another origin, a same-site subdomain or a sandboxed frame is refused too', async () => {
    const before = await judged();
    const refusedHeaders: Record<string, string>[] = [
      {},
      { 'sec-fetch-site': 'same-origin' },
      { origin: 'https://zly.example' },
      { origin: SHOP, 'sec-fetch-site': 'same-site' },
      { origin: 'https://blog.obchod.example.sk', 'sec-fetch-site': 'same-site' },
      { origin: 'null', 'sec-fetch-site': 'cross-site' },
      { origin: 'http://obchod.example.sk', 'sec-fetch-site': 'same-origin' },
    ];
    for (const headers of refusedHeaders) {
      const res = await beacon([error(CANARY)], headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.error.message).toBe('Hlásenia o fungovaní obchodu prijímame len zo stránok obchodu.');
    }
    expect(await judged()).toEqual(before);
    const metrics = await api.metrics();
    expect(Number(/^shop_client_telemetry_dropped_total\{reason="cross_site"\} (\d+)/m.exec(metrics.text)?.[1])).toBeGreaterThanOrEqual(
      1007,
    );
  });

  it('one page view repeating its report 1,000 times counts as one session: the canary holds', async () => {
    const cookie = await visit('198.51.100.77', [[view(CANARY)]]);
    expect(cookie).toBeTruthy();
    const forged = [view(CANARY), ...Array.from({ length: 49 }, () => error(CANARY))];
    const answers = await repeat(1000, () => beacon(forged, SHOP_PAGE, '198.51.100.77', cookie));
    expect(answers.every((res) => res.status === 204)).toBe(true);
    // No new session was handed out: every report was that page view's.
    expect(answers.some((res) => sessionCookieOf(res))).toBe(false);
    expect((await judged()).canary).toEqual({ views: 41, errors: 3 });
    expect(await watch.check()).toEqual([]);
    expect(await canaryRunning()).toBe(true);
  });

  it('a sender dropping its cookie from one address gets only a few sessions; the rest is dropped and counted', async () => {
    const before = await judged();
    const answers = await repeat(1000, () => beacon([view(CANARY), error(CANARY)], SHOP_PAGE, '198.51.100.99'));
    expect(answers.every((res) => res.status === 204)).toBe(true);
    expect(answers.filter((res) => sessionCookieOf(res))).toHaveLength(SESSIONS_PER_ADDRESS);
    expect((await judged()).canary.views - before.canary.views).toBe(SESSIONS_PER_ADDRESS);
    const metrics = await api.metrics();
    expect(Number(/^shop_client_telemetry_dropped_total\{reason="no_session"\} (\d+)/m.exec(metrics.text)?.[1])).toBe(
      (1000 - SESSIONS_PER_ADDRESS) * 2,
    );
  });

  it('a bad canary cannot be shielded by one page view repeating healthy views (300 batches of 50)', async () => {
    const bad = { views: 40, errors: 12 };
    const stable = { views: 40, errors: 2 };
    expect(canaryVerdict(stable, bad, POLICY)).not.toBeNull();
    // The forger's page view: a session that saw the canary and met no error, as many times as it likes.
    const cookie = await visit('198.51.100.150', [[view(CANARY)]]);
    const before = (await judged()).canary;
    await repeat(300, () =>
      beacon(
        Array.from({ length: 50 }, () => view(CANARY)),
        SHOP_PAGE,
        '198.51.100.150',
        cookie,
      ),
    );
    const after = (await judged()).canary;
    expect(after).toEqual(before);
    // It weighs one session: the bad canary, with it, is still judged bad.
    expect(canaryVerdict(stable, { views: bad.views + 1, errors: bad.errors }, POLICY)).not.toBeNull();
  });

  it('reports about a version neither in force nor in a canary are dropped, however many versions are made up', async () => {
    const answers = await repeat(1000, (i) => beacon([view(`9.9.${i}-forged`), error(`9.9.${i}-forged`)], SHOP_PAGE, '198.51.100.200'));
    expect(answers.every((res) => res.status === 204)).toBe(true);
    // Nothing about them was kept, and nothing handed out a session for them.
    expect(answers.some((res) => sessionCookieOf(res))).toBe(false);
    const kept = await api.db.selectFrom('client_sessions').select('version').where('version', 'like', '%-forged').execute();
    expect(kept).toEqual([]);
    const counted = await api.db.selectFrom('client_metrics').select('version').where('version', 'like', '%-forged').execute();
    expect(counted).toEqual([]);
    const metrics = await api.metrics();
    expect(Number(/^shop_client_telemetry_dropped_total\{reason="unreleased"\} (\d+)/m.exec(metrics.text)?.[1])).toBe(2000);
  });

  it("the canary's speed is judged per session too: one page view's 5,000 slow INP values are one sample", async () => {
    const cookie = await visit('198.51.100.180', [[view(CANARY)]]);
    const slow = Array.from({ length: 50 }, () => ({
      type: 'vital',
      area: 'checkout',
      version: CANARY,
      route: 'cart',
      metric: 'inp',
      value: 4000,
    }));
    await repeat(100, () => beacon(slow as TelemetryEvent[], SHOP_PAGE, '198.51.100.180', cookie));
    for (let i = 0; i < 5; i += 1) {
      const fast = [{ type: 'vital', area: 'checkout', version: CANARY, route: 'cart', metric: 'inp', value: 80 }];
      await visit(`203.0.113.${200 + i}`, [fast as TelemetryEvent[]]);
    }
    expect(await sessionVitals(api.db).p75('checkout', CANARY, 'inp', since)).toEqual({ p75: 80, samples: 6 });
  });
});
