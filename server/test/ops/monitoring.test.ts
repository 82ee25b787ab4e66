/**
 * The alerting rules (monitoring/prometheus/alerts.yml) and the Grafana dashboard
 * (monitoring/grafana/shop.json) watch only what the shop exports: every metric name in every
 * PromQL expression is in /api/metrics (a histogram with its _bucket, _sum and _count; `up` is
 * Prometheus's own). Every alert has a promtool test where it fires and one where it does not. The
 * metrics read at scrape for the rules (pending refunds, canaries) report what they read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canaryAbortReason, canaryMetrics } from '../../src/infra/observability/metrics.ts';
import { PaymentRepository } from '../../src/domains/ordering/order-core/payment.repository.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';

const monitoring = join(import.meta.dirname, '..', '..', '..', 'monitoring');
const rulesText = readFileSync(join(monitoring, 'prometheus', 'alerts.yml'), 'utf8');
const rulesTestText = readFileSync(join(monitoring, 'prometheus', 'alerts.test.yml'), 'utf8');
const scrapeText = readFileSync(join(monitoring, 'prometheus', 'scrape.yml'), 'utf8');
const ensurePrometheus = readFileSync(join(import.meta.dirname, '..', '..', '..', 'tools', 'scripts', 'ensure-prometheus.mjs'), 'utf8');
const dashboard = JSON.parse(readFileSync(join(monitoring, 'grafana', 'shop.json'), 'utf8')) as {
  panels: { title: string; targets?: { expr: string }[] }[];
};

/** Prometheus's own series, not the shop's. */
const PROMETHEUS_OWN = new Set(['up']);

/**
 * The `expr:` of every rule in a prettier-formatted rules file: a one-line value (quotes removed) or
 * a block scalar (`|` or `>`, the lines indented under it).
 */
