import { timingSafeEqual } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Fastify from 'fastify';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import type { Db, DialectName } from './db/database.ts';
import { createTokenService, sessionAnswers } from './infra/auth/auth.ts';
import { COMPRESSION } from './infra/http/compression.ts';
import { errorHandler, notFoundHandler } from './infra/http/error-handler.ts';
import { localDataFileStore, type FileStore } from './infra/storage/file-store.ts';
import { frameworkErrorOptions, requireHostHeader } from './infra/http/framework-errors.ts';
import { addSecurityHeaders } from './infra/http/security-headers.ts';
import { createMetrics, type Metrics } from './infra/observability/metrics.ts';
import { integrityFindings } from './domains/releases/integrity-findings.repository.ts';
import { openApiRoute, registerOpenApi } from './infra/http/openapi.ts';
import { rejectNulCharacters, validatorCompiler } from './infra/http/validation.ts';
import { serializerCompiler } from './infra/http/serialization.ts';
import { loggingOptions, observeRequests, type LoggerOption } from './infra/observability/observability.ts';
import { DEFAULT_OUTBOX, OutboxWorker, type OutboxOptions } from './infra/outbox/outbox.ts';
import { cachePublicResponses, DEFAULT_RESPONSE_CACHE, ResponseCache, type ResponseCacheOptions } from './infra/cache/response-cache.ts';
import { readBackupStatus } from './backup/status.repository.ts';
import { PaymentRepository } from './domains/ordering/order-core/payment.repository.ts';
import { accountRoutes } from './domains/account/profile/index.ts';
import { addressRoutes } from './domains/account/addresses/index.ts';
import { complaintRoutes } from './domains/ordering/complaints/index.ts';
import { orderHistoryRoutes } from './domains/ordering/order-history/index.ts';
import { catalogRoutes } from './domains/catalog/products/index.ts';
import { contentRoutes } from './domains/content/site/index.ts';
import { couponRoutes } from './domains/ordering/coupon/index.ts';
import type { ApiDeps, ReadinessCheck, ReleasedVersions, StackMapper } from './infra/deps.ts';
import { createSharedState } from './infra/cache/shared-state.ts';
import { DEFAULT_RATE_LIMITS, type AuthRateLimit, type CheckoutRateLimit, type RateLimitWindow } from './infra/cache/rate-limit.ts';
import { mediaRoutes } from './domains/catalog/media/index.ts';
import { redirectRoutes } from './domains/catalog/redirect/index.ts';
import { searchRoutes } from './domains/catalog/search/index.ts';
import { checkoutRoutes } from './domains/ordering/checkout/index.ts';
import { defaultCheckoutOptions, type CheckoutOptions } from './infra/checkout-options.ts';
import { createMailer } from './infra/outbox/mailer.ts';
import { MAIL_TOPIC, mailJobHandler } from './infra/outbox/mail-outbox.ts';
import { healthRoutes } from './domains/ops/health/index.ts';
import { seoRoutes } from './domains/catalog/seo/index.ts';
import { orderRoutes } from './domains/ordering/orders/index.ts';
import { paymentRoutes } from './domains/ordering/payments/index.ts';
import { contactRoutes } from './domains/content/contact/index.ts';
import { loyaltyRoutes } from './domains/account/loyalty/index.ts';
import { pickupPointRoutes } from './domains/ordering/pickup-points/index.ts';
import { telemetryRoutes } from './domains/ops/telemetry/index.ts';
import { operatorAuth } from './infra/auth/operator-auth.ts';
import { OPERATOR_REAUTH_MS } from './domains/operators/operator-accounts.repository.ts';
import { machineCredential } from './domains/operators/machine-credentials.repository.ts';
import { releaseIdentities } from './domains/releases/identities.repository.ts';
import { CSP_ROWS_PER_DAY, rowsPerBucket } from './domains/ops/telemetry/csp-violations.repository.ts';
import { telemetrySessionKey } from './domains/ops/telemetry/telemetry-session.ts';

export { createDatabase } from './db/create-database.ts';

/**
 * How long a client may take (ms): its headers 10 s, the whole request (headers and body) 30 s, an
 * idle socket 30 s. A slow client cannot hold a connection open for longer; the refusal is a 408 in
 * the error shape.
 * An idle keep-alive connection stays 65 s: longer than a load balancer keeps its idle upstream
 * connections (nginx and cloud balancers: 60 s). The side that closes an idle connection first races
 * the other's next request on it, and a POST lost that way is not retried (ECONNRESET); with 5 s
 * (Node's default) a client pausing about 5 s between calls lost it now and then.
 */
