/**
 * The production server of `npm start`: the API and the shell on one origin,
 * the areas' static origin on a second port, the operator console and the
 * operator's calls on a third (the operator origin). Creates, migrates and
 * seeds the database on the first start.
 */
import { hostname } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { isArea, shopPaths } from '@shop/shared-kernel/contract';
import { buildApi, createDatabase, type CreatedDatabase } from './app.ts';
import { fileStoreFromEnv } from './file-store-from-env.ts';
import {
  legacyMetricsToken,
  loadGatewaySecret,
  loadJwtSecret,
  prepareDataDir,
  readCheckoutConfig,
  readServerConfig,
  shownHost,
} from './config.ts';
import { buildOperatorApi } from './operator-app.ts';
import { operatorLinks } from './web/operator-links.ts';
import { operatorCookieSecure } from './infra/auth/operator-auth.ts';
import { refundsShown } from './domains/ordering/payments/refunds-shown.ts';
import { cspViolationsReader } from './domains/ops/console/csp-violations.ts';
import { vitalsReader } from './domains/ops/console/vitals.ts';
import { sessionVitals } from './domains/ops/telemetry/client-sessions.repository.ts';
import { renderFailuresReader } from './domains/ops/console/render-failures.ts';
import { clientErrorsReader } from './domains/ops/console/client-errors.ts';
import { createStackMapper } from './domains/ops/telemetry/stack-mapper.ts';
import { topClientError } from './domains/ops/telemetry/client-errors.repository.ts';
import { recordRenderFailure } from './domains/ops/telemetry/render-failures.repository.ts';
import { releaseIdentities } from './domains/releases/identities.repository.ts';
import { releasePreviews } from './domains/releases/previews.repository.ts';
import { ensureFirstOperator, FIRST_OPERATOR } from './domains/operators/operator-admin.repository.ts';
import { DEFAULT_RATE_LIMITS } from './infra/cache/rate-limit.ts';
import type { ReleasedVersions } from './infra/deps.ts';
import { canaryMetrics } from './infra/observability/metrics.ts';
import { shellHost } from './web/shell-host.ts';
import { releasedFileCheck, type ReleasedFileCheck } from './web/verified-files.ts';
import { buildStaticOrigin, releasedFilesOnShopOrigin } from './web/static-origin.ts';
import {
  PRIVATE_KEY_VARIABLES,
  RELEASE_KEY_FILE,
  REGISTRY_KEY,
  type ReleaseStorage,
  S3_CACHE_DIR,
  storageFromEnv,
  canaryPolicyFrom,
  startCanaryWatch,
  type CanaryPolicy,
  type VersionHealth,
  type VitalsReader,
  releaseIntegrity,
  type ReleaseIntegrity,
  previewLink,
  type AreaName,
} from '@shop/release';
import { clientHealth } from './domains/ops/telemetry/client-health.ts';
import { registryEvents } from './web/registry-events.ts';
import { backupOverview, scheduleBackups, type ServerBackupOptions } from './backup/server-backups.ts';
import { releaseKeys } from './domains/releases/release-keys.repository.ts';
import { registryBook, setFloor, type TrustedRegistry } from './domains/releases/registry.repository.ts';
import { watchMoveRequests, type MoveRequestsWatch } from './domains/releases/move-requests.ts';
import { existsSync } from 'node:fs';
import { integrityFindings, type IntegrityFindings } from './domains/releases/integrity-findings.repository.ts';
import { integrityPolicyFrom, startIntegrityWatch, type IntegrityWatch } from './domains/releases/integrity-watch.ts';
import type { ServedOrigins } from './domains/releases/cdn-check.ts';

const log = (message: string) => process.stdout.write(`[server] ${message}\n`);

