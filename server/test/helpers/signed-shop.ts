/**
 * A shop whose releases are signed, as the integrity and trust-chain tests need it: the API (its
 * operator origin's release calls on this origin, as server.ts builds them) on a local origin
 * directory; the shop's key, a checkout team's credential and the checkout and account teams' keys
 * registered; checkout and a shell released with the shop's key; the shell host serving pages.
 *
 * The registry in force is the origin's files (two checkout versions released), or with
 * `registryInDatabase` the shop's database as server.ts keeps it (one checkout version released),
 * with the move requests' watch (one pass at a time) and a signed-in operator; `book` and `requests`
 * are that registry and that watch. Test files share their worker's modules, so each file makes its
 * own: `signedShop()` at its top, `start()` before its tests, `stop()` after them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { expect } from 'vitest';
import {
  deploy,
  generateSigningKey,
  localDirectoryStorage,
  originBook,
  outcomeKey,
  readSigningKey,
  releaseIntegrity,
  signMoveRequest,
  submitMoveRequest,
  type MoveCommand,
  type MoveOutcome,
  type ReleaseIntegrity,
  type SigningKey,
} from '@shop/release';
import { errorHandler } from '../../src/infra/http/error-handler.ts';
import { createCredential, releaseIdentities } from '../../src/domains/releases/identities.repository.ts';
import { integrityFindings } from '../../src/domains/releases/integrity-findings.repository.ts';
import { createTeamSigningKey, registerShopKey, releaseKeys } from '../../src/domains/releases/release-keys.repository.ts';
import { registryBook, setFloor, type TrustedRegistry } from '../../src/domains/releases/registry.repository.ts';
import { watchMoveRequests, type MoveRequestsWatch } from '../../src/domains/releases/move-requests.ts';
import { flagShares, setFlag } from '../../src/domains/releases/feature-flags.repository.ts';
import { shellHost } from '../../src/web/shell-host.ts';
import { cartRoute, fakeAreaBuild, fakeShellBuild, tempDir } from '@shop/release/testing';
import { shellHostOptions } from './shell-host-options.ts';
import { startTestApi, type StartTestApiOptions, type TestApi } from './test-api.ts';

export function signedShop({
  registryInDatabase = false,
  checkout,
}: {
  registryInDatabase?: boolean;
  /** The API's checkout options (e.g. a card gateway); default: none (no card payments). */
  checkout?: StartTestApiOptions['checkout'];
} = {}) {
  const originDir = tempDir('signed-shop-');
  const storage = localDirectoryStorage(originDir);
  const shopKey = readSigningKey(generateSigningKey().privateKeyPem);
  const app = Fastify();
  app.setErrorHandler(errorHandler);
  /** Every version the shell host refused to serve, as `part version`. */
  const refusedVersions: string[] = [];
  /** The parts the integrity watch contained (no version in good standing to fall back to). */
  const contained: string[] = [];
  const silent = { warn: () => undefined, error: () => undefined, info: () => undefined, debug: () => undefined, child: () => silent };
  const log = silent as never;
  let api: TestApi | undefined;
  /** The registry in the database (registryInDatabase); otherwise the origin's files are. */
  let book: TrustedRegistry | undefined;
  let requests: MoveRequestsWatch | undefined;
  let operator = '';

  /** A checkout build released as the owner's tool would (signed with the shop's key) into the registry in force. */
  async function release(marker: string, extra: Partial<Parameters<typeof deploy>[0]> = {}) {
    return deploy({
      storage,
      book,
      part: 'checkout',
      distDir: fakeAreaBuild('checkout', { marker, routes: [cartRoute] }),
      packageVersion: '1.0.0',
      provenance: { who: 'test' },
      signingKey: shopKey,
      ...extra,
    });
  }

  /** A move asked for as the release tool on the origin asks (signed, written to builds/requests/), applied by one pass of the server. */
  async function requestMove(command: MoveCommand, key: SigningKey = shopKey, baseRevision?: string | null): Promise<MoveOutcome> {
    const signed = signMoveRequest(key, {
      baseRevision: baseRevision === undefined ? (await book!.read()).revision : baseRevision,
      command,
      provenance: { who: 'owner-tool' },
    });
    expect(await submitMoveRequest(storage, signed, { waitMs: 0 })).toBeNull();
    await requests!.pass();
    const name = (JSON.parse(signed.text) as { signedAt: string; nonce: string }).signedAt;
    const file = `${Date.parse(name)}-${(JSON.parse(signed.text) as { nonce: string }).nonce}.json`;
    return JSON.parse((await storage.readText(outcomeKey(file)))!) as MoveOutcome;
  }

  /** The shell host's options as this shop serves its pages, the signatures checked by `integrity`. */
  function hostOptions(integrity: ReleaseIntegrity) {
    return shellHostOptions({
      storage,
      book,
      integrity,
      pageCacheMs: 0,
      serverRender: false,
      onRefusedVersion: (refused) => refusedVersions.push(`${refused.part} ${refused.version}`),
      flags: () => flagShares(api!.db),
    });
  }

  /** Starts the API, registers the keys, releases the builds and starts the shell host. */
  async function start() {
    const started = await startTestApi({
      ...(checkout ? { checkout } : {}),
      operatorConsole: ({ db }) => {
        const keys = releaseKeys(db);
        const trusted = registryInDatabase ? registryBook(db) : undefined;
        book = trusted;
        return {
          storage,
          ...(trusted ? { book: trusted, setFloor: (change) => setFloor(db, trusted, change) } : {}),
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
    if (book) {
      const identities = releaseIdentities(started.db);
      requests = watchMoveRequests({
        storage,
        book,
        keys,
        integrity,
        identities,
        findings: integrityFindings(started.db),
        log,
        scheduled: false,
        setFlag: (change) => setFlag(started.db, change),
      });
    }
    for (const marker of registryInDatabase ? ['one'] : ['one', 'two']) await release(marker, { init: true, provenance: { who: 'seed' } });
    await deploy({
      storage,
      book,
      part: 'shell',
      distDir: fakeShellBuild(),
      packageVersion: '1.0.0',
      provenance: { who: 'seed' },
      signingKey: shopKey,
    });
    await app.register(shellHost, hostOptions(integrity));
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    if (registryInDatabase) ({ cookie: operator } = await started.operator());
    /** `opsBase`: the operator origin, for the console's calls and the CI uploads. */
    return { api: started, base, opsBase: started.opsUrl, checkoutTeam, checkoutKey, accountKey, book: book!, requests: requests! };
  }

  async function stop() {
    requests?.stop();
    await app.close();
    await api?.close();
  }

  /** The registry file on the origin, byte for byte (a refused move leaves it identical). */
  const registryBytes = () => readFileSync(join(originDir, 'builds', 'latest.json'), 'utf8');

  return {
    originDir,
    storage,
    shopKey,
    app,
    refusedVersions,
    contained,
    silent,
    log,
    start,
    stop,
    release,
    requestMove,
    hostOptions,
    registryBytes,
    /** The checkout version in force. */
    inForce: async () => (await (book ?? originBook(storage)).read()).areas.checkout!.version,
    /** The registry the origin's builds/latest.json holds (with the registry in the database: its export). */
    exported: () => JSON.parse(registryBytes()) as { revision: string; areas: { checkout: { version: string } } },
    /** The folder a version of a part is released into. */
    versionDir: (part: string, version: string) => join(originDir, part === 'shell' ? 'shells/shell' : `remotes/${part}`, version),
    /** A release call on the operator origin: as the signed-in operator (its code fresh), or a team's credential. */
    ops: (path: string, body: unknown, auth: { cookie?: string; bearer?: string } = { cookie: operator }) =>
      fetch(`${api!.opsUrl}/api/ops${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: api!.opsUrl,
          ...(auth.cookie ? { cookie: auth.cookie } : {}),
          ...(auth.bearer ? { authorization: `Bearer ${auth.bearer}` } : {}),
        },
        body: JSON.stringify(body),
      }),
    refusalOf: async (response: Response) => ((await response.json()) as { error: { refusal?: string; message: string } }).error,
    auditRows: () => api!.db.selectFrom('release_audit').selectAll().orderBy('audit_id').execute(),
  };
}