export type ServerTimeouts = { headersTimeout: number; requestTimeout: number; connectionTimeout: number; keepAliveTimeout: number };
/** The largest JSON body a route takes unless it sets its own limit (nginx in the cluster refuses at the same size). */
export const API_BODY_LIMIT = 256 * 1024;
export const SERVER_TIMEOUTS: ServerTimeouts = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  connectionTimeout: 30_000,
  keepAliveTimeout: 65_000,
};
export type { CreateDatabaseOptions, CreatedDatabase } from './db/create-database.ts';

export type BuildApiOptions = {
  db: Db;
  dialect: DialectName;
  /** HS256 key for sign-in tokens (at least 16 characters). */
  jwtSecret: string;
  /** JSON log lines (Fastify's pino logger), on by default at LOG_LEVEL or info; false: none (tests). */
  logger?: LoggerOption;
  /** The outbox worker's timing (infra/outbox/outbox.ts); default DEFAULT_OUTBOX. */
  outbox?: Partial<OutboxOptions>;
  /** What /api/ready checks besides the database (e.g. the release registry). */
  readiness?: ReadinessCheck[];
  /** A browser reported that an area's version failed to load (the server's integrity watch checks its files). */
  onClientLoadFailure?: (area: string, version: string | null) => void;
  /** Client timeouts (default SERVER_TIMEOUTS). */
  timeouts?: Partial<ServerTimeouts>;
  /** Proxies whose X-Forwarded-* headers are believed (Fastify's trustProxy); default none. */
  trustProxy?: string | false;
  /**
   * The shop's settings: public address, card gateway, e-mail, bank account, invoice folder. Each
   * domain gets them under their own names (ApiDeps), never as this bag; defaults suit tests of other domains.
   */
  checkout?: CheckoutOptions;
  /** Contact form rate limit per address (default 5 messages in 10 minutes). */
  contactRateLimit?: RateLimitWindow;
  /** Sign-in, sign-up and password reset limits per address and per account. */
  authRateLimit?: AuthRateLimit;
  /** Order and quote limits per address, and the addresses exempt from them (infra/cache/rate-limit.ts). */
  checkoutRateLimit?: CheckoutRateLimit;
  /** Client telemetry reports per address (default 120 a minute; domains/ops/telemetry). */
  telemetryRateLimit?: RateLimitWindow;
  /** New telemetry sessions per address (default 10 in 10 minutes). */
  telemetrySessionRateLimit?: RateLimitWindow;
  /**
   * The part versions in force or in a canary (the server reads them from the release registry: domains/releases/shop-releases.ts):
   * telemetry about any other version is dropped. Default: none, so nothing is kept.
   */
  releasedVersions?: () => Promise<ReleasedVersions>;
  /** Maps client errors' stacks with the released source maps (the server's: the origin's, verified); default none: kept as reported. */
  stackMapper?: StackMapper;
  /**
   * Complaint photos and invoice copies (infra/storage/file-store.ts; the server's: fileStoreFromEnv). Default:
   * the local directories, complaint photos in `uploadDir` and invoice copies in the checkout's `invoiceDir`.
   */
  files?: FileStore;
  /** The local folder of complaint photos when `files` is not given; default: `complaints/` beside the checkout's invoice folder (the data directory). */
  uploadDir?: string;
  /** Addresses per sitemap file (default 50,000, the protocol's limit; tests split with fewer). */
  sitemapUrlsPerFile?: number;
  /**
   * The public catalog's response cache (infra/cache/response-cache.ts); default DEFAULT_RESPONSE_CACHE.
   * `false`: every call computes its answer (measuring the database queries, tools/bench/catalog/catalog-bench.ts).
   */
  responseCache?: ResponseCacheOptions | false;
  /** Redis shared with the other servers (REDIS_URL; infra/cache/shared-state.ts): rate limits, catalog changes. Default none: one server. */
  redisUrl?: string;
  /** Whether this process carries out the outbox's jobs (default true; false for a web server beside separate workers). */
  backgroundJobs?: boolean;
  /**
   * Load the filtered listings' index of every category once the server is ready, in the
   * background (domains/catalog/products/repository/listing-index.ts), so that no shopper's request after a
   * start or a restart pays for it. Default false (tests load categories as they ask for them).
   */
  warmCatalog?: boolean;
  /**
   * The migration path off the retired shared operator token (METRICS_OPERATOR_TOKEN=on): while
   * given, /api/metrics takes this token too, so a Prometheus not yet moved to its metrics credential
   * keeps scraping. Nothing else reads it. Default none.
   */
  legacyMetricsToken?: string | null;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Carries out the side effects queued with their cause (e-mails, refunds); `await app.outbox.drain()` runs what is due. */
    outbox: OutboxWorker;
    metrics: Metrics;
    /** The one dependency object the domains got; the operator origin (operator-app.ts) gives its routes the same. */
    deps: ApiDeps;
  }
}