/** Why the server does not start without GATEWAY_URL: it never starts the simulator itself. */
const NO_GATEWAY = [
  "[server] GATEWAY_URL is not set: the server needs the card gateway's address (and its secret, GATEWAY_SECRET or <DATA_DIR>/gateway-secret).",
  "  In production: the payment provider's gateway.",
  '  For development: `npm start` (and the cluster, end-to-end and benchmark launchers) start the gateway simulator',
  '  (tools/gateway-simulator) and set GATEWAY_URL; by hand: GATEWAY_SECRET=… GATEWAY_PORT=3002 pnpm --filter @shop/gateway-simulator start',
].join('\n');

/** How long the registry's versions are reused for telemetry (ms): a release shows within it. */
const RELEASED_VERSIONS_MS = 1000;

/** The part versions in force or in a canary, from the release registry, read at most once a second. */
function releasedVersionsOf(book: TrustedRegistry): () => Promise<ReleasedVersions> {
  let kept: { at: number; versions: Promise<ReleasedVersions> } | null = null;
  return () => {
    if (!kept || Date.now() - kept.at > RELEASED_VERSIONS_MS) {
      const versions = book.read().then((registry) => {
        const map = new Map<string, Set<string>>();
        const add = (part: string, version: string | undefined) => {
          if (version) map.set(part, (map.get(part) ?? new Set()).add(version));
        };
        add('shell', registry.shell?.version);
        for (const [area, release] of Object.entries(registry.areas)) add(area, release?.version);
        for (const [area, canary] of Object.entries(registry.canaries ?? {})) add(area, canary?.version);
        return map as ReleasedVersions;
      });
      // A failed read is not kept: the next report reads again.
      versions.catch(() => (kept = null));
      kept = { at: Date.now(), versions };
    }
    return kept.versions;
  };
}

