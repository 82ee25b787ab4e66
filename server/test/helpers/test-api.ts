/* eslint-disable @typescript-eslint/no-explicit-any -- test answers are typed per call by the caller (T defaults to any) */
import { randomBytes } from 'node:crypto';
import { throwawayPostgres } from './throwaway-database.ts';
import { copySqliteTemplate, databaseTemplate } from './database-template.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { createDatabase, type ServerTimeouts } from '../../src/app.ts';
import type { Db, DialectName } from '../../src/db/database.ts';
import { defaultCheckoutOptions, type CheckoutOptions } from '../../src/infra/checkout-options.ts';
import { DEFAULT_RATE_LIMITS, type AuthRateLimit, type CheckoutRateLimit, type RateLimitWindow } from '../../src/infra/cache/rate-limit.ts';
import type { ResponseCacheOptions } from '../../src/infra/cache/response-cache.ts';
import type { LoggerOption } from '../../src/infra/observability/observability.ts';
import type { ReadinessCheck, StackMapper } from '../../src/infra/deps.ts';
import { releasePreviews } from '../../src/domains/releases/previews.repository.ts';
import type { OperatorApiOptions } from '../../src/operator-app.ts';
import { buildShopServers } from '../../src/shop-servers.ts';
import { operatorAccounts, type OperatorAccountsOptions } from '../../src/domains/operators/operator-accounts.repository.ts';
import { createMachineCredential } from '../../src/domains/operators/machine-credentials.repository.ts';
import { localDirectoryStorage } from '@shop/release';
import { signInOperator, type SignedInOperator } from './operator-session.ts';

export type HttpResult<T = any> = { status: number; headers: Headers; body: T; text: string };

export type TestApi = {
  baseUrl: string;
  dataDir: string;
  /** The PostgreSQL database's connection string; undefined on SQLite. */
  databaseUrl: string | undefined;
  db: Db;
  dialect: DialectName;
  seeded: boolean;
  seedMs: number;
  jwtSecret: string;
  /** Every route the API registered (method and URL pattern, and its schema when it has one). */
  routes: { method: string; url: string; schema?: FastifySchema }[];
  /** The shop's server (app.ts's buildApi, built with the operator origin by shop-servers.ts as the server builds them). */
  app: FastifyInstance;
  /** The operator origin's address (its own server, operator-app.ts, listening beside the shop's). */
  opsUrl: string;
  /** Every route of the operator origin. */
  opsRoutes: { method: string; url: string; schema?: FastifySchema }[];
  /** A request to the operator origin; a change is sent as the console sends it (JSON, its Origin) unless `headers` say otherwise. */
  ops<T = any>(
    method: string,
    path: string,
    options?: { json?: unknown; cookie?: string; headers?: Record<string, string>; token?: string },
  ): Promise<HttpResult<T>>;
  /** A signed-in operator with a second factor (created once per API and kept; its code counts as fresh for 5 minutes). */
  operator(): Promise<SignedInOperator>;
  /** A request to the operator origin as `operator()`. */
  asOperator<T = any>(method: string, path: string, json?: unknown): Promise<HttpResult<T>>;
  /** A metrics credential (created once per API): Prometheus's bearer token for /api/metrics. */
  metricsToken(): Promise<string>;
  /** GET /api/metrics with the metrics credential. */
  metrics(): Promise<HttpResult<string>>;
  request<T = any>(
    method: string,
    path: string,
    options?: { json?: unknown; raw?: string; contentType?: string; token?: string; headers?: Record<string, string> },
  ): Promise<HttpResult<T>>;
  get<T = any>(path: string, token?: string): Promise<HttpResult<T>>;
  post<T = any>(path: string, json: unknown, token?: string): Promise<HttpResult<T>>;
  login(email?: string, password?: string): Promise<{ token: string; userId: number }>;
  /** Runs the outbox jobs that are due (e-mails, refunds) until none is left. */
  sideWorkDone(): Promise<void>;
  close(): Promise<void>;
};

