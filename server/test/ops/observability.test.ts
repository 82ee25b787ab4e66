/**
 * What an operator sees: one JSON log line per request with a request id that the answer also
 * carries, failures logged with their cause and shown to the shopper with that id, liveness,
 * readiness, and Prometheus metrics behind a metrics-only machine credential.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IN_PROCESS_HEADER } from '../../src/infra/observability/observability.ts';
import { directLoad, serveApiInProcess } from '../../src/web/ssr/in-process-api.ts';
import { createCredential } from '../../src/domains/releases/identities.repository.ts';
import {
  createMachineCredential,
  listMachineCredentials,
  revokeMachineCredential,
} from '../../src/domains/operators/machine-credentials.repository.ts';
import { legacyMetricsToken } from '../../src/config.ts';
import { redactUrl } from '../../src/infra/observability/redact-url.ts';
import { expectErrorShape, startTestApi, type TestApi } from '../helpers/test-api.ts';

const lines: Record<string, unknown>[] = [];
let api: TestApi;
let registryReachable = true;

beforeAll(async () => {
  api = await startTestApi({
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } },
    // As the shop's server does: its pages' data from this API in-process; and a page that logs its address as a route may.
    configure: (app) => {
      serveApiInProcess(app);
      app.get('/test-logs-its-address', async (request) => {
        request.log.warn({ url: request.url }, 'a route names its address');
        return { ok: true };
      });
    },
    readiness: [
      {
        name: 'registry',
        label: 'Register verzií',
        check: async () => {
          if (!registryReachable) throw new Error('registry unreadable');
        },
      },
    ],
  });
});
afterAll(async () => {
  await api?.close();
});

const logOf = (requestId: string | null) => lines.filter((l) => l.reqId === requestId);

describe('logs and request ids', () => {
  it('every answer carries a generated request id, and one JSON log line describes the request', async () => {
    const res = await api.request('GET', '/api/site', { headers: { 'x-request-id': 'forged-by-the-client' } });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f]{12}$/);
    const own = logOf(id);
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ level: 30, msg: 'request', method: 'GET', url: '/api/site', route: '/api/site', status: 200 });
    expect(typeof own[0]!.ms).toBe('number');
    expect(lines.some((l) => l.reqId === 'forged-by-the-client')).toBe(false);
    const others = await Promise.all(Array.from({ length: 20 }, () => api.request('GET', '/api/site')));
    const ids = new Set([id, ...others.map((other) => other.headers.get('x-request-id'))]);
    expect(ids.size).toBe(21);
  });

  it('a 4xx is logged as an ordinary request line with its status', async () => {
    const res = await api.get('/api/product/neexistuje');
    expect(res.status).toBe(404);
    expect(logOf(res.headers.get('x-request-id'))[0]).toMatchObject({ status: 404, route: '/api/product/:url' });
  });

  it('a failure is logged with its cause, counted, and shown to the shopper with the request id and no internals', async () => {
    registryReachable = false;
    try {
      const res = await api.get('/api/ready');
      expect(res.status).toBe(503);
      expectErrorShape(res.body, 'internal');
      const id = res.headers.get('x-request-id')!;
      expect(res.body.error.message).toContain('Register verzií');
      expect(res.body.error.message).toContain(id);
      expect(res.text).not.toMatch(/registry unreadable|stack|at \w+ \(/);
      const own = logOf(id);
      expect(own.some((l) => l.msg === 'readiness check failed' && (l.err as { message: string }).message === 'registry unreadable')).toBe(
        true,
      );
      expect(own.some((l) => l.msg === 'request failed' && l.status === 503 && l.level === 50)).toBe(true);
    } finally {
      registryReachable = true;
    }
  });
});

describe('health and readiness', () => {
  it('/api/health answers while the process runs; /api/ready checks the database and the registry', async () => {
    const health = await api.get('/api/health');
    expect(health.status).toBe(200);
    expect(health.body.data.status).toBe('ok');
    const ready = await api.get('/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.data).toEqual({ status: 'ready', checks: { database: 'ok', registry: 'ok' } });
  });
});

describe('metrics', () => {
  it('need a metrics credential and count requests by route and status, orders, the outbox and the cache', async () => {
    expect((await api.get('/api/metrics')).status).toBe(401);
    expect((await api.request('GET', '/api/metrics', { token: 'wrong' })).status).toBe(401);
    await api.get('/api/home');
    await api.get('/api/home');
    const res = await api.metrics();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    expect(text).toMatch(/^shop_http_requests_total\{method="GET",route="\/api\/home",status="200"\} [2-9]/m);
    expect(text).toMatch(/^shop_http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="\/api\/home"\} \d+/m);
    expect(text).toMatch(/^shop_http_requests_total\{method="GET",route="\/api\/ready",status="503"\} 1$/m);
    expect(text).toMatch(/^shop_http_server_errors_total\{route="\/api\/ready"\} 1$/m);
    expect(text).toMatch(/^shop_response_cache_total\{result="HIT"\} [1-9]/m);
    expect(text).toMatch(/^shop_outbox_backlog\{status="pending"\} \d+$/m);
    expect(text).toMatch(/^shop_outbox_backlog\{status="dead"\} 0$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toContain('# TYPE shop_orders_placed_total counter');
  });
});

describe('the metrics credential', () => {
  it('reads /api/metrics and nothing else; a team credential, a revoked one or an operator cookie does not read metrics', async () => {
    const secret = await createMachineCredential(api.db, { name: 'prometheus-scope', scope: 'metrics' });
    expect(secret).toMatch(/^shopmet_/);
    expect((await api.request('GET', '/api/metrics', { token: secret })).status).toBe(200);
    // Nothing of the operator origin: its reads, its order tools, its release moves, its summary.
    for (const [method, path] of [
      ['GET', '/api/ops/releases'],
      ['GET', '/api/ops/audit'],
      ['GET', '/api/operator/payments/refunds'],
      ['GET', '/api/operator/redirects'],
      ['GET', '/api/telemetry/summary'],
      ['POST', '/api/ops/releases/checkout/pin'],
      ['PUT', '/api/operator/redirects'],
    ] as const) {
      const answer = await api.ops(method, path, {
        token: secret,
        ...(method === 'GET' ? {} : { json: { old_url: '/a', new_url: '/b' } }),
      });
      expect(answer.status, `${method} ${path}`).toBe(401);
    }
    // Nothing of the shopper's either: it is no session.
    expect((await api.request('GET', '/api/account/profile', { token: secret })).status).toBe(401);
    // A team's release credential is no metrics credential; an operator's cookie is not read on the shop's origin.
    const team = await createCredential(api.db, { name: 'ci-metrics-try', area: 'catalog' });
    expect((await api.request('GET', '/api/metrics', { token: team })).status).toBe(401);
    const { cookie } = await api.operator();
    expect((await api.request('GET', '/api/metrics', { headers: { cookie } })).status).toBe(401);
    // Listed, stored only as a hash, and revoked at once.
    expect(await listMachineCredentials(api.db)).toContainEqual(
      expect.objectContaining({ name: 'prometheus-scope', scope: 'metrics', revoked_at: null }),
    );
    expect(JSON.stringify(await api.db.selectFrom('machine_credentials').selectAll().execute())).not.toContain(secret.slice(8));
    expect(await revokeMachineCredential(api.db, 'prometheus-scope')).toBe(true);
    expect((await api.request('GET', '/api/metrics', { token: secret })).status).toBe(401);
  });

  it('replaces the operator token, which opens /api/metrics only on the migration path, off by default', async () => {
    expect(await legacyMetricsToken({ OPERATOR_TOKEN: 'x'.repeat(32) }, api.dataDir)).toBeNull();
    expect(await legacyMetricsToken({ METRICS_OPERATOR_TOKEN: 'on', OPERATOR_TOKEN: 'x'.repeat(32) }, api.dataDir)).toBe('x'.repeat(32));
    expect((await api.request('GET', '/api/metrics', { token: 'x'.repeat(32) })).status).toBe(401);
    const migrating = await startTestApi({ legacyMetricsToken: 'y'.repeat(32) });
    try {
      expect((await migrating.request('GET', '/api/metrics', { token: 'y'.repeat(32) })).status).toBe(200);
      expect((await migrating.ops('GET', '/api/ops/releases', { token: 'y'.repeat(32) })).status).toBe(401);
      expect((await migrating.ops('GET', '/api/operator/orders/100000', { headers: { 'x-operator-token': 'y'.repeat(32) } })).status).toBe(
        401,
      );
    } finally {
      await migrating.close();
    }
  });
});

describe("a page's data loaded in-process", () => {
  const requestsTo = async (route: string) => {
    const text = (await api.metrics()).text;
    const escaped = route.replace(/\//g, '\\/');
    return Number(
      new RegExp(`^shop_http_requests_total\\{method="GET",route="${escaped}",status="200"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0,
    );
  };

  it("is a part of the page's request: no log line and no request count of its own; a client cannot pass for it", async () => {
    const load = directLoad('GET /api/blog/tags');
    expect(load).not.toBeNull();
    expect((await load!()) as { data: unknown[] }).toMatchObject({ data: expect.any(Array) });
    expect(lines.filter((line) => line.url === '/api/blog/tags')).toHaveLength(0);
    expect(await requestsTo('/api/blog/tags')).toBe(0);

    const claimed = await api.request('GET', '/api/blog/tags', { headers: { [IN_PROCESS_HEADER]: 'a-guess' } });
    expect(claimed.status).toBe(200);
    expect(logOf(claimed.headers.get('x-request-id'))).toHaveLength(1);
    expect(await requestsTo('/api/blog/tags')).toBe(1);
  });
});

describe('secrets in addresses never reach the log', () => {
  it('reset, e-mail, preview and order tokens in a query or a path are replaced in every line that names the address', async () => {
    const secrets = ['RESET-SECRET-7f3a', 'EMAIL-SECRET-91bc', 'PREVIEW-SECRET-55de', 'ORDER-SECRET-0a1b', 'ORDER-SECRET-2c3d'];
    const asked = [
      `/account/password-reset?token=${secrets[0]}`,
      `/account/profile?emailToken=${secrets[1]}&tab=1`,
      `/preview?token=${secrets[2]}`,
      `/payment/success?order=${secrets[3]}`,
      `/api/orders/${secrets[4]}`,
      `/checkout/thankyou/${secrets[4]}`,
      `/test-logs-its-address?x=1&%74oken=${secrets[0]}`,
    ];
    const ids: (string | null)[] = [];
    for (const path of asked) ids.push((await api.request('GET', path)).headers.get('x-request-id'));
    const logged = ids.flatMap((id) => logOf(id));
    expect(logged.length).toBeGreaterThanOrEqual(asked.length + 1);
    const text = JSON.stringify(logged);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(logged.map((line) => line.url)).toEqual(
      expect.arrayContaining([
        '/account/password-reset?token=REDACTED',
        '/account/profile?emailToken=REDACTED&tab=1',
        '/preview?token=REDACTED',
        '/payment/success?order=REDACTED',
        '/api/orders/REDACTED',
        '/checkout/thankyou/REDACTED',
        '/test-logs-its-address?x=1&%74oken=REDACTED',
      ]),
    );
    // The route's own warn line went through the same serializer.
    expect(logged.find((line) => line.msg === 'a route names its address')?.url).toBe('/test-logs-its-address?x=1&%74oken=REDACTED');
  });

  it('keeps the rest of an address, and bounds its length', () => {
    expect(redactUrl('/c/tehly?page=2&sort=price')).toBe('/c/tehly?page=2&sort=price');
    expect(redactUrl('/account/orders/abc/x?resetToken=1&q=2')).toBe('/account/orders/REDACTED/x?resetToken=REDACTED&q=2');
    expect(redactUrl(`/s?q=${'a'.repeat(500)}`)).toHaveLength(300);
    expect(redactUrl(undefined)).toBeUndefined();
  });
});