function ruleExpressions(text: string): string[] {
  const lines = text.split('\n');
  const found: string[] = [];
  lines.forEach((line, index) => {
    const match = /^(\s*)expr:\s*(.*)$/.exec(line);
    if (!match) return;
    const [, indent = '', value = ''] = match;
    if (!/^[|>][-+]?$/.test(value.trim())) {
      found.push(value.trim().replace(/^(['"])(.*)\1$/, '$2'));
      return;
    }
    const block: string[] = [];
    for (const next of lines.slice(index + 1)) {
      if (next.trim() !== '' && next.length - next.trimStart().length <= indent.length) break;
      block.push(next.trim());
    }
    found.push(block.join(' ').trim());
  });
  return found;
}

const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'inf',
  'nan',
]);

/** The metric names a PromQL expression reads: identifiers that are not functions, keywords or labels. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""') // strings
    .replace(/\{[^}]*\}/g, ' ') // label matchers
    .replace(/\[[^\]]*\]/g, ' ') // ranges ([5m], [$__rate_interval])
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ') // label lists
    .replace(/\$\w+/g, ' '); // Grafana's variables
  const names = new Set<string>();
  for (const match of bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const name = match[0];
    const after = bare.slice((match.index ?? 0) + name.length).trimStart();
    if (after.startsWith('(') || KEYWORDS.has(name.toLowerCase())) continue;
    // A number's exponent (1e3) or a duration's unit are not names.
    if (/[0-9.]$/.test(bare.slice(0, match.index ?? 0))) continue;
    names.add(name);
  }
  return [...names];
}

/** Every series name /api/metrics can show: each TYPE line, a histogram's and a summary's suffixed series. */
function exportedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [, name = '', type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(`${name}${suffix}`);
  }
  return names;
}

let api: TestApi;
let exported: Set<string>;

beforeAll(async () => {
  api = await startTestApi({
    // As server.ts does, from the release registry and its history.
    configure: (app) =>
      canaryMetrics(app.metrics.registry, async () => ({
        areas: ['catalog', 'checkout'],
        running: [{ area: 'checkout', share: 10 }],
        aborts: [
          { area: 'checkout', who: 'canary-watch', reason: 'automatic abort: p75 INP 612 ms against 140 ms for the stable version' },
          { area: 'catalog', who: 'ops', reason: 'zlý obrázok' },
        ],
        advances: [{ area: 'checkout' }, { area: 'checkout' }],
      })),
  });
  const res = await api.metrics();
  expect(res.status).toBe(200);
  exported = exportedNames(res.text);
});
afterAll(async () => {
  await api?.close();
});

describe('the expressions name only exported metrics', () => {
  const rules = ruleExpressions(rulesText);
  const panels = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })));

  it('the name extraction reads PromQL as Prometheus does', () => {
    expect(
      metricNames(
        'histogram_quantile(0.75, sum by (le, area) (rate(shop_web_vitals_seconds_bucket{metric="inp", le!="1e3"}[$__rate_interval]))) > 0.2 and on (area) x_total offset 5m > 1e3',
      ).sort(),
    ).toEqual(['shop_web_vitals_seconds_bucket', 'x_total']);
    expect(metricNames('max by (status) (shop_outbox_backlog) / 3600')).toEqual(['shop_outbox_backlog']);
  });

  it('every alert has an expression, and every expression names at least one metric', () => {
    const alerts = [...rulesText.matchAll(/^\s*- alert: (\S+)$/gm)].map((m) => m[1]);
    expect(alerts.length).toBeGreaterThanOrEqual(10);
    expect(rules).toHaveLength(alerts.length);
    expect(panels.length).toBeGreaterThanOrEqual(15);
    for (const expr of [...rules, ...panels.map((p) => p.expr)]) expect(metricNames(expr).length, expr).toBeGreaterThan(0);
  });

  it('every metric of the alerting rules is exported by the shop', () => {
    const missing = rules.flatMap((expr) => metricNames(expr).filter((name) => !exported.has(name) && !PROMETHEUS_OWN.has(name)));
    expect(missing).toEqual([]);
  });

  it('every metric of the dashboard is exported by the shop', () => {
    const missing = panels.flatMap(({ panel, expr }) =>
      metricNames(expr)
        .filter((name) => !exported.has(name) && !PROMETHEUS_OWN.has(name))
        .map((name) => `${panel}: ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('the dashboard shows what an operator needs', () => {
    const all = panels.map((p) => p.expr).join('\n');
    for (const name of [
      'shop_http_requests_total',
      'shop_http_server_errors_total',
      'shop_http_request_duration_seconds_bucket',
      'up',
      'shop_outbox_backlog',
      'shop_refunds_pending_oldest_age_seconds',
      'shop_canary_share_percent',
      'shop_canary_aborts_total',
      'shop_client_errors_total',
      'shop_web_vitals_seconds_bucket',
      'shop_web_vitals_cls_bucket',
    ]) {
      expect(all).toContain(name);
    }
  });
});

describe('the promtool tests', () => {
  it('test every alert where it fires and where it does not', () => {
    const alerts = [...rulesText.matchAll(/^\s*- alert: (\S+)$/gm)].map((m) => m[1]!);
    // Each evaluation: its alert name and whether it expects alerts ([] = quiet).
    const evaluations = [...rulesTestText.matchAll(/alertname: (\S+)\n\s*exp_alerts:(.*)$/gm)].map((m) => ({
      alert: m[1],
      quiet: m[2]!.trim() === '[]',
    }));
    for (const alert of alerts) {
      expect(
        evaluations.some((e) => e.alert === alert && !e.quiet),
        `${alert} fires`,
      ).toBe(true);
      expect(
        evaluations.some((e) => e.alert === alert && e.quiet),
        `${alert} stays quiet`,
      ).toBe(true);
    }
  });
});

describe('the metrics read at scrape', () => {
  it('the canaries: the running share, and aborts by area and reason, zero for every area before the first', async () => {
    const res = await api.metrics();
    expect(res.text).toContain('shop_canary_share_percent{area="checkout"} 10');
    expect(res.text).toContain('shop_canary_aborts_total{area="checkout",reason="inp"} 1');
    expect(res.text).toContain('shop_canary_aborts_total{area="catalog",reason="operator"} 1');
    expect(res.text).toContain('shop_canary_aborts_total{area="catalog",reason="lcp"} 0');
    expect(res.text).toContain('shop_canary_stage_advances_total{area="checkout"} 2');
    expect(res.text).toContain('shop_canary_stage_advances_total{area="catalog"} 0');
    expect(canaryAbortReason({ who: 'canary-watch', reason: 'automatic abort: client error rate 9.0 %' })).toBe('error-rate');
    expect(
      canaryAbortReason({
        who: 'canary-watch',
        reason:
          'automatic abort: client error rate 9.0 %; most reported: "TypeError: lcp is null" at reportLCP (src/vitals.ts:3:1), 4 reports',
      }),
    ).toBe('error-rate');
    expect(canaryAbortReason({ who: 'canary-watch', reason: 'automatic abort: p75 LCP 4.1 s' })).toBe('lcp');
    expect(canaryAbortReason({ who: 'canary-watch', reason: null })).toBe('error-rate');
  });

  it('pending refunds: how many and the oldest one’s age; none pending reads 0', async () => {
    expect(await new PaymentRepository(api.db).pendingRefunds()).toEqual({ pending: 0, oldestPendingSince: null });
    const res = await api.metrics();
    expect(res.text).toMatch(/^shop_refunds_pending 0$/m);
    expect(res.text).toMatch(/^shop_refunds_pending_oldest_age_seconds 0$/m);

    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const { order_id } = await api.db
      .insertInto('orders')
      .values({
        order_number: 'MON-1',
        order_token: 'm'.repeat(32),
        idempotency_key: 'monitoring-test',
        request_hash: 'x',
        user_id: null,
        email: 'monitoring@example.sk',
        contact_json: '{}',
        shipping_code: 'x',
        shipping_name: 'x',
        shipping_price: 0,
        shipping_vat: 0,
        payment_code: 'card',
        payment_name: 'Karta',
        payment_price: 0,
        payment_vat: 0,
        coupon_code: null,
        items_total: 10,
        total: 10,
        amount_due: 10,
        weight: 1,
        status: 'paid',
        payment_status: 'paid',
        created_at: twoDaysAgo,
        paid_at: twoDaysAgo,
      })
      .returning('order_id')
      .executeTakeFirstOrThrow();
    const payment = (ref: string, refund: string | null, at: string) => ({
      order_id,
      provider: 'card',
      gateway_ref: ref,
      amount: 10,
      status: 'paid',
      redirect_url: 'https://brana.example/pay',
      created_at: at,
      updated_at: at,
      refund_status: refund,
      refund_reason: refund ? 'objednávka už zaplatená' : null,
      refunded_at: null,
    });
    await api.db
      .insertInto('payments')
      .values([
        payment('mon-a', 'pending', twoDaysAgo),
        payment('mon-b', 'pending', hourAgo),
        payment('mon-c', 'refunded', twoDaysAgo),
        payment('mon-d', null, twoDaysAgo),
      ])
      .execute();
    expect(await new PaymentRepository(api.db).pendingRefunds()).toEqual({ pending: 2, oldestPendingSince: twoDaysAgo });

    const text = (await api.metrics()).text;
    expect(text).toMatch(/^shop_refunds_pending 2$/m);
    const age = Number(/^shop_refunds_pending_oldest_age_seconds (\S+)$/m.exec(text)?.[1]);
    expect(age).toBeGreaterThanOrEqual(2 * 86_400);
    expect(age).toBeLessThan(2 * 86_400 + 60);
  });
});

describe('how Prometheus scrapes', () => {
  it('reads /api/metrics of every server and worker with the metrics credential as its bearer token, never an operator token', async () => {
    const jobs = [...scrapeText.matchAll(/- job_name: (\S+)\n((?: {4}.*\n?)*)/g)].map(([, name, body]) => ({ name, body: body ?? '' }));
    expect(jobs.map((job) => job.name)).toEqual(['shop-web', 'shop-worker']);
    for (const job of jobs) {
      expect(job.body).toContain('metrics_path: /api/metrics');
      expect(job.body).toMatch(/authorization:\n\s+type: Bearer\n\s+credentials_file: \S*metrics-credential/);
    }
    expect(scrapeText).toContain('npm run credentials -- metrics-create');
    expect(scrapeText + ensurePrometheus).not.toMatch(/operator[-_ ]token/i);
    expect(ensurePrometheus).toMatch(/credentials_file: \$\{JSON\.stringify\(tokenFile\)\}/);
    // What that credential opens: the metrics, and nothing of the operator origin (observability.test.ts checks every call).
    const token = await api.metricsToken();
    expect((await api.request('GET', '/api/metrics', { token })).status).toBe(200);
    expect((await api.ops('GET', '/api/ops/audit', { token })).status).toBe(401);
  });
});