/** What both origins' servers are built with: logging, client timeouts, proxies, body limit, framework errors. */
export type ServerBase = Pick<BuildApiOptions, 'logger' | 'timeouts' | 'trustProxy'>;

/**
 * A Fastify server with what every answer of the shop needs, on either origin: compression, the
 * validation without coercion, security headers, the Host and NUL refusals, the one error handler
 * and the error-shaped not-found answer.
 */
export function baseServer(opts: ServerBase & { hsts: boolean }): FastifyInstance {
  const { headersTimeout, ...timeouts } = { ...SERVER_TIMEOUTS, ...opts.timeouts };
  const app = Fastify({
    ...loggingOptions(opts.logger),
    ...timeouts,
    // Node checks the header and request deadlines on this interval (its default, 30 s, would double them).
    // Node's own Host check answers a bare 400; requireHostHeader (below) answers it in the error shape.
    http: { headersTimeout, connectionsCheckingInterval: 1000, requireHostHeader: false },
    trustProxy: opts.trustProxy ?? false,
    bodyLimit: API_BODY_LIMIT,
    ...frameworkErrorOptions,
  });
  // First, so that every route registered after it (the shop's pages too) compresses its answers.
  app.register(fastifyCompress, COMPRESSION);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  addSecurityHeaders(app, { hsts: opts.hsts });
  app.addHook('onRequest', requireHostHeader);
  app.addHook('preValidation', rejectNulCharacters);
  app.setErrorHandler(errorHandler);
  // Unknown paths and methods outside /api (e.g. POST /media/…) answer in the same shape; the shop's
  // server adds its pages for every other GET.
  app.setNotFoundHandler(notFoundHandler);
  return app;
}

/**
 * The HTTP API: JSON calls under /api and generated product pictures under /media.
 * The caller adds anything else (static front-end) and listens; an unknown /api path answers
 * a JSON 404, other unknown paths are left to the caller.
 */
