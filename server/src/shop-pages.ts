/**
 * The shop's pages on the shop's server, and the areas' static origin beside it: the operator's
 * document links, the registry's event stream for open tabs, the areas' released files (the shell's
 * fallback when ASSET_ORIGIN fails), and the shell's pages, rendered in the sandbox, from the
 * registry in force. A released file is sent only as signed; what is not goes to the integrity watch.
 */
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { ReleaseJobs } from './domains/releases/release-jobs.ts';
import { flagShares } from './domains/releases/feature-flags.repository.ts';
import { recordRenderFailure } from './domains/ops/telemetry/render-failures.repository.ts';
import { operatorLinks } from './web/operator-links.ts';
import { registryEvents } from './web/registry-events.ts';
import { shellHost } from './web/shell-host.ts';
import { buildStaticOrigin, releasedFilesOnShopOrigin } from './web/static-origin.ts';
import type { ReleasedFileCheck } from './web/verified-files.ts';
import type { OpenedShop } from './shop-open.ts';

export type PageHostOptions = {
  opened: OpenedShop;
  jobs: ReleaseJobs;
  /** Sends a released file only with the bytes its signed manifest lists. */
  releasedFiles: ReleasedFileCheck;
  /** The card gateway's origin, where the shop's payment form may go. */
  gatewayOrigin: string;
};

/** How old the feature switches a page embeds may be (ms): the registry events' own look is as often. */
const FLAGS_READ_MS = 500;

/** One read shared by every caller within `ms` of it. */
function readAtMostEvery<T>(ms: number, read: () => Promise<T>): () => Promise<T> {
  let kept: { at: number; value: Promise<T> } | null = null;
  return () => {
    const now = Date.now();
    if (!kept || now - kept.at >= ms) kept = { at: now, value: read() };
    return kept.value;
  };
}

/** Adds the pages to the shop's server; answers the areas' static origin (not listening yet). */
export async function hostPages(app: FastifyInstance, options: PageHostOptions): Promise<FastifyInstance> {
  const { opened, jobs, releasedFiles } = options;
  const { settings, releases } = opened;
  const { server: config } = settings;
  const { storage, book } = releases;
  operatorLinks(app, { opsUrl: config.opsUrl });
  // The areas' feature switches: in every page's configuration, and followed by open tabs over the
  // registry's events; read at most once per FLAGS_READ_MS for all of them.
  const flags = readAtMostEvery(FLAGS_READ_MS, () => flagShares(opened.database.db));
  registryEvents(app, { storage, book, flags });
  // The areas' released files on the shop's own origin too: the shell's fallback when ASSET_ORIGIN fails.
  await releasedFilesOnShopOrigin(app, { storage, check: releasedFiles });
  await app.register(shellHost, {
    storage,
    book,
    assetOrigin: config.assetOrigin,
    gtmId: config.gtmId,
    registryPollMs: config.registryPollMs,
    telemetrySample: config.telemetrySample,
    previews: releases.previews,
    publicUrl: settings.publicUrl,
    serverRender: config.serverRender,
    renderers: config.renderers,
    // Every server's failures in one table, so /ops lists them all (the log line has them too).
    onRenderFailure: (failure) =>
      void recordRenderFailure(opened.database.db, {
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
    gatewayOrigin: options.gatewayOrigin,
    integrity: releases.integrity,
    check: releasedFiles,
    flags,
    onRefusedVersion: (refused) => jobs.refusedVersion(refused),
  });
  return buildStaticOrigin({ storage, logger: app.log, check: releasedFiles });
}