/**
 * A real API on 127.0.0.1 with a fresh database: SQLite in a temp directory, or, when
 * DATABASE_URL is set, a uniquely named PostgreSQL database created through that admin
 * connection and dropped on close.
 */
export type StartTestApiOptions = {
  /** Checkout options from the test's temp data directory. */
  checkout?: (dataDir: string) => CheckoutOptions;
  contactRateLimit?: { max: number; timeWindowMs: number };
  /** Sign-in, sign-up and reset limits. */
  authRateLimit?: AuthRateLimit;
  /**
   * Order and quote limits per address. Default: the production limits ×100, as test files
   * place dozens of orders from 127.0.0.1; the limits are tested in checkout-rate-limit.test.ts.
   */
  checkoutRateLimit?: CheckoutRateLimit;
  /** Load the listing index of every category once ready, as the shop's servers do (default: no). */
  warmCatalog?: boolean;
  /** Runs the migrations and the seed on an empty database, as a new shop does (default: a copy of the run's template). */
  newDatabase?: boolean;
  /** The catalog's response cache (default: the API's default). */
  responseCache?: ResponseCacheOptions | false;
  /** Log lines (default: none; a stream to assert on them). */
  logger?: LoggerOption;
  /** What /api/ready checks besides the database. */
  readiness?: ReadinessCheck[];
  /** Client timeouts (default: the production ones). */
  timeouts?: Partial<ServerTimeouts>;
  /** Client telemetry reports per address (default: the API's, 30 a minute). */
  telemetryRateLimit?: RateLimitWindow;
  /** Adds hooks to the app before it listens (e.g. to tamper with an answer before it is serialised). */
  configure?: (app: FastifyInstance, context: { db: Db; dataDir: string }) => void;
  /** Addresses per sitemap file (default: the protocol's 50,000). */
  sitemapUrlsPerFile?: number;
  /** Redis shared with other servers (default: none). */
  redisUrl?: string;
  /**
   * A data directory (and PostgreSQL database) that exist already, e.g. a restored backup, instead of
   * fresh ones; close() leaves them to the caller.
   */
  existing?: { dataDir: string; databaseUrl?: string };
  /** The token signing secret (default: a random one). */
  jwtSecret?: string;
  /** Whether the outbox takes its jobs by itself (default true); false: they wait for sideWorkDone(). */
  backgroundJobs?: boolean;
  /** The retired operator token's migration path on /api/metrics (BuildApiOptions.legacyMetricsToken). */
  legacyMetricsToken?: string;
  /**
   * Proxies whose X-Forwarded-* are believed, on both origins (default none): a test then speaks for
   * many client addresses (`true`: 127.0.0.1).
   */
  trustProxy?: boolean | string;
  /** The operator console's release views (default: an empty origin in the data directory, a random preview secret); a function gets the database. */
  operatorConsole?:
    Partial<OperatorApiOptions['console']> | ((context: { db: Db; dataDir: string }) => Partial<OperatorApiOptions['console']>);
  /** The operator origin's other settings (its clock, re-authentication window, console files). */
  operatorOrigin?: Partial<Omit<OperatorApiOptions, 'console' | 'operators'>> & { accounts?: OperatorAccountsOptions };
  /** The database handle the API is given, from the test's (e.g. `db.withPlugin(…)` to watch the queries it runs). */
  database?: (db: Db) => Db;
  /** The part versions telemetry is kept for (default: none, as the API's). */
  releasedVersions?: () => Promise<ReadonlyMap<string, ReadonlySet<string>>>;
  /** Maps client errors' stacks (domains/ops/telemetry/stack-mapper.ts); default none. */
  stackMapper?: StackMapper;
  /** New telemetry sessions per address (default: the API's). */
  telemetrySessionRateLimit?: RateLimitWindow;
};