export function buildApi(opts: BuildApiOptions): FastifyInstance {
  const app = baseServer({ ...opts, hsts: (opts.checkout?.publicUrl ?? '').startsWith('https:') });
  registerOpenApi(app);
  openApiRoute(app);

  const outbox = new OutboxWorker(
    opts.db,
    app.log,
    {
      done: (topic) => metrics.outbox.inc({ topic, outcome: 'done' }),
      retry: (topic) => metrics.outbox.inc({ topic, outcome: 'retry' }),
      dead: (topic) => metrics.outbox.inc({ topic, outcome: 'dead' }),
    },
    { ...DEFAULT_OUTBOX, ...opts.outbox },
  );
  const metrics = createMetrics(
    () => outbox.backlog(),
    () => readBackupStatus(opts.db),
    async () => {
      const findings = integrityFindings(opts.db);
      const [counts, last] = await Promise.all([findings.counts(), findings.lastCheck()]);
      return { counts, lastCheck: last?.at ?? null };
    },
    () => new PaymentRepository(opts.db).pendingRefunds(),
    async () => ({ rows: await rowsPerBucket(opts.db, new Date()), limit: CSP_ROWS_PER_DAY }),
  );
  app.decorate('outbox', outbox);
  app.decorate('metrics', metrics);
  observeRequests(app, metrics);
  // Every process that queues jobs makes their store ready (pg-boss: its schema and queues); only workers take them.
  app.addHook('onReady', async () => (opts.backgroundJobs === false ? outbox.prepare() : outbox.start()));
  const shared = opts.redisUrl ? createSharedState(opts.redisUrl, app.log) : null;
  if (shared) {
    app.addHook('onReady', () => shared.start());
    app.addHook('onClose', () => shared.close());
  }
  // A write may have queued a job in its transaction: look for it as soon as the answer is out.
  app.addHook('onResponse', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') outbox.kick();
  });
  // A graceful stop lets the running jobs finish; the queued ones wait in the store for the next start.
  app.addHook('onClose', async () => outbox.close());
  const checkout = opts.checkout ?? defaultCheckoutOptions(join(tmpdir(), `shop-api-${process.pid}`));
  const mailer = createMailer({ outboxDir: checkout.outboxDir, smtpUrl: checkout.smtpUrl, from: checkout.mailFrom });
  outbox.handle(MAIL_TOPIC, mailJobHandler(mailer, checkout.mailFrom));
  // The one dependency object, built from the infrastructure above; every domain plugin gets it as it is,
  // each setting under its own name (a domain's jobs are its own: e.g. orders handle their confirmations).
  const deps: ApiDeps = {
    db: opts.db,
    dialect: opts.dialect,
    tokens: createTokenService(opts.jwtSecret),
    publicUrl: checkout.publicUrl,
    gateway: { ...checkout.gateway, notifyUrl: checkout.notifyUrl },
    mail: { smtpUrl: checkout.smtpUrl, from: checkout.mailFrom, outboxDir: checkout.outboxDir, mailer },
    iban: checkout.iban,
    metrics,
    limits: {
      auth: opts.authRateLimit ?? DEFAULT_RATE_LIMITS.auth,
      checkout: opts.checkoutRateLimit ?? DEFAULT_RATE_LIMITS.checkout,
      contact: opts.contactRateLimit ?? DEFAULT_RATE_LIMITS.contact,
      telemetry: opts.telemetryRateLimit ?? DEFAULT_RATE_LIMITS.telemetry,
      telemetrySessions: opts.telemetrySessionRateLimit ?? DEFAULT_RATE_LIMITS.telemetrySessions,
    },
    telemetry: {
      releasedVersions: opts.releasedVersions ?? (async () => new Map()),
      sessionKey: telemetrySessionKey(opts.jwtSecret),
      stacks: opts.stackMapper ?? null,
    },
    readiness: opts.readiness ?? [],
    onClientLoadFailure: opts.onClientLoadFailure ?? (() => undefined),
    warmCatalog: opts.warmCatalog ?? false,
    shared,
    files:
      opts.files ??
      localDataFileStore({
        complaintsDir: opts.uploadDir ?? join(dirname(checkout.invoiceDir), 'complaints'),
        invoicesDir: checkout.invoiceDir,
      }),
  };
  const responseCache = opts.responseCache === false ? null : new ResponseCache(opts.responseCache ?? DEFAULT_RESPONSE_CACHE);
  app.decorate('deps', deps);
  // The shop's origin reads no operator's cookie: its one credentialed operator route is /api/metrics,
  // for a machine credential (operator routes answer on the operator origin only, operator-app.ts).
  const legacy = opts.legacyMetricsToken ? Buffer.from(opts.legacyMetricsToken) : null;
  app.register(operatorAuth, {
    operatorOrigin: null,
    bearer: async (token) => {
      if (legacy && legacy.length === Buffer.byteLength(token) && timingSafeEqual(legacy, Buffer.from(token)))
        return { kind: 'machine', name: 'operator-token (migration)', scope: 'metrics' };
      return machineCredential(opts.db, token).then((machine) => (machine ? { kind: 'machine', ...machine } : null));
    },
    audit: (entry) => releaseIdentities(opts.db).audit(entry),
    reauthMs: OPERATOR_REAUTH_MS,
  });

  app.register(
    async (api) => {
      api.setNotFoundHandler(notFoundHandler);
      sessionAnswers(api, checkout.publicUrl);
      // The public, anonymous, read-only catalog: its GET answers are cached (and nothing else is).
      await api.register(async (publicCatalog) => {
        cachePublicResponses(publicCatalog, responseCache);
        await publicCatalog.register(catalogRoutes, deps);
        await publicCatalog.register(searchRoutes, deps);
      });
      for (const domain of [
        contentRoutes,
        redirectRoutes,
        healthRoutes,
        accountRoutes,
        couponRoutes,
        checkoutRoutes,
        orderRoutes,
        paymentRoutes,
        contactRoutes,
        loyaltyRoutes,
        pickupPointRoutes,
        telemetryRoutes,
        addressRoutes,
        orderHistoryRoutes,
        complaintRoutes,
      ]) {
        await api.register(domain, deps);
      }
    },
    { prefix: '/api' },
  );
  app.register(mediaRoutes, { ...deps, prefix: '/media' });
  // robots.txt, sitemaps and product feeds live at the root, where crawlers and comparators look.
  app.register(seoRoutes, { ...deps, urlsPerFile: opts.sitemapUrlsPerFile });

  return app;
}
