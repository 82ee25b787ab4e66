/**
 * Origins with a signed release on them, as the byte-tamper tests need them: on the local directory
 * and (when asked for) on S3 (s3rver, the server's copy of a version on its disk), each with a
 * checkout version (its page chunk long enough for brotli and gzip copies) and a shell released with
 * the shop's key, the static origin sending them, and the integrity watch as server.ts starts it.
 * Test files share their worker's modules, so each file makes its own: `releasedOrigins()` at its
 * top, `start()` before its tests, `stop()` after them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { deploy, generateSigningKey, localDirectoryStorage, readSigningKey, releaseIntegrity, type ReleaseStorage } from '@shop/release';
import { integrityFindings } from '../../src/domains/releases/integrity-findings.repository.ts';
import { startIntegrityWatch, type IntegrityWatch } from '../../src/domains/releases/integrity-watch.ts';
import type { ServedOrigins } from '../../src/domains/releases/cdn-check.ts';
import { registerShopKey, releaseKeys } from '../../src/domains/releases/release-keys.repository.ts';
import { buildStaticOrigin } from '../../src/web/static-origin.ts';
import { releasedFileCheck, type ReleasedFileCheck } from '../../src/web/verified-files.ts';
import { cartRoute, fakeAreaBuild, fakeShellBuild, startS3Server, type S3TestServer } from '@shop/release/testing';
import { startTestApi, type TestApi } from './test-api.ts';

export type Origin = {
  storage: ReleaseStorage;
  /** The checkout version in force. */
  checkout: string;
  shell: string;
  server: FastifyInstance;
  check: ReleasedFileCheck;
  watch: IntegrityWatch;
};

export function releasedOrigins(kinds: readonly ('local' | 's3')[]) {
  const shopKey = readSigningKey(generateSigningKey().privateKeyPem);
  const quiet = Fastify().log;
  const scratch = mkdtempSync(join(tmpdir(), 'release-bytes-'));
  const origins: Partial<Record<'local' | 's3', Origin>> = {};
  let api: TestApi | undefined;
  let s3: S3TestServer | undefined;

  const trustedKeys = () => releaseKeys(api!.db).trusted();

  async function prepare(storage: ReleaseStorage, served?: ServedOrigins): Promise<Origin> {
    const provenance = { who: 'seed' };
    // Long enough for the release to keep brotli and gzip copies of the page chunk; the entry is too small for any.
    const distDir = fakeAreaBuild('checkout', { marker: `bytes-${Math.random()}`, routes: [cartRoute], pageBytes: 80 });
    const checkout = (
      await deploy({ storage, part: 'checkout', distDir, packageVersion: '1.0.0', provenance, init: true, signingKey: shopKey })
    ).version;
    const shell = (
      await deploy({ storage, part: 'shell', distDir: fakeShellBuild(), packageVersion: '1.0.0', provenance, signingKey: shopKey })
    ).version;
    const integrity = releaseIntegrity({ storage, keys: trustedKeys });
    const check = releasedFileCheck(integrity, () => undefined);
    const server = await buildStaticOrigin({ storage, logger: quiet, check });
    return { storage, checkout, shell, server, check, watch: watchOf(storage, check, served) };
  }

  /** The watch as server.ts starts it, told what it reads on this disk; only alerts, so the tests' versions stay in force. */
  function watchOf(storage: ReleaseStorage, check: ReleasedFileCheck, served?: ServedOrigins): IntegrityWatch {
    return startIntegrityWatch({
      storage,
      integrity: releaseIntegrity({ storage, keys: trustedKeys }),
      findings: integrityFindings(api!.db),
      policy: { intervalMs: 60_000, action: 'alert' },
      log: quiet,
      checkoutPageUrl: null,
      scheduled: false,
      localFiles: check,
      ...(served ? { served } : {}),
    });
  }

  async function start() {
    api = await startTestApi();
    await registerShopKey(releaseKeys(api.db), shopKey);
    if (kinds.includes('s3')) s3 = await startS3Server();
    if (kinds.includes('local')) origins.local = await prepare(localDirectoryStorage(join(scratch, 'origin')));
    if (s3) origins.s3 = await prepare(s3.storage());
    return { s3 };
  }

  async function stop() {
    for (const origin of Object.values(origins)) {
      origin.watch.stop();
      await origin.server.close();
    }
    await s3?.stop();
    await api?.close();
    rmSync(scratch, { recursive: true, force: true });
  }

  return {
    /** A directory for the file's own copies, removed after it. */
    scratch,
    quiet,
    origins,
    trustedKeys,
    watchOf,
    start,
    stop,
    /** The local file the origin sends `file` of the checkout version from (on S3: the server's copy on its disk). */
    servedFile: (origin: Origin, file: string) => join(origin.storage.localPath(`remotes/checkout/${origin.checkout}`), file),
    get: (origin: Origin, file: string, encoding = 'identity') =>
      origin.server.inject({ url: `/remotes/checkout/${origin.checkout}/${file}`, headers: { 'accept-encoding': encoding } }),
    findings: () => integrityFindings(api!.db).recent(100),
    /** The findings of `kind` about checkout counted in the metrics. */
    counted: async (kind: string): Promise<number> => {
      const metrics = (await api!.metrics()).text;
      return Number(
        new RegExp(`^shop_release_integrity_findings_total\\{part="checkout",kind="${kind}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0,
      );
    },
  };
}
