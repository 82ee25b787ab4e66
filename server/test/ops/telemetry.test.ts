/**
 * Client telemetry: the shoppers' browsers report page views and errors (POST /api/telemetry, as
 * navigator.sendBeacon sends them), counted per server minute, area and version; errors logged with
 * personal data masked; the operator reads, per version, the sessions that showed it and met an
 * error (GET /api/telemetry/summary), and the server's own code reads the same numbers
 * (clientHealth). Here every version counts as released and each report comes from the shop's page;
 * who may report, about which versions, and what one session can weigh: telemetry-trust.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelemetryEvent } from '@shop/shared-kernel/contract';
import { clientHealth } from '../../src/domains/ops/telemetry/client-health.ts';
import { countEvents, countsSince, minuteOf } from '../../src/domains/ops/telemetry/client-metrics.repository.ts';
import { scrubMessage } from '../../src/domains/ops/telemetry/scrub.ts';
import { funnelStep, orderStepSessions } from '../../src/domains/ops/telemetry/client-sessions.repository.ts';
import { expectErrorShape, startTestApi, type HttpResult, type TestApi } from '../helpers/test-api.ts';

const BEACON_TYPE = 'text/plain;charset=UTF-8';
/** The shop's page, as the browser names it (the default checkout options' PUBLIC_URL). */
const FROM_SHOP = { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' };
/** Every version counts as in force: these tests are about counting. */
const everyVersion = async () => ({ get: () => ({ has: () => true }) }) as unknown as ReadonlyMap<string, ReadonlySet<string>>;
const MANY_SESSIONS = { max: 100_000, timeWindowMs: 60_000 };
const lines: Record<string, unknown>[] = [];
let api: TestApi;
let limited: TestApi;

beforeAll(async () => {
  api = await startTestApi({
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } },
    telemetryRateLimit: { max: 1000, timeWindowMs: 60_000 },
    telemetrySessionRateLimit: MANY_SESSIONS,
    releasedVersions: everyVersion,
  });
  limited = await startTestApi({
    telemetryRateLimit: { max: 3, timeWindowMs: 60_000 },
    telemetrySessionRateLimit: MANY_SESSIONS,
    releasedVersions: everyVersion,
  });
});
afterAll(async () => {
  await api?.close();
  await limited?.close();
});

/** What navigator.sendBeacon(url, JSON.stringify(batch)) sends from a page of the shop (a new visit: no session cookie yet). */
const beacon = (target: TestApi, batch: unknown): Promise<HttpResult> =>
  target.request('POST', '/api/telemetry', { raw: JSON.stringify(batch), contentType: BEACON_TYPE, headers: FROM_SHOP });
/** The same as fetch() from the shop's page sends it. */
const postJson = (batch: unknown): Promise<HttpResult> => api.request('POST', '/api/telemetry', { json: batch, headers: FROM_SHOP });

const view = (area: string, version: string, route = 'home'): TelemetryEvent => ({ type: 'view', area, version, route }) as TelemetryEvent;
const error = (area: string, version: string, message = 'TypeError: x is undefined', kind = 'uncaught'): TelemetryEvent =>
  ({ type: 'error', area, version, route: 'product', kind, message }) as TelemetryEvent;
const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

/** The stored rows of a version, and their sums. */
async function counted(version: string) {
  const rows = await api.db
    .selectFrom('client_metrics')
    .selectAll()
    .where('version', '=', version)
    .orderBy('minute')
    .orderBy('area')
    .execute();
  const sum = (area: string, column: 'views' | 'errors') =>
    rows.filter((r) => r.area === area).reduce((total, r) => total + Number(r[column]), 0);
  return { rows, sum };
}

/** The operator's summary on the operator origin: as the signed-in operator unless `headers` are given. */
const summary = async (query = '', headers?: Record<string, string>) =>
  api.ops('GET', `/api/telemetry/summary${query}`, { headers: headers ?? { cookie: (await api.operator()).cookie } });

