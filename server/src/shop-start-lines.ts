/** The lines a server prints once it listens: where each part answers, and what runs in this process. */
import { join } from 'node:path';
import { REGISTRY_KEY, S3_CACHE_DIR } from '@shop/release';
import { shownHost } from './config.ts';
import { FIRST_OPERATOR } from './domains/operators/operator-admin.repository.ts';
import { operatorCookieSecure } from './infra/auth/operator-auth.ts';
import type { OpenedShop } from './shop-open.ts';

/** What this process's background work said of itself at its start (null: this role runs none). */
export type WorkLines = { backups: string | null; canaries: string | null };

/** ROLE=all or web: the shop's addresses, its settings worth a look, and what runs here. */
export function shopLines(opened: OpenedShop, work: WorkLines): string[] {
  const { settings, releases } = opened;
  const { server: config } = settings;
  const { storage } = releases;
  const allowList = config.checkoutRateLimitAllowList;
  return [
    `areas served from http://${shownHost(config.host)}:${config.assetPort}/remotes/`,
    `release registry: ${storage.location(REGISTRY_KEY)}${storage.local ? '' : ` (version folders cached in ${join(config.originDir, S3_CACHE_DIR)})`}`,
    `operator console: ${config.opsUrl}/ops (its own origin, port ${config.opsPort}; operator accounts: npm run credentials -- operator-create <name>)`,
    ...(opened.firstOperatorFile
      ? [
          `first operator account ${FIRST_OPERATOR.name} created; its password is in ${opened.firstOperatorFile} (read it, sign in at ${config.opsUrl}/ops, set up the second factor, then delete the file)`,
        ]
      : []),
    ...(operatorCookieSecure(config.opsUrl)
      ? []
      : [
          `warning: the operator origin ${config.opsUrl} is neither https nor a loopback address; browsers will not keep its sign-in: set OPS_URL`,
        ]),
    ...(opened.secrets.legacyMetrics
      ? [
          'METRICS_OPERATOR_TOKEN=on: /api/metrics also takes the retired operator token; give Prometheus a metrics credential and turn it off',
        ]
      : []),
    ...(allowList.length > 0
      ? [`order and quote rate limits do not apply to ${allowList.join(', ')} (CHECKOUT_RATE_LIMIT_ALLOWLIST, for load tests only)`]
      : []),
    `card gateway: ${settings.gatewayUrl}; e-mails go to ${settings.mail.smtpUrl ? 'SMTP' : settings.mail.outboxDir}`,
    `areas load from ${config.assetOrigin}${config.trustProxy !== false ? `; X-Forwarded-* trusted from ${String(config.trustProxy)}` : ''}`,
    `role: ${config.role}${config.role === 'web' ? ' (background jobs and canaries are left to a worker)' : ''}; shared state: ${config.redisUrl ? 'Redis' : 'this process'}`,
    ...(work.backups ? [work.backups] : []),
    ...(work.canaries ? [work.canaries] : []),
    `health: /api/health, readiness: /api/ready, metrics: /api/metrics (a metrics credential: npm run credentials -- metrics-create <name>); logs: JSON lines on stdout (LOG_LEVEL, default info)`,
  ];
}

/** ROLE=worker: what it runs, and where its health answers. */
export function workerLines(opened: OpenedShop, work: WorkLines): string[] {
  const { host, port } = opened.settings.server;
  return [
    `worker: outbox jobs, canary watch and backups; health on http://${shownHost(host)}:${port}/api/health`,
    ...(work.canaries ? [work.canaries] : []),
    ...(work.backups ? [work.backups] : []),
  ];
}

/** The shop's and the console's addresses, set apart from the log lines for the person who started it. */
export function addressesBanner(opened: OpenedShop): string {
  const { host, port, opsUrl } = opened.settings.server;
  return `\n  Obchod beží na: http://${shownHost(host)}:${port}/\n  Konzola operátora: ${opsUrl}/ops\n\n`;
}
