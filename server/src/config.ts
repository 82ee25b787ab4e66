/** Server settings from the environment, with defaults for `npm start`. */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { repoRoot } from './infra/paths.ts';
import { SECRET_FILES } from './infra/secret-files.ts';
import type { RendererSettings } from './web/ssr/page-render.ts';

export type ServerConfig = {
  dataDir: string;
  originDir: string;
  host: string;
  port: number;
  assetPort: number;
  /** Where the browser loads the areas from: ASSET_ORIGIN (a CDN), else this server's asset port on the shop's host. */
  assetOrigin: string;
  /**
   * OPS_PORT: the operator origin's port on this server (default PORT+3: PORT is the shop, PORT+1 the
   * areas, PORT+2 the gateway simulator of `npm start`). The console and every operator call answer
   * there only (operator-app.ts).
   */
  opsPort: number;
  /**
   * OPS_URL: the operator origin's public address (the only Origin a change made with the operator's
   * cookie may come from); default this server's operator port on the shop's host. When given, https
   * or a loopback address (browsers keep the `__Host-` cookie only when Secure); the server warns when
   * the default is neither.
   */
  opsUrl: string;
  /**
   * TRUST_PROXY: the proxies whose X-Forwarded-For/-Proto/-Host headers are believed (Fastify's
   * trustProxy: addresses or CIDR ranges, comma-separated, e.g. `127.0.0.1`). Unset: none, and the
   * client address is the socket's.
   */
  trustProxy: string | false;
  databaseUrl: string | undefined;
  /** REDIS_URL: Redis shared by several servers (rate limits, catalog changes); unset: one server keeps them in the process. */
  redisUrl: string | undefined;
  /**
   * ROLE: `all` (default: one server does everything), `web` (answers shoppers; leaves the background
   * work to a worker) or `worker` (the outbox's jobs, the canary watch and backups; answers only its health,
   * readiness and metrics on PORT). Several `web` servers and one or more workers run at scale.
   */
  role: ServerRole;
  /**
   * STANDBY=1 (set by the cluster's supervisor, with an IPC channel): start, get ready, then wait to be
   * told to listen on PORT, so a server that died is replaced within milliseconds, not a whole start.
   */
  standby: boolean;
  gtmId: string | null;
  registryPollMs: number;
  /** SERVER_RENDER=off: public pages render in the browser only (the benchmark's comparison); default on. */
  serverRender: boolean;
  /** SERVER_CACHE=off: no response cache for the catalog and no page cache (the benchmark's comparison); default on. */
  serverCache: boolean;
  /**
   * The server-render sandbox: RENDERERS processes (default one per core), each an isolate of at most
   * RENDERER_MEMORY_MB (default 128), started with the server (RENDERERS_START=warm, the default) or
   * with the first page (lazy). RENDER_IN_PROCESS_FOR_BENCH=1 runs the parts' server builds in this
   * process instead, for the benchmark's comparison only: `npm start` and `npm run start:cluster` refuse it.
   */
  renderers: RendererSettings;
  /** TELEMETRY_SAMPLE: share of page loads that report page views and client errors, 0..1 (default 1). */
  telemetrySample: number;
  /** TELEMETRY_RATE_LIMIT: client reports accepted per address and minute (default 120; shoppers behind one NAT share it). */
  telemetryRateLimit: number;
  /**
   * TELEMETRY_SESSIONS_PER_ADDRESS: new telemetry sessions an address gets per 10 minutes (default 10;
   * a browser gets one per visit, and the canary watch counts sessions, so this bounds how many
   * shoppers one address can pass for).
   */
  telemetrySessionsPerAddress: number;
  /**
   * CHECKOUT_RATE_LIMIT_ALLOWLIST: comma-separated client addresses exempt from the per-address
   * order and quote limits. For the API load test on loopback (tools/bench/src/api-load.ts) only; empty
   * by default, never set in production.
   */
  checkoutRateLimitAllowList: string[];
};

