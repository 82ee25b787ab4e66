/**
 * The shoppers' Web Vitals (POST /api/telemetry, events of type `vital`): bounded by the contract,
 * kept as hourly bucket counts per part, version, route and metric (client_vitals), p75 interpolated
 * from the buckets, exported as Prometheus histograms by area, and shown to the operator
 * (GET /api/ops/vitals). SQLite, or PostgreSQL with DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelemetryEvent } from '@shop/shared-kernel/contract';
import { deploy, localDirectoryStorage } from '@shop/release';
import { createCredential } from '../../src/domains/releases/identities.repository.ts';
import { vitalsReader } from '../../src/domains/ops/console/vitals.ts';
import {
  bucketBounds,
  bucketOf,
  hourOf,
  LAST_BUCKET,
  quantile,
  recordVitals,
  vitalsRepository,
  vitalsSummary,
  type VitalsSource,
} from '../../src/domains/ops/telemetry/vitals.repository.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';
import { tempDir, fakeAreaBuild } from '@shop/release/testing';

let operatorCookie = '';
const storage = localDirectoryStorage(tempDir('vitals-ops-origin-'));
let stable = '';
let canary = '';
let api: TestApi;

beforeAll(async () => {
  const deployed = await deploy({
    storage,
    part: 'content',
    distDir: fakeAreaBuild('content', { marker: 'stable' }),
    packageVersion: '1.0.0',
    provenance: { who: 'team' },
    init: true,
  });
  stable = deployed.version;
  canary = (
    await deploy({
      storage,
      part: 'content',
      distDir: fakeAreaBuild('content', { marker: 'canary' }),
      packageVersion: '1.0.0',
      provenance: { who: 'team' },
      mode: { kind: 'canary', share: 10 },
    })
  ).version;
  api = await startTestApi({
    telemetryRateLimit: { max: 10_000, timeWindowMs: 60_000 },
    // These tests are about the vitals: every version counts as released, every report as a new visit
    // (who may report about what, and what a session weighs: telemetry-trust.test.ts).
    telemetrySessionRateLimit: { max: 100_000, timeWindowMs: 60_000 },
    releasedVersions: async () => ({ get: () => ({ has: () => true }) }) as unknown as ReadonlyMap<string, ReadonlySet<string>>,
    operatorConsole: ({ db }) => ({ storage, publicUrl: 'https://shop.example', vitals: vitalsReader(db) }),
  });
  operatorCookie = (await api.operator()).cookie;
});
afterAll(async () => {
  await api?.close();
});

const send = (events: unknown[], type = 'text/plain;charset=UTF-8') =>
  fetch(`${api.baseUrl}/api/telemetry`, {
    method: 'POST',
    headers: { 'content-type': type, origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify({ events }),
  });
const vital = (fields: Record<string, unknown> = {}) => ({
  type: 'vital',
  area: 'catalog',
  version: '1.0.0',
  route: 'product',
  metric: 'lcp',
  value: 1000,
  ...fields,
});
/** A vital for the repository directly (the contract's type). */
const event = (fields: Partial<TelemetryEvent>) => vital(fields) as TelemetryEvent;
type Report = {
  since: string;
  hours: number;
  rows: { area: string; version: string; state: string; metrics: { metric: string; p75: number | null; samples: number }[] }[];
};
const ops = (query = '', headers: Record<string, string> = { cookie: operatorCookie }) =>
  fetch(`${api.opsUrl}/api/ops/vitals${query}`, { headers });
const report = async (query = '') => ((await (await ops(query)).json()) as { data: Report }).data;