describe('POST /api/telemetry: counting', () => {
  it('a beacon (text/plain) batch is counted per area, version and server minute, and answered 204', async () => {
    const before = minuteOf(new Date());
    const res = await beacon(api, {
      events: [
        ...times(3, () => view('catalog', '1.0.0-beacon')),
        error('catalog', '1.0.0-beacon'),
        ...times(2, () => view('checkout', '1.0.0-beacon', 'checkout')),
      ],
    });
    const after = minuteOf(new Date());
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const { rows, sum } = await counted('1.0.0-beacon');
    expect(sum('catalog', 'views')).toBe(3);
    expect(sum('catalog', 'errors')).toBe(1);
    expect(sum('checkout', 'views')).toBe(2);
    expect(sum('checkout', 'errors')).toBe(0);
    // One row per area (and minute): the batch was summed before it was written.
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.minute).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/);
      expect(row.minute >= before && row.minute <= after).toBe(true);
    }
  });

  it('views and errors add up across requests, JSON bodies too; client clocks play no part', async () => {
    // A client's own clock is no part of an event (an extra field is dropped, not believed).
    const clientClock = { ...view('content', '2.1.0'), at: '2020-01-01T00:00:00.000Z', minute: '2020-01-01T00:00:00.000Z' };
    await postJson({ events: [clientClock, view('content', '2.1.0'), error('content', '2.1.0')] });
    const res = await beacon(api, {
      events: [view('content', '2.1.0'), error('content', '2.1.0', 'jiná chyba', 'rejection'), view('shell', '2.1.0', 'not-found')],
    });
    expect(res.status).toBe(204);
    const { rows, sum } = await counted('2.1.0');
    expect(sum('content', 'views')).toBe(3);
    expect(sum('content', 'errors')).toBe(2);
    expect(sum('shell', 'views')).toBe(1);
    expect(rows.every((r) => r.minute >= minuteOf(new Date(Date.now() - 5 * 60_000)))).toBe(true);
  });

  it('the minute is the server clock truncated to the minute; one row per minute, area and version', async () => {
    const events = [view('account', 'fixed-clock'), view('account', 'fixed-clock'), error('account', 'fixed-clock')];
    await countEvents(api.db, events, new Date('2025-01-15T08:41:37.123Z'));
    await countEvents(api.db, events, new Date('2025-01-15T08:41:59.999Z'));
    await countEvents(api.db, events, new Date('2025-01-15T08:42:00.000Z'));
    const { rows } = await counted('fixed-clock');
    expect(rows.map((r) => ({ ...r, views: Number(r.views), errors: Number(r.errors) }))).toEqual([
      { minute: '2025-01-15T08:41:00.000Z', area: 'account', version: 'fixed-clock', views: 4, errors: 2 },
      { minute: '2025-01-15T08:42:00.000Z', area: 'account', version: 'fixed-clock', views: 2, errors: 1 },
    ]);
    const health = async (since: string) => (await countsSince(api.db, new Date(since))).filter((h) => h.version === 'fixed-clock');
    // Inclusive by minute: any moment of 19:42 counts the whole minute 19:42.
    expect(await health('2025-01-15T08:42:59.000Z')).toEqual([{ area: 'account', version: 'fixed-clock', views: 2, errors: 1 }]);
    expect(await health('2025-01-15T08:41:30.000Z')).toEqual([{ area: 'account', version: 'fixed-clock', views: 6, errors: 3 }]);
    expect(await health('2025-01-15T08:43:00.000Z')).toEqual([]);
  });
});

