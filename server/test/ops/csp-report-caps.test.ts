/**
 * Anyone can post CSP reports, so what the store keeps is bounded, and the bounds cannot be used to
 * hide a real attack: every violation is counted in the metrics by source before any bound; the
 * checkout's pages keep their own bucket of rows; one client adds only a few distinct rows a day;
 * and a full bucket is visible in the metrics (the alert ShopCspViolationStoreFull). SQLite, or
 * PostgreSQL with DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCheckoutOptions } from '../../src/infra/checkout-options.ts';
import { CSP_KEYS_PER_CLIENT, clientOf } from '../../src/domains/ops/telemetry/csp-client-budget.ts';
import { countViolations, dayOf, rowsPerBucket } from '../../src/domains/ops/telemetry/csp-violations.repository.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';

const SHOP = 'https://shop.example';
const SKIMMER = 'https://cdn-skimmer.example';
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({
    checkout: (dataDir) => ({ ...defaultCheckoutOptions(dataDir), publicUrl: SHOP }),
    telemetryRateLimit: { max: 10_000, timeWindowMs: 60_000 },
    // The test speaks for many browsers: each request names its client in X-Forwarded-For.
    trustProxy: '127.0.0.1',
  });
});
afterAll(async () => {
  await api?.close();
});

/** A Reporting API body with one script-src-elem violation per blocked host, on `page`. */
const reportBody = (page: string, hosts: string[]) =>
  JSON.stringify(
    hosts.map((host) => ({
      type: 'csp-violation',
      url: `${SHOP}${page}`,
      body: { documentURL: `${SHOP}${page}`, effectiveDirective: 'script-src-elem', blockedURL: `${host}/x.js` },
    })),
  );
const post = (client: string, page: string, hosts: string[]) =>
  fetch(`${api.baseUrl}/api/csp-report`, {
    method: 'POST',
    headers: { 'content-type': 'application/reports+json', 'x-forwarded-for': client },
    body: reportBody(page, hosts),
  });
const today = () => api.db.selectFrom('csp_violations').selectAll().where('day', '=', dayOf(new Date())).execute();
const metrics = async () => (await api.metrics()).text;
const sample = (text: string, name: string, labels: string) =>
  Number(new RegExp(`^${name}\\{${labels.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);

describe('crafted CSP reports cannot hide a skimmer on the checkout', () => {
  it('ten reports of fifty made-up hosts each leave room for the real one, which is stored by its host', async () => {
    const forged = (report: number) => Array.from({ length: 50 }, (_, i) => `https://made-up-${report}-${i}.example`);
    for (let report = 0; report < 10; report += 1) {
      expect((await post('203.0.113.7', '/checkout/order', forged(report))).status).toBe(204);
      expect((await post('203.0.113.7', '/c/tehly', forged(report))).status).toBe(204);
    }
    // A shopper's browser on the payment step meets the skimmer.
    expect((await post('198.51.100.23', '/checkout/order', [SKIMMER])).status).toBe(204);
    const rows = await today();
    expect(rows.find((row) => row.blocked_origin === SKIMMER)).toMatchObject({ page: 'checkout', part: 'external', violations: 1 });
    // The forger got its budget of rows per bucket; the rest of what it sent is in its bucket's other row.
    const forgedRows = (page: string) => rows.filter((row) => row.page === page && row.blocked_origin.startsWith('https://made-up-'));
    expect(forgedRows('checkout')).toHaveLength(CSP_KEYS_PER_CLIENT);
    expect(forgedRows('category')).toHaveLength(CSP_KEYS_PER_CLIENT);
    expect(rows.find((row) => row.page === 'checkout' && row.blocked_origin === 'other')?.violations).toBe(500 - CSP_KEYS_PER_CLIENT);
    expect(rows.find((row) => row.page === 'other' && row.blocked_origin === 'other')?.violations).toBe(500 - CSP_KEYS_PER_CLIENT);
    // A new report of a host the forger already stored is still counted on its own row.
    await post('203.0.113.7', '/checkout/order', ['https://made-up-0-0.example']);
    expect((await today()).find((row) => row.blocked_origin === 'https://made-up-0-0.example' && row.page === 'checkout')?.violations).toBe(
      2,
    );

    // Every report was counted by source before any bound, and the budget's refusals are counted too.
    const text = await metrics();
    expect(sample(text, 'shop_csp_violations_total', 'directive="script-src-elem",page="checkout",part="external",source="external"')).toBe(
      502,
    );
    expect(sample(text, 'shop_csp_violations_unstored_total', 'bucket="checkout",reason="client_budget"')).toBe(500 - CSP_KEYS_PER_CLIENT);
    expect(sample(text, 'shop_csp_violations_unstored_total', 'bucket="rest",reason="client_budget"')).toBe(500 - CSP_KEYS_PER_CLIENT);
  });

  it('the checkout has a bucket of its own: the rest of the shop filling up does not push its hosts into other', async () => {
    const at = new Date(Date.now() - 3 * 86_400_000);
    const key = (page: string, n: number) => ({
      page,
      part: 'external',
      directive: 'script-src-elem',
      blockedOrigin: `https://h${n}.example`,
    });
    for (let n = 0; n < 5; n += 1) await countViolations(api.db, [key('product', n)], at, 3);
    for (const [page, n] of [
      ['cart', 100],
      ['checkout', 101],
      ['checkout', 102],
      ['checkout', 103],
    ] as const)
      await countViolations(api.db, [key(page, n)], at, 3);
    const rows = await api.db.selectFrom('csp_violations').selectAll().where('day', '=', dayOf(at)).execute();
    const origins = (pages: string[]) =>
      rows
        .filter((row) => pages.includes(row.page))
        .map((row) => row.blocked_origin)
        .sort();
    expect(origins(['product', 'other'])).toEqual(['https://h0.example', 'https://h1.example', 'https://h2.example', 'other']);
    // The checkout's three rows: its bucket's own limit, then its own other row (kept under its page).
    expect(origins(['cart', 'checkout'])).toEqual(['https://h100.example', 'https://h101.example', 'https://h102.example', 'other']);
    expect(rows.find((row) => row.page === 'checkout' && row.blocked_origin === 'other')?.violations).toBe(1);
    expect(rows.find((row) => row.page === 'other' && row.blocked_origin === 'other')?.violations).toBe(2);
    expect(await rowsPerBucket(api.db, at)).toEqual({ checkout: 4, rest: 4 });
  });

  it('a full bucket shows in the metrics, which the alert compares with the limit', async () => {
    const text = await metrics();
    const { checkout, rest } = await rowsPerBucket(api.db, new Date());
    expect(sample(text, 'shop_csp_violation_rows', 'bucket="checkout"')).toBe(checkout);
    expect(sample(text, 'shop_csp_violation_rows', 'bucket="rest"')).toBe(rest);
    expect(sample(text, 'shop_csp_violation_rows_limit', 'bucket="checkout"')).toBe(500);
  });

  it('a client is its address, an IPv6 one by its /64', () => {
    expect(clientOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('2001:db8:0:1::5')).toBe('2001:db8:0:1');
    expect(clientOf('2001:db8:0:1:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:0:1');
    expect(clientOf('2001:db8::1')).toBe('2001:db8:0:0');
    expect(clientOf('::1')).toBe('0:0:0:0');
  });
});
