/**
 * The options the server builds its two servers with (shop-servers.ts): the shop's API (app.ts) from
 * the opened shop's database, secrets and files, the settings each domain reads under its own name, the
 * limits and what telemetry keeps; and the operator origin (operator-app.ts), the console on its own
 * origin (OPS_URL) with every release view and move over the server's releases, the backups' record,
 * the shoppers' health and reports, and the pages' script inventory.
 */
import type { FastifyInstance } from 'fastify';
import type { BuildApiOptions } from './app.ts';
import type { ServerRole } from './config.ts';
import { releasedVersionsOf } from './domains/releases/shop-releases.ts';
import { createStackMapper } from './domains/ops/telemetry/stack-mapper.ts';
import { DEFAULT_RATE_LIMITS } from './infra/cache/rate-limit.ts';
import type { OpenedShop } from './shop-open.ts';
import type { OperatorApiOptions } from './operator-app.ts';
import { backupOverview } from './backup/server-backups.ts';
import { clientErrorsReader } from './domains/ops/console/client-errors.ts';
import { cspViolationsReader } from './domains/ops/console/csp-violations.ts';
import { renderFailuresReader } from './domains/ops/console/render-failures.ts';
import { vitalsReader } from './domains/ops/console/vitals.ts';
import { clientHealth } from './domains/ops/telemetry/client-health.ts';
import { refundsShown } from './domains/ordering/payments/refunds-shown.ts';
import { setFloor } from './domains/releases/registry.repository.ts';
import { canaryJudged } from './domains/releases/canary-jobs.ts';

/** What the API's options tell of events before the API exists (the API itself, bound once built). */
export type ApiWiring = {
  api(): FastifyInstance;
  /** A browser reported that an area's version failed to load (this process's integrity watch checks it). */
  clientLoadFailed(area: string, version: string | null): void;
};

export function shopApiOptions(opened: OpenedShop, role: ServerRole, wiring: ApiWiring): BuildApiOptions {
  const { settings, database, releases } = opened;
  const { server: config } = settings;
  const notifyHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return {
    db: database.db,
    dialect: database.dialect,
    jwtSecret: opened.secrets.jwt,
    trustProxy: config.trustProxy,
    ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
    // A standby worker takes no job before it takes over (then its outbox starts).
    backgroundJobs: role !== 'web' && !config.standby,
    // The servers that answer shoppers load the filtered listings' index ahead of their first requests.
    warmCatalog: role !== 'worker',
    files: opened.files,
    ...(config.serverCache ? {} : { responseCache: false as const }),
    // The release registry is what the shell is served from: without it the shop cannot answer pages.
    readiness: [
      {
        name: 'registry',
        label: 'Register verzií',
        check: async () => {
          if (!(await releases.book.read()).shell) throw new Error('no shell in the release registry');
        },
      },
    ],
    onClientLoadFailure: (area, version) => wiring.clientLoadFailed(area, version),
    checkoutRateLimit: { ...DEFAULT_RATE_LIMITS.checkout, allowList: config.checkoutRateLimitAllowList },
    legacyMetricsToken: opened.secrets.legacyMetrics,
    telemetryRateLimit: { max: config.telemetryRateLimit, timeWindowMs: 60_000 },
    telemetrySessionRateLimit: { max: config.telemetrySessionsPerAddress, timeWindowMs: 10 * 60_000 },
    // Telemetry is kept only about what browsers may be running: the versions in force and in a canary.
    releasedVersions: releasedVersionsOf(releases.book),
    // Client errors' stacks mapped with the source maps released beside the files, as signed.
    stackMapper: createStackMapper({
      storage: releases.storage,
      integrity: releases.integrity,
      onFrame: (outcome) => wiring.api().metrics.clientStackFrames.inc({ outcome }),
      onMapRefused: (ref, outcome) =>
        wiring
          .api()
          .log.error(
            { integrity: { ...ref, file: `${ref.file}.map` }, outcome },
            'a released source map differs from its signed manifest or cannot be read; not used',
          ),
    }),
    checkout: {
      outboxDir: settings.mail.outboxDir,
      invoiceDir: settings.invoiceDir,
      smtpUrl: settings.mail.smtpUrl,
      mailFrom: settings.mail.from,
      gateway: { url: settings.gatewayUrl, secret: opened.secrets.gateway },
      publicUrl: settings.publicUrl,
      notifyUrl: `http://${notifyHost}:${config.port}/api/payments/notify`,
      iban: settings.iban,
    },
  };
}

/**
 * The operator origin as a server builds it. `gatewayOrigin`: the card gateway's origin, the one place
 * besides the shop a page's form may go (the script inventory shows the pages' policy).
 */
export function operatorOriginOptions(opened: OpenedShop, gatewayOrigin: string): OperatorApiOptions {
  const { settings, releases } = opened;
  const { db } = opened.database;
  const { server: config, publicUrl } = settings;
  const { book } = releases;
  return {
    operatorUrl: config.opsUrl,
    trustProxy: config.trustProxy,
    console: {
      storage: releases.storage,
      previews: releases.previews,
      publicUrl,
      health: (since) => clientHealth(db, since),
      canaryJudged: canaryJudged(db),
      canaryStageMs: settings.canaryPolicy.stageMs,
      backups: backupOverview(db, settings.env, config.dataDir),
      book,
      setFloor: (change) => setFloor(db, book, change),
      keys: releases.keys,
      integrity: releases.integrity,
      findings: releases.findings,
      refunds: () => refundsShown(db),
      cspViolations: cspViolationsReader(db),
      vitals: vitalsReader(db),
      renderFailures: renderFailuresReader(db),
      clientErrors: clientErrorsReader(db),
      inventory: {
        tagManagerId: config.gtmId,
        policy: {
          assetOrigin: config.assetOrigin,
          tagManager: config.gtmId !== null,
          gateway: gatewayOrigin,
          reportTo: publicUrl.startsWith('https:'),
        },
      },
    },
  };
}