describe('POST /api/telemetry: refusals', () => {
  const refused = async (res: HttpResult, status = 400, code?: string) => {
    expect(res.status, res.text).toBe(status);
    expectErrorShape(res.body, code ?? res.body?.error?.code);
    expect(res.body.error.message).toMatch(/[áäčďéíľĺňóôŕšťúýž]|Neplatná|Telo/);
  };

  it('invalid shapes, unknown areas, bad versions and routes are 400 in the error shape, and nothing of the batch is counted', async () => {
    const good = view('catalog', 'refused-1');
    const bad: unknown[] = [
      {},
      { events: 'view' },
      { events: [] },
      { events: [good, { ...good, area: 'admin' }] },
      { events: [{ ...good, version: '1.0 beta' }] },
      { events: [{ ...good, version: '' }] },
      { events: [{ ...good, version: 'a'.repeat(65) }] },
      { events: [{ ...good, version: '1.0/../x' }] },
      { events: [{ ...good, version: 100 }] },
      { events: [{ ...good, type: 'click' }] },
      { events: [{ ...good, route: 'Product Page' }] },
      { events: [{ ...good, kind: 'boundary' }] },
      { events: [{ ...good, message: 'a view has no message' }] },
      { events: [{ ...error('catalog', 'refused-1'), kind: 'fatal' }] },
      { events: [{ ...error('catalog', 'refused-1'), message: 'x'.repeat(301) }] },
      // An addition to the basket carries nothing of an error or a vital, and a bounded route only.
      { events: [{ ...good, type: 'basket-add', kind: 'uncaught' }] },
      { events: [{ ...good, type: 'basket-add', message: 'Tehla 2 ks' }] },
      { events: [{ ...good, type: 'basket-add', stack: [{ url: 'https://cdn.example/a.js', line: 1, column: 1 }] }] },
      { events: [{ ...good, type: 'basket-add', metric: 'inp', value: 10 }] },
      { events: [{ ...good, type: 'basket-add', route: 'r'.repeat(41) }] },
      { events: Array.from({ length: 51 }, () => ({ ...good, type: 'basket-add' })) },
      { events: [{ area: 'catalog', version: 'refused-1' }] },
      [good],
      null,
    ];
    for (const body of bad) {
      await refused(await beacon(api, body));
      await refused(await postJson(body));
    }
    const unknownArea = await beacon(api, { events: [{ ...good, area: 'admin' }] });
    expectErrorShape(unknownArea.body, 'validation_failed');
    expect(unknownArea.body.error.message).toContain('events.0.area');
    expect((await counted('refused-1')).rows).toEqual([]);
  });

  it('51 events are refused (at most 50), 50 are counted', async () => {
    const tooMany = await beacon(api, { events: times(51, () => view('catalog', 'fifty')) });
    await refused(tooMany, 400, 'validation_failed');
    expect(tooMany.body.error.message).toContain('najviac 50');
    expect(await beacon(api, { events: times(50, () => view('catalog', 'fifty')) })).toMatchObject({ status: 204 });
    expect((await counted('fifty')).sum('catalog', 'views')).toBe(50);
  });

  it('a body over 16 KB is refused in the error shape (413), a body that is not JSON 400', async () => {
    const padded = { events: [error('catalog', 'oversized', 'x'.repeat(300))], padding: 'y'.repeat(16 * 1024) };
    const big = await beacon(api, padded);
    await refused(big, 413, 'bad_request');
    expect(big.body.error.message).toBe('Požiadavka je príliš veľká.');
    // 50 errors with the longest messages are over the limit too (the browser sends 20 at most).
    await refused(await beacon(api, { events: times(50, () => error('catalog', 'oversized', 'z'.repeat(300))) }), 413, 'bad_request');
    await refused(
      await api.request('POST', '/api/telemetry', { raw: 'events=1', contentType: BEACON_TYPE, headers: FROM_SHOP }),
      400,
      'bad_request',
    );
    await refused(
      await api.request('POST', '/api/telemetry', { raw: '', contentType: BEACON_TYPE, headers: FROM_SHOP }),
      400,
      'bad_request',
    );
    await refused(
      await api.request('POST', '/api/telemetry', {
        raw: '{"events":[{"__proto__":{"x":1}}]}',
        contentType: BEACON_TYPE,
        headers: FROM_SHOP,
      }),
      400,
      'bad_request',
    );
    await refused(
      await api.request('POST', '/api/telemetry', {
        raw: 'events=1',
        contentType: 'application/x-www-form-urlencoded',
        headers: FROM_SHOP,
      }),
      415,
      'bad_request',
    );
    expect((await counted('oversized')).rows).toEqual([]);
  });

  it('text/plain is read as JSON by the telemetry route only', async () => {
    const contact = await api.request('POST', '/api/contact', {
      raw: JSON.stringify({ name: 'Ján', email: 'jan@example.sk', message: 'Dobrý deň' }),
      contentType: BEACON_TYPE,
    });
    expect(contact.status).toBe(400);
    expectErrorShape(contact.body, 'validation_failed');
  });

  it('is rate limited per client address (429 in the error shape, in Slovak)', async () => {
    for (let i = 0; i < 3; i += 1) expect((await beacon(limited, { events: [view('catalog', 'limited')] })).status).toBe(204);
    const res = await beacon(limited, { events: [view('catalog', 'limited')] });
    expect(res.status).toBe(429);
    expectErrorShape(res.body, 'rate_limited');
    expect(res.body.error.message).toBe('Príliš veľa hlásení z prehliadača. Skúste to znova o minútu.');
    const rows = await limited.db.selectFrom('client_metrics').selectAll().where('version', '=', 'limited').execute();
    expect(rows.reduce((total, r) => total + Number(r.views), 0)).toBe(3);
  });
});

