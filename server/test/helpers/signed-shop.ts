/**
 * A shop whose releases are signed, as the integrity tests need it: the API (with its operator
 * origin, whose release routes act on this origin) on a local origin directory; the shop's key, a
 * checkout team's credential and the checkout and account teams' keys registered; two checkout
 * versions and a shell released, signed with the shop's key; and the shell host serving pages from
 * them. Test files share their worker's modules, so each file makes its own: `signedShop()` at its
 * top, `start()` before its tests, `stop()` after them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { deploy, generateSigningKey, localDirectoryStorage, readRegistry, readSigningKey, releaseIntegrity } from '@shop/release';
import { errorHandler } from '../../src/infra/http/error-handler.ts';
import { createCredential } from '../../src/domains/releases/identities.repository.ts';
import { integrityFindings } from '../../src/domains/releases/integrity-findings.repository.ts';
import { createTeamSigningKey, registerShopKey, releaseKeys } from '../../src/domains/releases/release-keys.repository.ts';
import { shellHost } from '../../src/web/shell-host.ts';
import { cartRoute, fakeAreaBuild, fakeShellBuild } from './fake-builds.ts';
import { startTestApi, type TestApi } from './test-api.ts';
import { shellHostOptions } from './shell-host-options.ts';

export function signedShop() {
  const origin = mkdtempSync(join(tmpdir(), 'release-integrity-'));
  const storage = localDirectoryStorage(origin);
  const shopKey = readSigningKey(generateSigningKey().privateKeyPem);
  const app = Fastify();
  app.setErrorHandler(errorHandler);
  /** Every version the shell host refused to serve, as `part version`. */
  const refusedVersions: string[] = [];
  let api: TestApi | undefined;

  /** Starts the API, registers the keys, releases the builds and starts the shell host. */
  async function start() {
    const started = await startTestApi({
      operatorConsole: ({ db }) => {
        const keys = releaseKeys(db);
        return {
          storage,
          publicUrl: 'https://shop.example',
          keys,
          integrity: releaseIntegrity({ storage, keys: () => keys.trusted() }),
          findings: integrityFindings(db),
        };
      },
    });
    api = started;
    const keys = releaseKeys(started.db);
    await registerShopKey(keys, shopKey);
    const checkoutTeam = await createCredential(started.db, { name: 'ci-checkout', area: 'checkout' });
    const checkoutKey = readSigningKey((await createTeamSigningKey(keys, 'ci-checkout', 'checkout')).privateKeyPem);
    const accountKey = readSigningKey((await createTeamSigningKey(keys, 'ci-account', 'account')).privateKeyPem);
    const integrity = releaseIntegrity({ storage, keys: () => keys.trusted() });
    for (const marker of ['one', 'two']) {
      await deploy({
        storage,
        part: 'checkout',
        distDir: fakeAreaBuild('checkout', { marker, routes: [cartRoute] }),
        packageVersion: '1.0.0',
        provenance: { who: 'seed' },
        init: true,
        signingKey: shopKey,
      });
    }
    await deploy({
      storage,
      part: 'shell',
      distDir: fakeShellBuild(),
      packageVersion: '1.0.0',
      provenance: { who: 'seed' },
      signingKey: shopKey,
    });
    await app.register(
      shellHost,
      shellHostOptions({
        storage,
        integrity,
        pageCacheMs: 0,
        serverRender: false,
        onRefusedVersion: (refused) => refusedVersions.push(`${refused.part} ${refused.version}`),
      }),
    );
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    /** `opsBase`: the operator origin, for the console's calls and the CI uploads. */
    return { api: started, base, opsBase: started.opsUrl, checkoutTeam, checkoutKey, accountKey };
  }

  async function stop() {
    await app.close();
    await api?.close();
    rmSync(origin, { recursive: true, force: true });
  }

  return {
    origin,
    storage,
    shopKey,
    app,
    refusedVersions,
    start,
    stop,
    /** The registry file on the origin, byte for byte (a refused move leaves it identical). */
    registryBytes: () => readFileSync(join(origin, 'builds', 'latest.json'), 'utf8'),
    liveCheckout: async () => (await readRegistry(storage)).areas.checkout!.version,
    /** The folder a version of a part is released into. */
    versionDir: (part: string, version: string) => join(origin, part === 'shell' ? 'shells/shell' : `remotes/${part}`, version),
  };
}