const TEST_CHECKOUT_RATE_LIMIT: CheckoutRateLimit = {
  orders: { ...DEFAULT_RATE_LIMITS.checkout.orders, max: DEFAULT_RATE_LIMITS.checkout.orders.max * 100 },
  quotes: { ...DEFAULT_RATE_LIMITS.checkout.quotes, max: DEFAULT_RATE_LIMITS.checkout.quotes.max * 100 },
  allowList: [],
};

export async function startTestApi(options: StartTestApiOptions = {}): Promise<TestApi> {
  const dataDir = options.existing?.dataDir ?? mkdtempSync(join(tmpdir(), 'shop-api-test-'));
  // A copy of the run's migrated and seeded template (helpers/database-template.ts), not a new one from nothing.
  const template = options.existing || options.newDatabase ? null : databaseTemplate();
  const postgres = options.existing
    ? null
    : await throwawayPostgres(undefined, template?.kind === 'postgres' ? { template: template.name } : {});
  if (template?.kind === 'sqlite') copySqliteTemplate(template, dataDir);
  const databaseUrl = options.existing ? options.existing.databaseUrl : postgres?.url;
  const cleanup = async () => {
    if (options.existing) return;
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };

  const database = await createDatabase({ dataDir, databaseUrl });
  const jwtSecret = options.jwtSecret ?? randomBytes(32).toString('hex');
  const trustProxy = options.trustProxy === true ? '127.0.0.1' : options.trustProxy || undefined;
  // The operator origin is told its address (OPS_URL) when it is built: a port is chosen for it first.
  const opsPort = await freePort();
  const opsUrl = `http://127.0.0.1:${opsPort}`;
  const { accounts, ...operatorOrigin } = options.operatorOrigin ?? {};
  const { api: app, operatorOrigin: operatorApp } = buildShopServers({
    api: {
      db: options.database?.(database.db) ?? database.db,
      dialect: database.dialect,
      jwtSecret,
      logger: options.logger ?? false,
      ...(options.readiness ? { readiness: options.readiness } : {}),
      ...(options.timeouts ? { timeouts: options.timeouts } : {}),
      // Everything the API writes (outbox, invoices, photos) stays in the test's data directory, removed on close.
      checkout: options.checkout?.(dataDir) ?? defaultCheckoutOptions(dataDir),
      ...(options.contactRateLimit ? { contactRateLimit: options.contactRateLimit } : {}),
      ...(options.authRateLimit ? { authRateLimit: options.authRateLimit } : {}),
      ...(options.telemetryRateLimit ? { telemetryRateLimit: options.telemetryRateLimit } : {}),
      checkoutRateLimit: options.checkoutRateLimit ?? TEST_CHECKOUT_RATE_LIMIT,
      ...(options.responseCache !== undefined ? { responseCache: options.responseCache } : {}),
      ...(options.sitemapUrlsPerFile ? { sitemapUrlsPerFile: options.sitemapUrlsPerFile } : {}),
      ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}),
      ...(options.warmCatalog ? { warmCatalog: true } : {}),
      ...(options.backgroundJobs === false ? { backgroundJobs: false } : {}),
      ...(trustProxy ? { trustProxy } : {}),
      ...(options.legacyMetricsToken ? { legacyMetricsToken: options.legacyMetricsToken } : {}),
      ...(options.releasedVersions ? { releasedVersions: options.releasedVersions } : {}),
      ...(options.stackMapper ? { stackMapper: options.stackMapper } : {}),
      ...(options.telemetrySessionRateLimit ? { telemetrySessionRateLimit: options.telemetrySessionRateLimit } : {}),
    },
    // The operator origin beside it, as the server builds it.
    operatorOrigin: {
      logger: options.logger ?? false,
      ...(trustProxy ? { trustProxy } : {}),
      operatorUrl: opsUrl,
      operators: operatorAccounts(database.db, accounts),
      ...operatorOrigin,
      console: {
        storage: localDirectoryStorage(join(dataDir, 'ops-origin')),
        previews: releasePreviews(database.db),
        publicUrl: 'http://localhost:3000',
        ...(typeof options.operatorConsole === 'function'
          ? options.operatorConsole({ db: database.db, dataDir })
          : options.operatorConsole),
      },
    },
  });
  const routes: TestApi['routes'] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, ...(route.schema ? { schema: route.schema } : {}) });
  });
  const opsRoutes: TestApi['opsRoutes'] = [];
  operatorApp.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      opsRoutes.push({ method, url: route.url, ...(route.schema ? { schema: route.schema } : {}) });
  });
  options.configure?.(app, { db: database.db, dataDir });
  // The operator origin takes its chosen port first (as the server listens), before the API's own port is picked.
  await operatorApp.listen({ port: opsPort, host: '127.0.0.1' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;

  const send = async (base: string, method: string, path: string, options: Parameters<TestApi['request']>[2] = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.raw !== undefined) {
      headers['content-type'] = options.contentType ?? 'application/json';
      body = options.raw;
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await fetch(`${base}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: any = text;
    if (response.headers.get('content-type')?.includes('application/json')) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed, text };
  };

  const request: TestApi['request'] = (method, path, options) => send(baseUrl, method, path, options);
  const ops: TestApi['ops'] = (method, path, options = {}) =>
    send(opsUrl, method, path, {
      ...(options.json !== undefined ? { json: options.json } : {}),
      ...(options.token ? { token: options.token } : {}),
      headers: {
        ...(method === 'GET' || method === 'HEAD' ? {} : { origin: opsUrl }),
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...options.headers,
      },
    });
  let signedIn: Promise<SignedInOperator> | null = null;
  let metricsSecret: Promise<string> | null = null;

  const api: TestApi = {
    baseUrl,
    dataDir,
    databaseUrl,
    db: database.db,
    dialect: database.dialect,
    seeded: database.seeded,
    seedMs: database.seedMs,
    jwtSecret,
    routes,
    app,
    opsUrl,
    opsRoutes,
    ops,
    operator: () => (signedIn ??= signInOperator(database.db, opsUrl)),
    async asOperator(method, path, json) {
      const { cookie } = await api.operator();
      return ops(method, path, { cookie, ...(json !== undefined ? { json } : method === 'GET' ? {} : { json: {} }) });
    },
    metricsToken: () =>
      (metricsSecret ??= createMachineCredential(database.db, { name: `metrics-${randomBytes(3).toString('hex')}`, scope: 'metrics' })),
    async metrics() {
      return request('GET', '/api/metrics', { token: await api.metricsToken() });
    },
    request,
    get: (path, token) => request('GET', path, { token }),
    post: (path, json, token) => request('POST', path, { json, token }),
    async login(email = 'zakaznik@example.sk', password = 'Heslo123!') {
      const res = await request('POST', '/api/account/login', { json: { email, password } });
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
      return { token: res.body.data.token, userId: res.body.data.user.id };
    },
    sideWorkDone: () => app.outbox.drain(),
    async close() {
      await operatorApp.close();
      await app.close();
      await database.close();
      await cleanup();
    },
  };
  return api;
}

/** Requirements R9.4 before rounding (the API sorts by this; rounding keeps the order). */
export function priceWithVat(v: { v_sellPrice: number; v_vat: number; v_sale: number }): number {
  return ((v.v_sellPrice * (100 + v.v_vat)) / 100) * (1 - v.v_sale / 100_000);
}

export function expectErrorShape(body: unknown, code: string): void {
  const error = (body as { error?: { code?: unknown; message?: unknown } }).error;
  if (!error || error.code !== code || typeof error.message !== 'string' || error.message.length === 0) {
    throw new Error(`expected an error body with code ${code}, got ${JSON.stringify(body)}`);
  }
}

/** A free port on 127.0.0.1 (the operator origin's, which must be known before its server is built). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