export type ServerRole = 'all' | 'web' | 'worker';

function role(value: string | undefined): ServerRole {
  const chosen = value?.trim() || 'all';
  if (chosen !== 'all' && chosen !== 'web' && chosen !== 'worker') throw new Error(`Invalid ROLE: ${value} (all, web or worker)`);
  return chosen;
}

function renderers(env: NodeJS.ProcessEnv): RendererSettings {
  const count = Number(env.RENDERERS || availableParallelism());
  if (!Number.isInteger(count) || count < 1 || count > 64)
    throw new Error(`Invalid RENDERERS: ${env.RENDERERS} (1 to 64 renderer processes)`);
  const memoryMb = Number(env.RENDERER_MEMORY_MB || 128);
  if (!Number.isInteger(memoryMb) || memoryMb < 32 || memoryMb > 4096)
    throw new Error(`Invalid RENDERER_MEMORY_MB: ${env.RENDERER_MEMORY_MB} (32 to 4096)`);
  const start = env.RENDERERS_START || 'warm';
  if (start !== 'warm' && start !== 'lazy') throw new Error(`Invalid RENDERERS_START: ${env.RENDERERS_START} (warm or lazy)`);
  const inProcess = env.RENDER_IN_PROCESS_FOR_BENCH;
  if (inProcess !== undefined && inProcess !== '' && inProcess !== '1')
    throw new Error(`Invalid RENDER_IN_PROCESS_FOR_BENCH: ${inProcess} (1, for the benchmark only)`);
  return { count, memoryMb, warm: start === 'warm', inProcessForBench: inProcess === '1' };
}

/** The host name to print and to put in links: localhost for the loopback and wildcard addresses. */
export function shownHost(host: string): string {
  return host === '127.0.0.1' || host === '0.0.0.0' || host === '::' || host === '::1' ? 'localhost' : host;
}

function port(value: string | undefined, fallback: number): number {
  const parsed = Number(value ?? fallback);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) throw new Error(`Invalid port: ${value}`);
  return parsed;
}

export function readServerConfig(env: NodeJS.ProcessEnv): ServerConfig {
  const dataDir = resolve(env.DATA_DIR ?? join(repoRoot, '.data'));
  const appPort = port(env.PORT, 3000);
  const host = env.HOST ?? '127.0.0.1';
  const assetPort = port(env.ASSET_PORT, appPort + 1);
  const opsPort = port(env.OPS_PORT, appPort === 0 ? 0 : appPort + 3);
  const trust = env.TRUST_PROXY?.trim();
  return {
    dataDir,
    originDir: resolve(env.ORIGIN_DIR ?? join(dataDir, 'origin')),
    host,
    port: appPort,
    assetPort,
    // Never taken from the request's Host header: a forged Host must not decide where the page loads its code from.
    assetOrigin: (env.ASSET_ORIGIN || `http://${shownHost(host)}:${assetPort}`).replace(/\/+$/, ''),
    opsPort,
    opsUrl: env.OPS_URL ? operatorUrl(env.OPS_URL) : `http://${shownHost(host)}:${opsPort}`,
    trustProxy: trust || false,
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    role: role(env.ROLE),
    standby: env.STANDBY === '1',
    gtmId: env.GTM_ID || null,
    registryPollMs: Number(env.REGISTRY_POLL_MS ?? 60_000),
    serverRender: env.SERVER_RENDER !== 'off',
    serverCache: env.SERVER_CACHE !== 'off',
    renderers: renderers(env),
    telemetrySample: Math.min(1, Math.max(0, Number(env.TELEMETRY_SAMPLE ?? 1) || 0)),
    telemetryRateLimit: Math.max(1, Number(env.TELEMETRY_RATE_LIMIT ?? 120) || 120),
    telemetrySessionsPerAddress: Math.max(1, Number(env.TELEMETRY_SESSIONS_PER_ADDRESS ?? 10) || 10),
    checkoutRateLimitAllowList: (env.CHECKOUT_RATE_LIMIT_ALLOWLIST ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean),
  };
}