describe('error reports in the log and the metrics', () => {
  it('each error event is logged at warn with the request id, e-mail addresses and long numbers masked; views are not logged', async () => {
    const message = 'Objednávka 20261123 pre jan.novak@example.sk zlyhala (tel. 0905 123 456), chyba 404';
    const res = await beacon(api, {
      events: [
        view('checkout', 'logged-1'),
        error('checkout', 'logged-1', message, 'boundary'),
        { type: 'error', area: 'checkout', version: 'logged-1', kind: 'load-failed' },
      ],
    });
    expect(res.status).toBe(204);
    const id = res.headers.get('x-request-id');
    const reports = lines.filter((l) => l.reqId === id && l.msg === 'client error report');
    expect(reports).toHaveLength(2);
    expect(reports[0]).toMatchObject({
      level: 40,
      clientError: {
        area: 'checkout',
        version: 'logged-1',
        route: 'product',
        kind: 'boundary',
        message: 'Objednávka [number] pre [email] zlyhala (tel. [number]), chyba 404',
      },
    });
    expect(reports[1]).toMatchObject({
      level: 40,
      clientError: { area: 'checkout', version: 'logged-1', kind: 'load-failed', message: '' },
    });
    expect(JSON.stringify(lines)).not.toMatch(/jan\.novak|20261123|123 456/);
  });

  it('the server masks and cuts whatever it is sent', () => {
    expect(scrubMessage('write to a.b+c@shop.example.sk or admin@localhost')).toBe('write to [email] or [email]');
    expect(scrubMessage('card 4111-1111-1111-1111, IBAN SK31 1200 0000 1987 4263 7541, v1.2.3, 12345')).toBe(
      'card [number], IBAN SK[number], v1.2.3, 12345',
    );
    expect(scrubMessage(`${'e'.repeat(290)} 1234567890 mail@example.sk ${'x'.repeat(400)}`)).toHaveLength(300);
    expect(scrubMessage(`${'e'.repeat(290)} jan@example.sk`)).toBe(`${'e'.repeat(290)} [email]`);
  });

  it('counts client errors by area and kind and page views by area in the metrics, without versions', async () => {
    await beacon(api, {
      events: [view('account', 'metrics-1'), view('account', 'metrics-1'), error('account', 'metrics-1', 'm', 'rejection')],
    });
    const res = await api.metrics();
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^shop_client_errors_total\{area="account",kind="rejection"\} [1-9]/m);
    expect(res.text).toMatch(/^shop_client_page_views_total\{area="account"\} [2-9]/m);
    expect(res.text).not.toMatch(/shop_client_\w+\{[^}]*version/);
  });
});

