/**
 * The releases' work in a server process, logged with its component and counted in its metrics: the
 * integrity watch and the release tool's signed move requests. The composition root starts what the
 * process's role runs; what reaches the watch before it runs (a browser's failed load, a file not as
 * signed, a version refused from pages) is recorded or logged, and checked once it does.
 */
import type { FastifyBaseLogger } from 'fastify';
import { isArea, shopPaths } from '@shop/shared-kernel/contract';
import { previewLink, type PartName } from '@shop/release';
import type { Metrics } from '../../infra/observability/metrics.ts';
import { integrityPolicyFrom, startIntegrityWatch, type IntegrityWatch } from './integrity-watch.ts';
import { watchMoveRequests, type MoveRequestsWatch } from './move-requests.ts';
import type { ShopReleases } from './shop-releases.ts';

/** The released files this process sends (the page host's check): told what the watch read on this disk. */
type LocalFiles = { watched(dir: string, tampered: readonly string[]): void };

export type ReleaseJobsOptions = {
  releases: ShopReleases;
  /** The server's log (its own lines about releases; each job gets a child logger). */
  log: FastifyBaseLogger;
  metrics: Metrics;
  /** The shop's public origin: the links of previews, the checkout page whose headers are checked, where the shell's files are read back. */
  publicUrl: string;
  /** Where browsers load the areas from (ASSET_ORIGIN or the static origin), read back by the integrity watch. */
  assetOrigin: string;
  /** The environment: the integrity watch's policy (INTEGRITY_*), read when the watch starts. */
  env: NodeJS.ProcessEnv;
  /** A staged canary's stage time when its command names none (CANARY_STAGE_MS). */
  canaryStageMs: number;
  /** Prints a line of the server's start (what a scheduled integrity watch does). */
  announce: (line: string) => void;
};

export type ReleaseJobs = {
  /** A browser could not load this part's version, or one of its files is not as signed: the watch checks it soon. */
  reported(part: string, version: string | null): void;
  /** A version left out of pages because its signed manifest did not verify: logged, recorded, checked. */
  refusedVersion(refused: { part: string; version: string; reason: string }): void;
  /** A released file that differs from its signed manifest was not sent (web/verified-files.ts). */
  notAsSigned(part: PartName, version: string, file: string): void;
  /**
   * The release tool's signed move requests on the origin, applied by the process running background
   * work (every second; at its start a request queued before the shop started is applied at once),
   * which keeps the origin's registry files as an export. Every process exports its own moves.
   */
  moveRequests: MoveRequestsWatch;
  /**
   * Starts this process's integrity watch: `scheduled`, the files in force re-hashed on the policy's
   * interval (the process running background work; it announces so), else only when a browser
   * reports a failed load. `localFiles`: the released files this process sends.
   */
  startIntegrityWatch(scheduled: boolean, localFiles?: LocalFiles): void;
  /** Stops the integrity watch and the move requests (the process's stop). */
  stop(): void;
};

export function releaseJobs(options: ReleaseJobsOptions): ReleaseJobs {
  const { releases, log, metrics, publicUrl } = options;
  const { storage, book, findings, integrity } = releases;
  let watch: IntegrityWatch | null = null;
  const moveRequests = watchMoveRequests({
    storage,
    book,
    keys: releases.keys,
    integrity,
    identities: releases.identities,
    findings,
    log: log.child({ component: 'move-requests' }),
    setFlag: releases.setFlag,
    onEvent: (kind) => metrics.releaseRequests.inc({ kind }),
    canaryStageMs: options.canaryStageMs,
    // A version the release command published for nobody comes back with a link to preview it in one browser.
    previewLink: async (part, version, by) =>
      isArea(part)
        ? releases.previews.create({ area: part, version, by }).then(
            (made) => previewLink(publicUrl, made.token),
            // Too many open previews: the command says to get one in the console, where they are revoked.
            () => null,
          )
        : null,
  });
  return {
    reported: (part, version) => watch?.reported(part, version),
    refusedVersion(refused) {
      log.error({ integrity: refused }, 'a version in the registry has no valid signed manifest; left out of pages');
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
        .catch((error: unknown) => log.error({ err: error }, 'could not record an integrity finding'));
      watch?.reported(refused.part, refused.version);
    },
    notAsSigned(part, version, file) {
      log.error({ integrity: { part, version, file } }, 'a released file differs from its signed manifest; not sent');
      watch?.reported(part, version);
    },
    moveRequests,
    startIntegrityWatch(scheduled, localFiles) {
      const policy = integrityPolicyFrom(options.env);
      if (scheduled)
        options.announce(
          `integrity: released files re-hashed every ${policy.intervalMs / 1000} s and after each release, and read back from ${options.assetOrigin}; on a difference: ${policy.action === 'fallback' ? 'back to the last intact version' : 'alert only'}`,
        );
      watch = startIntegrityWatch({
        storage,
        book,
        integrity,
        findings,
        checkoutPageUrl: `${publicUrl}${shopPaths.cart()}`,
        scheduled,
        // What browsers are sent is read back: the areas from ASSET_ORIGIN, the shell's files from the shop's address.
        served: { assetOrigin: options.assetOrigin, shopUrl: publicUrl },
        ...(localFiles ? { localFiles } : {}),
        policy,
        log: log.child({ component: 'integrity-watch' }),
        onCheck: (outcome) => metrics.integrityChecks.inc({ outcome }),
        onContained: (part) => metrics.releaseContained.inc({ part }),
      });
    },
    stop() {
      try {
        watch?.stop();
      } finally {
        moveRequests.stop();
      }
    },
  };
}