/** The operator origin's address as configured: an origin (no path), https unless on a loopback address. */
function operatorUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`Invalid OPS_URL: ${value} (the operator origin, e.g. https://ops.shop.example.sk)`);
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw new Error(`Invalid OPS_URL: ${value} (https, or http on a loopback address: the operator's cookie is Secure)`);
  return url.origin;
}

/**
 * The data directory (the database, secrets, invoices, e-mails, complaint photos) is the server
 * user's alone: created 0700, or tightened to it when a launcher or the release tool made it first,
 * and every file and folder this process creates from now on is 0600 / 0700 (umask 077), the
 * database's own files included, whatever umask the process was started with.
 */
export async function prepareDataDir(dataDir: string): Promise<void> {
  process.umask(0o077);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chmod(dataDir, 0o700);
}

/** A secret from the environment, or one generated once and kept (mode 600) in the data directory. */
async function loadSecret(value: string | undefined, dataDir: string, fileName: string): Promise<string> {
  if (value) return value;
  const file = join(dataDir, fileName);
  const existing = await readFile(file, 'utf8').catch(() => null);
  if (existing?.trim()) return existing.trim();
  const secret = randomBytes(32).toString('base64url');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}

/** The token signing secret: JWT_SECRET, or one generated once and kept in the data directory. */
export function loadJwtSecret(env: NodeJS.ProcessEnv, dataDir: string): Promise<string> {
  return loadSecret(env.JWT_SECRET, dataDir, SECRET_FILES.jwt);
}

/**
 * The migration path off the retired shared operator token, off by default: with
 * METRICS_OPERATOR_TOKEN=on, /api/metrics also takes the old token (OPERATOR_TOKEN, else an
 * existing <data>/operator-token; none is generated), so a Prometheus keeps scraping until its
 * configuration carries a metrics credential. Nothing else reads the token. Null when off or absent.
 */
export async function legacyMetricsToken(env: NodeJS.ProcessEnv, dataDir: string): Promise<string | null> {
  if (env.METRICS_OPERATOR_TOKEN !== 'on') return null;
  const token = env.OPERATOR_TOKEN || (await readFile(join(dataDir, 'operator-token'), 'utf8').catch(() => '')).trim();
  return token.length >= 16 ? token : null;
}

/** Settings of the checkout: card gateway, e-mail, public URL, bank account. */
export type CheckoutConfig = {
  /**
   * The card gateway (GATEWAY_URL): the provider's, or the simulator a launcher started beside the
   * server (tools/gateway-simulator; the server never starts it, and refuses to start without it).
   */
  gatewayUrl: string | null;
  /** The shop's public origin for e-mail links and the gateway's return URL (PUBLIC_URL). */
  publicUrl: string;
  smtpUrl: string | null;
  mailFrom: string;
  outboxDir: string;
  invoiceDir: string;
  iban: string;
};

export function readCheckoutConfig(env: NodeJS.ProcessEnv, config: ServerConfig): CheckoutConfig {
  const shown = shownHost(config.host);
  return {
    gatewayUrl: env.GATEWAY_URL || null,
    publicUrl: (env.PUBLIC_URL || `http://${shown}:${config.port}`).replace(/\/+$/, ''),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'Stavebniny Domov <obchod@example.sk>',
    outboxDir: resolve(env.OUTBOX_DIR ?? join(config.dataDir, 'outbox')),
    invoiceDir: join(config.dataDir, 'invoices'),
    iban: env.SHOP_IBAN || 'SK9611000000002918599669',
  };
}

/** The HMAC secret shared with the card gateway: GATEWAY_SECRET, or generated into <data>/gateway-secret. */
export function loadGatewaySecret(env: NodeJS.ProcessEnv, dataDir: string): Promise<string> {
  return loadSecret(env.GATEWAY_SECRET, dataDir, SECRET_FILES.gateway);
}
