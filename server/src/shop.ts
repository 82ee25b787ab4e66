/**
 * The composition root: one process of the shop, built from its settings for its role.
 * - ROLE=all (`npm start`): the shop's server (the API and the pages), the areas' static origin, the
 *   operator origin, and the background work (shop-work.ts).
 * - ROLE=web: the same servers; the background work is left to a worker.
 * - ROLE=worker: the background work; on PORT it answers health, readiness and metrics for the
 *   process supervisor (it is not a shop server: keep it off the balancer).
 * - STANDBY=1: built and ready, it waits for its supervisor's word before it works and listens.
 * Each domain brings its own routes (app.ts, operator-app.ts), jobs and metrics; this file only
 * decides which run in this process and hands each the settings and parts it needs. Its pieces are
 * the other top-level `shop-*.ts` files: settings, what a start opens, the two servers and their
 * options, the pages, the background work, the start's lines.
 */
import type { FastifyInstance } from 'fastify';
import type { ServerRole } from './config.ts';
import { canaryJobs, canarySeries } from './domains/releases/canary-jobs.ts';
import { releaseJobs, type ReleaseJobs } from './domains/releases/release-jobs.ts';
import { releasedFileCheck } from './web/verified-files.ts';
import { shopApiOptions } from './shop-options.ts';
import { startWork, type Closable, type StartedWork } from './shop-work.ts';
import { openShop } from './shop-open.ts';
import { operatorOriginOptions } from './shop-options.ts';
import { hostPages } from './shop-pages.ts';
import { serverLog } from './shop-settings.ts';
import { buildShopServers, type ShopServers } from './shop-servers.ts';
import type { ShopSettings } from './shop-settings.ts';
import { standbyChannel } from './shop-work.ts';
import { addressesBanner, shopLines, workerLines } from './shop-start-lines.ts';

export type Shop = {
  /** The shop's server: the API and the pages (a worker's answers its health, readiness and metrics only). */
  api: FastifyInstance;
  /** Waits for the supervisor's word when standing by, then starts the background work of this role. */
  startWork(): Promise<void>;
  /** Listens on this role's ports: the areas' static origin, the operator origin, then the shop's. */
  listen(): Promise<void>;
  /** What the start prints once listening: where each part answers, what runs here. */
  startLines(): string[];
  /** The shop's and the console's addresses for whoever started it; null for a worker. */
  banner: string | null;
  /** Stops taking requests, lets the running ones and the outbox's running jobs finish, closes the database. */
  close(): Promise<void>;
  /** What a close still waits for (empty before it starts and once it is done). */
  closing(): string[];
};

export async function buildShop(settings: ShopSettings, role: ServerRole): Promise<Shop> {
  const { server: config } = settings;
  if (config.renderers.inProcessForBench) {
    process.stderr.write(
      "RENDER_IN_PROCESS_FOR_BENCH=1: the parts' server builds run in this process, without the sandbox (the benchmark's comparison only).\n",
    );
  }
  const standby = config.standby ? standbyChannel(serverLog) : null;
  const opened = await openShop(settings);
  const { releases, database } = opened;
  // The card gateway's origin: the one place besides the shop a page's form may go.
  const gatewayOrigin = new URL(settings.gatewayUrl).origin;
  // Set once the API is built (below): a browser's report of a failed load reaches its integrity watch.
  let jobs: ReleaseJobs | null = null;
  const servers: ShopServers = buildShopServers({
    api: shopApiOptions(opened, role, { api: () => servers.api, clientLoadFailed: (area, version) => jobs?.reported(area, version) }),
    // The operator origin: the console and every operator call, on a port (and an origin) of their own.
    operatorOrigin: role === 'worker' ? null : operatorOriginOptions(opened, gatewayOrigin),
  });
  const { api, operatorOrigin } = servers;
  canarySeries(api.metrics, releases.book);
  const canaries = canaryJobs({ db: database.db, releases, policy: settings.canaryPolicy, commerce: settings.commercePolicy });
  const releaseWork = releaseJobs({
    releases,
    log: api.log,
    metrics: api.metrics,
    publicUrl: settings.publicUrl,
    assetOrigin: config.assetOrigin,
    env: settings.env,
    canaryStageMs: settings.canaryPolicy.stageMs,
    announce: serverLog,
  });
  jobs = releaseWork;
  // A released file is sent only as signed; one that is not is reported to the watch at once.
  const releasedFiles = releasedFileCheck(releases.integrity, (part, version, file) => releaseWork.notAsSigned(part, version, file));
  const origin = role === 'worker' ? null : await hostPages(api, { opened, jobs: releaseWork, releasedFiles, gatewayOrigin });
  let work: StartedWork | null = null;
  const pending = new Set<string>();
  const track = async (name: string, closed: Promise<unknown>) => {
    pending.add(name);
    try {
      await closed;
    } finally {
      pending.delete(name);
    }
  };

  return {
    api,
    async startWork() {
      work = await startWork(role, {
        opened,
        api,
        jobs: releaseWork,
        canaries,
        standby,
        beside: [origin, operatorOrigin],
        releasedFiles,
      });
    },
    async listen() {
      await origin?.listen({ port: config.assetPort, host: config.host });
      await operatorOrigin?.listen({ port: config.opsPort, host: config.host });
      await api.listen({ port: config.port, host: config.host });
    },
    startLines: () => (role === 'worker' ? workerLines : shopLines)(opened, work ?? { backups: null, canaries: null }),
    banner: role === 'worker' ? null : addressesBanner(opened),
    async close() {
      const running: [string, Closable | null][] = [
        ['the shop server (its requests, the outbox, the renderers)', api],
        ["the areas' origin", origin],
        ['the operator origin', operatorOrigin],
        ...(work?.running ?? []),
        ['the release jobs', { close: async () => releaseWork.stop() }],
      ];
      await Promise.allSettled(running.map(([name, part]) => (part ? track(name, part.close()) : null)));
      await track('the database', database.close());
    },
    closing: () => [...pending],
  };
}