describe('buckets and p75', () => {
  it('puts each value in a log-spaced bucket about 12 % wide, CLS in thousandths', () => {
    expect(bucketOf('lcp', 0)).toBe(0);
    expect(bucketOf('lcp', 0.5)).toBe(0);
    expect(bucketOf('lcp', 1)).toBe(1);
    expect(bucketOf('lcp', 10)).toBe(21);
    expect(bucketOf('lcp', 1_000_000)).toBe(LAST_BUCKET);
    expect(bucketOf('cls', 0.1)).toBe(bucketOf('lcp', 100));
    for (const value of [1, 3.7, 199, 200, 2500, 4000, 59_999]) {
      const [low, high] = bucketBounds('inp', bucketOf('inp', value));
      expect(value).toBeGreaterThanOrEqual(low * 0.999_999);
      expect(value).toBeLessThan(high);
      expect(high / low).toBeCloseTo(10 ** (1 / 20), 6);
    }
  });

  it('interpolates the 75th percentile within its bucket', () => {
    expect(quantile('lcp', [])).toBeNull();
    // 1…1000 ms, one each: the true p75 is 750.
    const counts = new Map<number, number>();
    for (let ms = 1; ms <= 1000; ms += 1) counts.set(bucketOf('lcp', ms), (counts.get(bucketOf('lcp', ms)) ?? 0) + 1);
    const p75 = quantile('lcp', [...counts.entries()])!;
    expect(Math.abs(p75 - 750) / 750).toBeLessThan(0.06);
    // All the same: p75 inside that value's bucket.
    const [low, high] = bucketBounds('inp', bucketOf('inp', 420));
    const same = quantile('inp', [[bucketOf('inp', 420), 10]])!;
    expect(same).toBeGreaterThanOrEqual(Math.floor(low));
    expect(same).toBeLessThanOrEqual(Math.ceil(high));
    // 3 good and 1 poor CLS: p75 is the good ones' (the rank falls on the third).
    const cls = quantile('cls', [
      [bucketOf('cls', 0.02), 3],
      [bucketOf('cls', 0.5), 1],
    ])!;
    expect(cls).toBeLessThan(0.03);
    expect(cls).toBeGreaterThan(0.015);
  });
});