async function main() {
  // A web server or worker verifies with public keys only: it is never handed the private release key.
  const handed = PRIVATE_KEY_VARIABLES.filter((name) => process.env[name]);
  if (handed.length > 0) {
    process.stderr.write(
      `[server] ${handed.join(' and ')} set in the server's environment: a server holds no private release key (it verifies with the public keys in its database). Unset it; the release tool reads it, the server never does.\n`,
    );
    process.exit(1);
  }
  const config = readServerConfig(process.env);
  const checkoutConfig = readCheckoutConfig(process.env, config);
  // Read before anything starts: a bad CANARY_* value refuses the start with its message.
  const canaryPolicy = canaryPolicyFrom(process.env);
  const gatewayUrl = checkoutConfig.gatewayUrl;
  if (!gatewayUrl) {
    process.stderr.write(`${NO_GATEWAY}\n`);
    process.exit(1);
  }
  if (config.renderers.inProcessForBench) {
    process.stderr.write(
      "RENDER_IN_PROCESS_FOR_BENCH=1: the parts' server builds run in this process, without the sandbox (the benchmark's comparison only).\n",
    );
  }
  const standby = config.standby ? standbyChannel() : null;
  const started = performance.now();
  await prepareDataDir(config.dataDir);
  const database = await createDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  log(`database: ${database.dialect}${database.seeded ? `, created and seeded in ${(database.seedMs / 1000).toFixed(1)} s` : ', reused'}`);
  const jwtSecret = await loadJwtSecret(process.env, config.dataDir);
  const previews = releasePreviews(database.db);
  const legacyToken = await legacyMetricsToken(process.env, config.dataDir);
  // A new shop's first operator account, so that the console can be signed in to at once.
  const firstOperator = await ensureFirstOperator(database.db, config.dataDir);
  // Checkout: the card gateway at GATEWAY_URL (checked before anything starts).
  const gatewaySecret = await loadGatewaySecret(process.env, config.dataDir);
  // Releases: the origin directory, or an S3 bucket (S3_BUCKET) cached under <origin>/.s3-cache.
  const storage = storageFromEnv(process.env, config.originDir);
  // Signed releases: the public keys the shop accepts live in its database (the owner's command registers them).
  const keys = releaseKeys(database.db);
  if (existsSync(join(config.dataDir, RELEASE_KEY_FILE)))
    log(
      `WARNING: a private release key lies in ${join(config.dataDir, RELEASE_KEY_FILE)}, within this server's reach and its backups: move it out with \`npm run credentials -- shop-key-create\``,
    );
  const integrity = releaseIntegrity({ storage, keys: () => keys.trusted() });
  // The registry in force: the database, its revision only growing; the origin's files are an export.
  const book = registryBook(database.db);
  const identities = releaseIdentities(database.db);
  const findings = integrityFindings(database.db);
  // Set once the watch runs (below); a browser's report of a failed load reaches it.
  let watch: IntegrityWatch | null = null;
  // Complaint photos and invoice copies: the data directory, or the S3 bucket with S3_BUCKET.
  const files = fileStoreFromEnv(process.env, config.dataDir);
  const notifyHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const app = await buildApi({
    db: database.db,
    dialect: database.dialect,
    jwtSecret,
    trustProxy: config.trustProxy,
    ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
    // A standby worker takes no job before it takes over (then its outbox starts).
    backgroundJobs: config.role !== 'web' && !config.standby,
    // The servers that answer shoppers load the filtered listings' index ahead of their first requests.
    warmCatalogue: config.role !== 'worker',
    files,
    ...(config.serverCache ? {} : { responseCache: false as const }),
    // The release registry is what the shell is served from: without it the shop cannot answer pages.
    readiness: [
      {
        name: 'registry',
        label: 'Register verzií',
        check: async () => {
          if (!(await book.read()).shell) throw new Error('no shell in the release registry');
        },
      },
    ],
    onClientLoadFailure: (area, version) => watch?.reported(area, version),
    checkoutRateLimit: { ...DEFAULT_RATE_LIMITS.checkout, allowList: config.checkoutRateLimitAllowList },
    legacyMetricsToken: legacyToken,
    telemetryRateLimit: { max: config.telemetryRateLimit, timeWindowMs: 60_000 },
    telemetrySessionRateLimit: { max: config.telemetrySessionsPerAddress, timeWindowMs: 10 * 60_000 },
    // Telemetry is kept only about what browsers may be running: the versions in force and in a canary.
    releasedVersions: releasedVersionsOf(book),
    // Client errors' stacks mapped with the source maps released beside the files, as signed.
    stackMapper: createStackMapper({
      storage,
      integrity,
      onFrame: (outcome) => app.metrics.clientStackFrames.inc({ outcome }),
      onMapRefused: (ref, outcome) =>
        app.log.error(
          { integrity: { ...ref, file: `${ref.file}.map` }, outcome },
          'a released source map differs from its signed manifest or cannot be read; not used',
        ),
    }),
    checkout: {
      outboxDir: checkoutConfig.outboxDir,
      invoiceDir: checkoutConfig.invoiceDir,
      smtpUrl: checkoutConfig.smtpUrl,
      mailFrom: checkoutConfig.mailFrom,
      gateway: { url: gatewayUrl, secret: gatewaySecret },
      publicUrl: checkoutConfig.publicUrl,
      notifyUrl: `http://${notifyHost}:${config.port}/api/payments/notify`,
      iban: checkoutConfig.iban,
    },
  });
  const health = (since: Date) => clientHealth(database.db, since);
  // The canaries in /api/metrics, from the registry and its history: the same on every server.
  canaryMetrics(app.metrics.registry, async () => {
    const [registry, history] = await Promise.all([book.read(), book.history()]);
    return {
      areas: Object.keys(registry.areas),
      running: Object.entries(registry.canaries ?? {}).map(([area, canary]) => ({ area, share: canary?.share ?? 0 })),
      aborts: history
        .filter((move) => move.action === 'abort')
        .map((move) => ({ area: move.part, who: move.who, reason: move.reason ?? null })),
    };
  });
  // What the canary watch judges a canary on: the client error rate, the field Web Vitals (when a
  // reader is given; without one speed is not judged), and the signed files of a version it promotes.
  // Speed is judged per telemetry session (each its worst value), as the error rate is.
  // An abort for errors names the canary's most reported error group (its stack mapped with the canary's source maps).
  const canaryInputs: CanaryInputs = {
    health,
    integrity,
    policy: canaryPolicy,
    vitals: sessionVitals(database.db),
    book,
    topError: (area, version, since) => topClientError(database.db, area, version, since),
  };
  // The release tool's signed move requests on the origin are applied, and the origin's registry
  // files kept as an export, by the process running background work (every second; at its start a
  // request queued before the shop started is applied at once). Every process exports its own moves.
  const moveRequests = watchMoveRequests({
    storage,
    book,
    keys,
    integrity,
    identities,
    findings,
    log: app.log.child({ component: 'move-requests' }),
    onEvent: (kind) => app.metrics.releaseRequests.inc({ kind }),
    // A version the release command published for nobody comes back with a link to preview it in one browser.
    previewLink: async (part, version, by) =>
      isArea(part)
        ? previews.create({ area: part, version, by }).then(
            (made) => previewLink(checkoutConfig.publicUrl, made.token),
            // Too many open previews: the command says to get one in the console, where they are revoked.
            () => null,
          )
        : null,
  });
  // The card gateway's origin: the one place besides the shop a page's form may go.
  const gatewayOrigin = new URL(gatewayUrl).origin;
  // What a backup copies: the database, the file store, the secrets, and the origin when it is on this disk.
  const backupSources: ServerBackupOptions = {
    db: database.db,
    dialect: database.dialect,
    dataDir: config.dataDir,
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    files,
    originDir: storage.local ? config.originDir : null,
    env: process.env,
  };
  // A released file is sent only as signed; one that is not is reported to the watch at once.
  const releasedFiles = releasedFileCheck(integrity, (part, version, file) => {
    app.log.error({ integrity: { part, version, file } }, 'a released file differs from its signed manifest; not sent');
    watch?.reported(part, version);
  });
  const watchIntegrity = (scheduled: boolean) => {
    watch = integrityWatch(app, {
      storage,
      book,
      integrity,
      findings,
      checkoutPageUrl: `${checkoutConfig.publicUrl}${shopPaths.cart()}`,
      scheduled,
      // What browsers are sent is read back: the areas from ASSET_ORIGIN, the shell's files from the shop's address.
      served: { assetOrigin: config.assetOrigin, shopUrl: checkoutConfig.publicUrl },
      // A worker sends no released file; a server that does learns at once what its watch read on its disk.
      ...(config.role === 'worker' ? {} : { localFiles: releasedFiles }),
    });
    return watch;
  };
  if (config.role === 'worker') {
    return startWorker(app, database, {
      moveRequests,
      storage,
      canary: canaryInputs,
      port: config.port,
      host: config.host,
      started,
      standby,
      backups: backupSources,
      watchIntegrity,
    });
  }
  const backupRecord = backupOverview(database.db, process.env, config.dataDir);
  // The operator origin: the console and every operator call, on a port (and an origin) of their own.
  const operatorApp = buildOperatorApi(app, {
    operatorUrl: config.opsUrl,
    trustProxy: config.trustProxy,
    console: {
      storage,
      previews,
      publicUrl: checkoutConfig.publicUrl,
      health,
      backups: backupRecord,
      book,
      setFloor: (change) => setFloor(database.db, book, change),
      keys,
      integrity,
      findings,
      refunds: () => refundsShown(database.db),
      cspViolations: cspViolationsReader(database.db),
      vitals: vitalsReader(database.db),
      renderFailures: renderFailuresReader(database.db),
      clientErrors: clientErrorsReader(database.db),
      inventory: {
        tagManagerId: config.gtmId,
        policy: {
          assetOrigin: config.assetOrigin,
          tagManager: config.gtmId !== null,
          gateway: gatewayOrigin,
          reportTo: checkoutConfig.publicUrl.startsWith('https:'),
        },
      },
    },
  });
  operatorLinks(app, { opsUrl: config.opsUrl });
  registryEvents(app, { storage, book });
  // The areas' released files on the shop's own origin too: the shell's fallback when ASSET_ORIGIN fails.
  await releasedFilesOnShopOrigin(app, { storage, check: releasedFiles });
  await app.register(shellHost, {
    storage,
    book,
    assetOrigin: config.assetOrigin,
    gtmId: config.gtmId,
    registryPollMs: config.registryPollMs,
    telemetrySample: config.telemetrySample,
    previews,
    publicUrl: checkoutConfig.publicUrl,
    serverRender: config.serverRender,
    renderers: config.renderers,
    // Every server's failures in one table, so /ops lists them all (the log line has them too).
    onRenderFailure: (failure) =>
      void recordRenderFailure(database.db, {
        at: new Date(),
        part: failure.part,
        version: failure.version,
        reason: failure.reason,
        path: failure.url.split('?')[0] ?? '/',
        requestId: failure.requestId,
        server: `${hostname()}:${process.pid}`,
        message: failure.message,
      }).catch((error: unknown) => app.log.error({ err: error }, 'could not record a failed server render')),
    ...(config.serverCache ? {} : { pageCacheMs: 0 }),
    gatewayOrigin,
    integrity,
    check: releasedFiles,
    onRefusedVersion: (refused) => {
      app.log.error({ integrity: refused }, 'a version in the registry has no valid signed manifest; left out of pages');
      void findings
        .record({
          part: refused.part,
          version: refused.version,
          subject: 'release-manifest.json',
          kind: 'signature',
          expected: 'platný podpis',
          actual: refused.reason,
          action: 'alert',
        })
        .catch((error: unknown) => app.log.error({ err: error }, 'could not record an integrity finding'));
      watch?.reported(refused.part, refused.version);
    },
  });
  // Canaries whose client error rate or field INP/LCP runs worse than the stable version's are aborted
  // without waiting for anyone (and healthy ones promoted with CANARY_AUTO_PROMOTE_MS); with separate
  // workers, a worker watches them (one watcher decides, not every server).
  const canaries = config.role === 'all' ? watchCanaries(app, storage, canaryInputs) : null;
  const origin = await buildStaticOrigin({ storage, logger: app.log, check: releasedFiles });
  if (standby) await standby.standBy(app, origin, operatorApp);
  // Backups, like the outbox's jobs, are taken by a process that runs background work (and not while standing by).
  const backups = config.role === 'all' ? scheduleBackups(app.log, backupSources) : null;
  // The files in force are re-hashed by the process that runs background work; a web server of a
  // cluster checks only when a browser reports a failed load (the worker keeps the schedule).
  if (!standby) watchIntegrity(config.role === 'all');
  if (!standby && config.role === 'all') await moveRequests.start();

  await origin.listen({ port: config.assetPort, host: config.host });
  await operatorApp.listen({ port: config.opsPort, host: config.host });
  await app.listen({ port: config.port, host: config.host });
  const shown = shownHost(config.host);
  log(`areas served from http://${shown}:${config.assetPort}/remotes/`);
  log(
    `release registry: ${storage.location(REGISTRY_KEY)}${storage.local ? '' : ` (version folders cached in ${join(config.originDir, S3_CACHE_DIR)})`}`,
  );
  log(
    `operator console: ${config.opsUrl}/ops (its own origin, port ${config.opsPort}; operator accounts: npm run credentials -- operator-create <name>)`,
  );
  if (firstOperator)
    log(
      `first operator account ${FIRST_OPERATOR.name} created; its password is in ${firstOperator} (read it, sign in at ${config.opsUrl}/ops, set up the second factor, then delete the file)`,
    );
  if (!operatorCookieSecure(config.opsUrl))
    log(
      `warning: the operator origin ${config.opsUrl} is neither https nor a loopback address; browsers will not keep its sign-in: set OPS_URL`,
    );
  if (legacyToken)
    log(
      'METRICS_OPERATOR_TOKEN=on: /api/metrics also takes the retired operator token; give Prometheus a metrics credential and turn it off',
    );
  if (config.checkoutRateLimitAllowList.length > 0) {
    log(
      `order and quote rate limits do not apply to ${config.checkoutRateLimitAllowList.join(', ')} (CHECKOUT_RATE_LIMIT_ALLOWLIST, for load tests only)`,
    );
  }
  log(`card gateway: ${gatewayUrl}; e-mails go to ${checkoutConfig.smtpUrl ? 'SMTP' : checkoutConfig.outboxDir}`);
  log(
    `areas load from ${config.assetOrigin}${config.trustProxy !== false ? `; X-Forwarded-* trusted from ${String(config.trustProxy)}` : ''}`,
  );
  log(
    `role: ${config.role}${config.role === 'web' ? ' (background jobs and canaries are left to a worker)' : ''}; shared state: ${config.redisUrl ? 'Redis' : 'this process'}`,
  );
  if (backups) log(backups.description);
  if (config.role === 'all') log(describeCanaryWatch(canaryInputs));
  log(
    `health: /api/health, readiness: /api/ready, metrics: /api/metrics (a metrics credential: npm run credentials -- metrics-create <name>); logs: JSON lines on stdout (LOG_LEVEL, default info)`,
  );
  log(`ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  process.stdout.write(`\n  Obchod beží na: http://${shown}:${config.port}/\n  Konzola operátora: ${config.opsUrl}/ops\n\n`);

  stopOnSignal(app, database, [
    origin,
    operatorApp,
    canaries,
    backups,
    { close: async () => watch?.stop() },
    { close: async () => moveRequests.stop() },
  ]);
}

/** The integrity watch of this process, its checks counted in the metrics. */
function integrityWatch(
  app: FastifyInstance,
  options: {
    storage: ReleaseStorage;
    book: TrustedRegistry;
    integrity: ReleaseIntegrity;
    findings: IntegrityFindings;
    checkoutPageUrl: string;
    scheduled: boolean;
    served: ServedOrigins;
    localFiles?: ReleasedFileCheck;
  },
): IntegrityWatch {
  const policy = integrityPolicyFrom(process.env);
  if (options.scheduled)
    log(
      `integrity: released files re-hashed every ${policy.intervalMs / 1000} s and after each release, and read back from ${options.served.assetOrigin ?? 'nowhere'}; on a difference: ${policy.action === 'fallback' ? 'back to the last intact version' : 'alert only'}`,
    );
  return startIntegrityWatch({
    ...options,
    policy,
    log: app.log.child({ component: 'integrity-watch' }),
    onCheck: (outcome) => app.metrics.integrityChecks.inc({ outcome }),
    onContained: (part) => app.metrics.releaseContained.inc({ part }),
  });
}

/**
 * A standby is ready in every way but listening: its routes compiled, the database connected, the
 * catalogue loading. It tells its supervisor so, and listens once told to (the ports of the server it
 * replaces are free by then). Told before it is ready, it listens as soon as it is. A supervisor that
 * goes away before telling it ends it. The message is awaited from the process's first moment, so
 * none is missed.
 */
function standbyChannel() {
  if (!process.send) throw new Error('STANDBY=1 needs an IPC channel to its supervisor');
  let told = false;
  const activated = new Promise<void>((resolve) => {
    process.on('message', (message) => {
      if (message !== 'activate') return;
      told = true;
      resolve();
    });
  });
  process.once('disconnect', () => {
    if (!told) process.exit(0);
  });
  return {
    async standBy(app: FastifyInstance, ...others: (FastifyInstance | null)[]) {
      await Promise.all([app.ready(), ...others.map((other) => other?.ready())]);
      if (process.connected && !told) {
        process.send!('standing-by');
        log('standing by: ready to take over when told');
      }
      await activated;
    },
  };
}

type StandbyChannel = ReturnType<typeof standbyChannel>;
type CanaryHealth = (since: Date) => Promise<VersionHealth[]>;
type Closable = { close(): Promise<unknown> } | null;
type CanaryInputs = {
  health: CanaryHealth;
  /** The field Web Vitals per area version; absent: the watch judges error rates only. */
  vitals?: VitalsReader;
  integrity: ReleaseIntegrity;
  policy: Required<CanaryPolicy>;
  book: TrustedRegistry;
  /** The canary's most reported client error group, named in an abort for errors. */
  topError: (area: AreaName, version: string, since: Date) => Promise<string | null>;
};

/** Stops taking requests, lets the running ones and the outbox's running jobs finish, then ends the process. */
function stopOnSignal(app: FastifyInstance, database: CreatedDatabase, others: Closable[]) {
  const stop = async () => {
    await Promise.allSettled([app.close(), ...others.map((other) => other?.close())]);
    await database.close();
    process.exit(0);
  };
  // Nothing a request does may end the process unnoticed: a stray rejection is logged with its cause.
  process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled promise rejection'));
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

/** Watches the canaries until the answer's `close()` (the process's stop). */
function watchCanaries(app: FastifyInstance, storage: ReleaseStorage, inputs: CanaryInputs): Closable {
  const canaryWatch = startCanaryWatch({ storage, ...inputs, log: app.log.child({ component: 'canary-watch' }) });
  return { close: async () => canaryWatch.stop() };
}

/** The start's line about the canary watch: what aborts a canary, and whether one is promoted on its own. */
function describeCanaryWatch({ policy, vitals }: CanaryInputs): string {
  const { speed } = policy;
  const speedRule = vitals
    ? `, or their field p75 INP/LCP is worse by > ${Math.round(speed.margin * 100)} % and > ${speed.floorMs.inp}/${speed.floorMs.lcp} ms over ≥ ${speed.minSamples} samples each side`
    : ' (speed not judged: no Web Vitals reader)';
  const promotion =
    policy.autoPromoteMs > 0
      ? `promoted automatically after ${policy.autoPromoteMs / 1000} s without regression`
      : 'promoted by an operator (CANARY_AUTO_PROMOTE_MS=0)';
  return `canaries aborted when their client error rate exceeds the stable one by ${(policy.margin * 100).toFixed(1)} points over ≥ ${policy.minViews} page views${speedRule}; ${promotion} (checked every ${policy.intervalMs / 1000} s)`;
}

/**
 * ROLE=worker: the outbox's jobs (started with the app), the canary watch and the backups; on PORT it answers
 * health, readiness and metrics for the process supervisor (it is not a shop server: keep it off the balancer).
 */
async function startWorker(
  app: FastifyInstance,
  database: CreatedDatabase,
  options: {
    moveRequests: MoveRequestsWatch;
    storage: ReleaseStorage;
    canary: CanaryInputs;
    port: number;
    host: string;
    started: number;
    standby: StandbyChannel | null;
    backups: ServerBackupOptions;
    watchIntegrity: (scheduled: boolean) => IntegrityWatch;
  },
) {
  if (options.standby) {
    await options.standby.standBy(app, null);
    await app.outbox.start();
  }
  const canaries = watchCanaries(app, options.storage, options.canary);
  const backups = scheduleBackups(app.log, options.backups);
  const integrityWatch = options.watchIntegrity(true);
  await options.moveRequests.start();
  await app.listen({ port: options.port, host: options.host });
  log(`worker: outbox jobs, canary watch and backups; health on http://${shownHost(options.host)}:${options.port}/api/health`);
  log(describeCanaryWatch(options.canary));
  log(backups.description);
  log(`ready in ${((performance.now() - options.started) / 1000).toFixed(1)} s`);
  stopOnSignal(app, database, [
    canaries,
    backups,
    { close: async () => integrityWatch.stop() },
    { close: async () => options.moveRequests.stop() },
  ]);
}

main().catch((error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  process.stderr.write(
    code === 'EADDRINUSE'
      ? `[server] port already in use: ${(error as Error).message}. Set PORT (and ASSET_PORT, OPS_PORT) to free ports.\n`
      : `[server] failed to start: ${(error as Error).stack ?? String(error)}\n`,
  );
  process.exit(1);
});