describe('a load that recovered', () => {
  it('is counted in its own metric, never as an error of its version', async () => {
    const res = await beacon(api, {
      events: [view('checkout', 'recovered-1'), error('checkout', 'recovered-1', './CartPage: loaded from shop on attempt 3', 'recovered')],
    });
    expect(res.status).toBe(204);
    const { sum } = await counted('recovered-1');
    expect(sum('checkout', 'views')).toBe(1);
    expect(sum('checkout', 'errors')).toBe(0);
    const metrics = (await api.metrics()).text;
    expect(metrics).toMatch(/^shop_client_loads_recovered_total\{area="checkout",from="shop"\} [1-9]/m);
    expect(metrics).not.toMatch(/^shop_client_errors_total\{area="checkout",kind="recovered"\}/m);
    expect(lines.some((line) => line.msg === 'client error report' && JSON.stringify(line).includes('recovered-1'))).toBe(false);
  });
});

describe('GET /api/telemetry/summary (operator)', () => {
  it('needs a signed-in operator on the operator origin', async () => {
    const without = await summary('', {});
    expect(without.status).toBe(401);
    expectErrorShape(without.body, 'unauthorized');
    expect(without.body.error.message).toBe('Prihláste sa ako operátor.');
    expect((await summary('', { authorization: 'Bearer wrong-token' })).status).toBe(401);
    // Checked before the query: a stranger learns nothing, not even what the query may hold.
    expect((await summary('?minutes=0', {})).status).toBe(401);
    // The metrics credential opens nothing here, and the shop's origin has no summary.
    expect((await summary('', { authorization: `Bearer ${await api.metricsToken()}` })).status).toBe(401);
    expect((await api.get('/api/telemetry/summary')).status).toBe(404);
  });

  it('answers per area and version the sessions that showed it, those with an error, and their ratio, by area then views', async () => {
    // Each beacon here is a new visit (no cookie kept): a session of its own.
    for (let i = 0; i < 7; i += 1)
      await beacon(api, { events: [view('catalog', 'rate-a'), ...(i < 3 ? [error('catalog', 'rate-a')] : [])] });
    for (let i = 0; i < 9; i += 1)
      await beacon(api, { events: [view('catalog', 'rate-b'), view('catalog', 'rate-b'), ...(i < 1 ? [error('catalog', 'rate-b')] : [])] });
    for (let i = 0; i < 2; i += 1) await beacon(api, { events: [error('shell', 'rate-c'), error('shell', 'rate-c')] });
    const started = Date.now();
    const res = await summary();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { since, rows } = res.body.data as {
      since: string;
      rows: { area: string; version: string; views: number; errors: number; errorRate: number }[];
    };
    expect(since).toMatch(/:00\.000Z$/);
    expect(Date.parse(since)).toBeLessThanOrEqual(started - 59 * 60_000);
    expect(Date.parse(since)).toBeGreaterThan(started - 61 * 60_000);
    const mine = rows.filter((r) => r.version.startsWith('rate-'));
    expect(mine).toEqual([
      { area: 'catalog', version: 'rate-b', views: 9, errors: 1, errorRate: 0.1111 },
      { area: 'catalog', version: 'rate-a', views: 7, errors: 3, errorRate: 0.4286 },
      { area: 'shell', version: 'rate-c', views: 0, errors: 2, errorRate: 2 },
    ]);
    // The whole list is in order: by area, then by views (most first).
    const order = rows.map((r) => [r.area, -r.views] as const);
    expect([...order].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]))).toEqual(order);
    // The rows of an older minute (the fixed-clock test) are outside the last hour.
    expect(rows.some((r) => r.version === 'fixed-clock')).toBe(false);
    const day = await summary('?minutes=1440');
    expect(day.status).toBe(200);
    expect(Date.parse(day.body.data.since)).toBeLessThanOrEqual(Date.now() - 1439 * 60_000);
  });

  it('the window is 1 to 1440 minutes', async () => {
    for (const minutes of ['0', '1441', '-5', 'abc', '1.5']) {
      const res = await summary(`?minutes=${minutes}`);
      expect(res.status, minutes).toBe(400);
      expectErrorShape(res.body, 'validation_failed');
    }
    const one = await summary('?minutes=1');
    expect(one.status).toBe(200);
    expect(one.body.data.since).toBe(minuteOf(new Date(Date.parse(one.body.data.since) + 1)));
  });

  it('notes the sessions that showed the checkout’s order step, each once, for the commerce guardrail', async () => {
    const since = new Date(Date.now() - 1000);
    // Three visits that reached the order step (one repeating its view), one that stopped at the basket,
    // and one whose order-step route is another area's: only the checkout's own step counts.
    for (let i = 0; i < 3; i += 1)
      await beacon(api, {
        events: [view('checkout', 'step-a', 'checkout-cart'), ...times(i + 1, () => view('checkout', 'step-a', 'checkout-order'))],
      });
    await beacon(api, { events: [view('checkout', 'step-a', 'checkout-cart')] });
    await beacon(api, { events: [view('catalog', 'step-a', 'checkout-order')] });
    expect(await orderStepSessions(api.db, 'step-a', since)).toBe(3);
    expect(await orderStepSessions(api.db, 'step-b', since)).toBe(0);
    expect(await orderStepSessions(api.db, 'step-a', new Date(Date.now() + 60_000))).toBe(0);
    expect((await clientHealth(api.db, since)).find((h) => h.area === 'checkout' && h.version === 'step-a')).toEqual({
      area: 'checkout',
      version: 'step-a',
      views: 4,
      errors: 0,
    });
  });

  it('notes additions to the basket as their session’s flag: 1,000 reports of one session count once, and never as errors or views', async () => {
    const first = await beacon(api, { events: [view('catalog', 'add-a', 'product')] });
    expect(first.status, first.text).toBe(204);
    const cookie = first.headers
      .getSetCookie()
      .find((line) => line.includes('shop_telemetry='))!
      .split(';')[0]!;
    const added = { type: 'basket-add', area: 'catalog', version: 'add-a', route: 'product' };
    for (let batch = 0; batch < 20; batch += 1) {
      const res = await api.request('POST', '/api/telemetry', {
        raw: JSON.stringify({ events: times(50, () => added) }),
        contentType: BEACON_TYPE,
        headers: { ...FROM_SHOP, cookie },
      });
      expect(res.status, res.text).toBe(204);
    }
    // Another session: a product page, nothing added.
    await beacon(api, { events: [view('catalog', 'add-a', 'product')] });
    const since = new Date(Date.now() - 60_000);
    const step = {
      part: 'catalog',
      version: 'add-a',
      from: 'product_view',
      to: 'basket_add',
      since,
      settledBefore: new Date(Date.now() + 1),
    } as const;
    expect(await funnelStep(api.db, step)).toEqual({ reached: 2, wentOn: 1 });
    expect((await clientHealth(api.db, since)).find((h) => h.area === 'catalog' && h.version === 'add-a')).toEqual({
      area: 'catalog',
      version: 'add-a',
      views: 2,
      errors: 0,
    });
    const { sum } = await counted('add-a');
    expect([sum('catalog', 'views'), sum('catalog', 'errors')]).toEqual([2, 0]);
  });

  it('clientHealth gives the server the same numbers as the summary', async () => {
    const res = await summary('?minutes=60');
    const since = new Date(res.body.data.since);
    const health = await clientHealth(api.db, since);
    expect(health).toEqual(res.body.data.rows.map(({ errorRate: _rate, ...row }: { errorRate: number }) => row));
    expect(health.find((h) => h.version === 'rate-a')).toEqual({ area: 'catalog', version: 'rate-a', views: 7, errors: 3 });
  });
});
