/**
 * A shop that keeps the registry in force in its database, as the trust-chain tests need it: the
 * API (its operator origin's release calls on this origin and this registry, as server.ts builds
 * them), the shop's key, a checkout team's credential and key, the move requests' watch (one pass
 * at a time), checkout and a shell released with the shop's key, the shell host serving pages, and
 * a signed-in operator. Test files share their worker's modules, so each file makes its own:
 * `trustedRegistryShop()` at its top, `start()` before its tests, `stop()` after them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { expect } from 'vitest';
import {
  deploy,
  generateSigningKey,
  localDirectoryStorage,
  outcomeKey,
  readSigningKey,
  releaseIntegrity,
  signMoveRequest,
  submitMoveRequest,
  type MoveCommand,
  type MoveOutcome,
  type SigningKey,
} from '@shop/release';
import { errorHandler } from '../../src/infra/http/error-handler.ts';
import { createCredential, releaseIdentities } from '../../src/domains/releases/identities.repository.ts';
import { integrityFindings } from '../../src/domains/releases/integrity-findings.repository.ts';
import { createTeamSigningKey, registerShopKey, releaseKeys } from '../../src/domains/releases/release-keys.repository.ts';
import { registryBook, setFloor, type TrustedRegistry } from '../../src/domains/releases/registry.repository.ts';
import { watchMoveRequests, type MoveRequestsWatch } from '../../src/domains/releases/move-requests.ts';
import { shellHost } from '../../src/web/shell-host.ts';
import { cartRoute, fakeAreaBuild, fakeShellBuild } from './fake-builds.ts';
import { startTestApi, type TestApi } from './test-api.ts';
import { tempDir } from './temp-dirs.ts';
import { shellHostOptions } from './shell-host-options.ts';

export function trustedRegistryShop() {
  const originDir = tempDir('release-trust-');
  const storage = localDirectoryStorage(originDir);
  const shopKey = readSigningKey(generateSigningKey().privateKeyPem);
  const app = Fastify();
  app.setErrorHandler(errorHandler);
  let api: TestApi | undefined;
  let book: TrustedRegistry;
  let requests: MoveRequestsWatch | undefined;
  let operator = '';
  /** The parts the integrity watch contained (no version in good standing to fall back to). */
  const contained: string[] = [];
  const silent = { warn: () => undefined, error: () => undefined, info: () => undefined, debug: () => undefined, child: () => silent };
  const log = silent as never;

  /** A checkout build released as the owner's tool would (signed with the shop's key) into the trusted registry. */
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
      baseRevision: baseRevision === undefined ? (await book.read()).revision : baseRevision,
      command,
      provenance: { who: 'owner-tool' },
    });
    expect(await submitMoveRequest(storage, signed, { waitMs: 0 })).toBeNull();
    await requests!.pass();
    const name = (JSON.parse(signed.text) as { signedAt: string; nonce: string }).signedAt;
    const file = `${Date.parse(name)}-${(JSON.parse(signed.text) as { nonce: string }).nonce}.json`;
    return JSON.parse((await storage.readText(outcomeKey(file)))!) as MoveOutcome;
  }

  async function start() {
    // The operator origin's release calls on this origin and this registry, as server.ts builds them.
    const started = await startTestApi({
      operatorConsole: ({ db }) => {
        book = registryBook(db);
        const keys = releaseKeys(db);
        return {
          storage,
          book,
          setFloor: (change) => setFloor(db, book, change),
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
    const integrity = releaseIntegrity({ storage, keys: () => keys.trusted() });
    const identities = releaseIdentities(started.db);
    const findings = integrityFindings(started.db);
    requests = watchMoveRequests({ storage, book, keys, integrity, identities, findings, log, scheduled: false });
    await release('one', { init: true });
    await deploy({
      storage,
      book,
      part: 'shell',
      distDir: fakeShellBuild(),
      packageVersion: '1.0.0',
      provenance: { who: 'test' },
      signingKey: shopKey,
    });
    await app.register(shellHost, shellHostOptions({ storage, book, integrity, pageCacheMs: 0, serverRender: false }));
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    ({ cookie: operator } = await started.operator());
    // Every test starts from a clean part: the rollbacks the tests make pin it.
    return { api: started, book, requests, base, checkoutTeam, checkoutKey };
  }

  async function stop() {
    requests?.stop();
    await app.close();
    await api?.close();
  }

  return {
    originDir,
    storage,
    shopKey,
    contained,
    silent,
    log,
    start,
    stop,
    release,
    requestMove,
    inForce: async () => (await book.read()).areas.checkout!.version,
    /** The registry the origin's builds/latest.json exports. */
    exported: () =>
      JSON.parse(readFileSync(join(originDir, 'builds', 'latest.json'), 'utf8')) as {
        revision: string;
        areas: { checkout: { version: string } };
      },
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