describe('POST /api/telemetry with vitals', () => {
  it('stores them per hour, part, version and metric, and sums concurrent batches exactly', async () => {
    const version = 'store-1';
    const values = [100, 200, 300, 400, 500, 600, 700, 800];
    const batches = values.map((value) => [
      vital({ version, value }),
      vital({ version, metric: 'inp', value: value / 2, route: 'category' }),
      vital({ version, metric: 'cls', value: value / 10_000, ssr: true, target: 'main>img.hero' }),
      { type: 'view', area: 'catalog', version, route: 'product' },
    ]);
    const answers = await Promise.all(batches.map((events) => send(events)));
    expect(answers.map((a) => a.status)).toEqual(values.map(() => 204));
    const now = new Date();
    const mine = (await vitalsSummary(api.db, { since: now, until: now })).filter((row) => row.version === version);
    const by = Object.fromEntries(mine.map((row) => [row.metric, row]));
    expect(by.lcp?.samples).toBe(8);
    expect(by.inp?.samples).toBe(8);
    expect(by.cls?.samples).toBe(8);
    // True p75 of 100…800 is about 625: within a bucket's width.
    expect(Math.abs(by.lcp!.p75! - 625) / 625).toBeLessThan(0.15);
    expect(by.cls!.p75!).toBeGreaterThan(0.05);
    expect(by.cls!.p75!).toBeLessThan(0.075);
    // Views are still counted as views, vitals not as errors.
    const counts = await api.db.selectFrom('client_metrics').selectAll().where('version', '=', version).execute();
    expect(counts.map((row) => [Number(row.views), Number(row.errors)])).toEqual([[8, 0]]);
  });

  it('exports histograms by metric and area, no version', async () => {
    await send([vital({ version: 'prom-1', value: 2400 }), vital({ version: 'prom-1', metric: 'cls', value: 0.12 })]);
    const { text } = await api.metrics();
    expect(text).toMatch(/^shop_web_vitals_seconds_bucket\{le="2.5",metric="lcp",area="catalog"\} [1-9]/m);
    expect(text).toMatch(/^shop_web_vitals_cls_bucket\{le="0.15",area="catalog"\} [1-9]/m);
    expect(text).not.toMatch(/shop_web_vitals[^\n]*version=/);
  });

  it('refuses vitals beyond their bounds, and still takes old clients batches', async () => {
    const refused = [
      vital({ value: 60_001 }),
      vital({ value: -1 }),
      vital({ metric: 'cls', value: 11 }),
      vital({ metric: 'fid' }),
      vital({ value: undefined }),
      vital({ metric: undefined }),
      vital({ kind: 'uncaught' }),
      vital({ target: 'x'.repeat(81) }),
      vital({ target: 'img[src="/p?email=a@b.sk"]' }),
      vital({ ssr: 'yes' }),
      { type: 'view', area: 'catalog', version: '1.0.0', metric: 'lcp' },
      { type: 'error', area: 'catalog', version: '1.0.0', kind: 'uncaught', message: 'x', value: 3 },
    ];
    for (const event of refused) {
      const answer = await send([event], 'application/json');
      expect(answer.status, JSON.stringify(event)).toBe(400);
      const body = (await answer.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('validation_failed');
      expect(body.error.message).toBeTruthy();
    }
    expect((await send([{ type: 'view', area: 'catalog', version: '1.0.0', route: 'home' }])).status).toBe(204);
    expect((await send([{ type: 'error', area: 'catalog', version: '1.0.0', kind: 'boundary', message: 'x' }])).status).toBe(204);
  });
});

describe('p75 over a range of hours', () => {
  it('counts only the hours asked for, and answers the canary watch shape', async () => {
    const repo = vitalsRepository(api.db);
    // The shape the canary watch is written against.
    const source: VitalsSource = repo;
    const now = Date.now();
    const old = new Date(now - 5 * 3_600_000);
    await recordVitals(api.db, [event({ version: 'range-1', metric: 'inp', value: 900 })], old);
    await recordVitals(
      api.db,
      [1, 2, 3].map(() => event({ version: 'range-1', metric: 'inp', value: 100 })),
      new Date(now),
    );
    const recent = await source.p75('catalog', 'range-1', 'inp', new Date(now - 3_600_000));
    expect(recent.samples).toBe(3);
    expect(Math.abs(recent.p75! - 100)).toBeLessThan(13);
    const all = await repo.p75('catalog', 'range-1', 'inp', new Date(now - 6 * 3_600_000));
    expect(all.samples).toBe(4);
    expect(await repo.p75For('catalog', 'range-1', 'inp', now - 6 * 3_600_000)).toEqual(all);
    expect(await repo.p75('catalog', 'range-1', 'lcp', new Date(now - 3_600_000))).toEqual({ p75: null, samples: 0 });
    expect(hourOf(new Date('2026-11-27T13:59:59.999Z'))).toBe('2026-11-27T13:00:00.000Z');
  });
});

describe('GET /api/ops/vitals', () => {
  it('answers p75 and samples per area version, stable and canary marked, over 1 to 720 hours', async () => {
    await send([
      vital({ area: 'content', version: stable, route: 'page', value: 2000 }),
      vital({ area: 'content', version: stable, route: 'page', metric: 'inp', value: 120 }),
      vital({ area: 'content', version: canary, route: 'page', metric: 'inp', value: 450 }),
      vital({ area: 'content', version: canary, route: 'page', metric: 'cls', value: 0.3 }),
    ]);
    const data = await report();
    expect(data.hours).toBe(24);
    const content = data.rows.filter((row) => row.area === 'content');
    expect(content.map((row) => [row.version, row.state])).toEqual([
      [stable, 'stable'],
      [canary, 'canary'],
    ]);
    expect(content[0]!.metrics.map((m) => m.metric)).toEqual(['lcp', 'inp', 'cls', 'fcp', 'ttfb']);
    expect(content[0]!.metrics[0]).toMatchObject({ metric: 'lcp', samples: 1 });
    expect(content[1]!.metrics[0]).toEqual({ metric: 'lcp', p75: null, samples: 0 });
    expect(content[1]!.metrics[1]!.p75).toBeGreaterThan(400);
    expect((await report('?hours=1')).hours).toBe(1);
    expect((await report('?hours=720')).hours).toBe(720);
    for (const hours of ['0', '721', 'x', '1.5']) {
      const answer = await ops(`?hours=${hours}`);
      expect(answer.status, hours).toBe(400);
      expect(((await answer.json()) as { error: { message: string } }).error.message).toBeTruthy();
    }
  });

  it('is for the signed-in operator only', async () => {
    const anonymous = await ops('', {});
    expect(anonymous.status).toBe(401);
    const team = await createCredential(api.db, { name: 'catalog-team-vitals', area: 'catalog' });
    const refused = await ops('', { authorization: `Bearer ${team}` });
    expect(refused.status).toBe(403);
    const allowed = await ops();
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('cache-control')).toBe('no-store');
  });
});
