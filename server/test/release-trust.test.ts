/**
 * The registry's trust chain, on SQLite and PostgreSQL (DATABASE_URL): the registry in force lives in
 * the database with a revision that only grows, and the origin's `builds/latest.json` and
 * `builds/history.jsonl` are only its export:
 * - an origin writer who puts an older signed version back in latest.json (or edits history.jsonl)
 *   changes nothing a shopper gets; the server records a finding and writes the export over;
 * - the release tool's direct-origin moves are signed requests the server verifies, applies once,
 *   against the revision in force; two release commands at once both land, one after the other;
 * - a version marked never to be served again (a rollback marks the one it left) cannot be put in
 *   force by a rollback, a deploy, a canary, a preview or the integrity watch; an operator may lift
 *   the mark, a team may not;
 * - a team's credential alone cannot roll back: the rollback must carry the team's signature;
 * - the integrity watch falls back only to a version in good standing, else contains the part and
 *   asks an operator; its moves and the canary watch's are in the audit log.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  deploy,
  finishCanary,
  generateSigningKey,
  localDirectoryStorage,
  outcomeKey,
  readSigningKey,
  releaseIntegrity,
  rollback,
  setPin,
  signMoveRequest,
  startCanaryWatch,
  submitMoveRequest,
  type MoveCommand,
  type MoveOutcome,
  type Registry,
  type SigningKey,
} from '@shop/release';
import { errorHandler } from '../src/infra/http/error-handler.ts';
import { createCredential, releaseIdentities } from '../src/domains/releases/identities.repository.ts';
import { integrityFindings } from '../src/domains/releases/integrity-findings.repository.ts';
import { startIntegrityWatch } from '../src/domains/releases/integrity-watch.ts';
import { createTeamSigningKey, registerShopKey, releaseKeys } from '../src/domains/releases/release-keys.repository.ts';
import { registryBook, setFloor, type TrustedRegistry } from '../src/domains/releases/registry.repository.ts';
import { watchMoveRequests, type MoveRequestsWatch } from '../src/domains/releases/move-requests.ts';
import { verifyAuditChain } from '../src/domains/releases/audit-log.repository.ts';
import { shellHost } from '../src/web/shell-host.ts';
import { fakeAreaBuild, fakeShellBuild } from './helpers/fake-builds.ts';
import { startTestApi, type TestApi } from './helpers/test-api.ts';
import { tempDir } from './helpers/temp-dirs.ts';

const originDir = tempDir('release-trust-');
const storage = localDirectoryStorage(originDir);
const shopKey = readSigningKey(generateSigningKey().privateKeyPem);
const app = Fastify();
app.setErrorHandler(errorHandler);
let api: TestApi;
let book: TrustedRegistry;
let requests: MoveRequestsWatch;
let base = '';
let operator = '';
let checkoutTeam = '';
let checkoutKey: SigningKey;
const contained: string[] = [];
const silent = { warn: () => undefined, error: () => undefined, info: () => undefined, debug: () => undefined, child: () => silent };
const log = silent as never;
const cartRoute = { name: 'checkout-cart', path: '/checkout/cart', module: './CartPage', layout: 'checkout' };

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
const inForce = async () => (await book.read()).areas.checkout!.version;
const exported = () =>
  JSON.parse(readFileSync(join(originDir, 'builds', 'latest.json'), 'utf8')) as {
    revision: string;
    areas: { checkout: { version: string } };
  };
/** A release call on the operator origin: as the signed-in operator (its code fresh), or a team's credential. */
const ops = (path: string, body: unknown, auth: { cookie?: string; bearer?: string } = { cookie: operator }) =>
  fetch(`${api.opsUrl}/api/ops${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: api.opsUrl,
      ...(auth.cookie ? { cookie: auth.cookie } : {}),
      ...(auth.bearer ? { authorization: `Bearer ${auth.bearer}` } : {}),
    },
    body: JSON.stringify(body),
  });
const refusalOf = async (response: Response) => ((await response.json()) as { error: { refusal?: string; message: string } }).error;
const auditRows = () => api.db.selectFrom('release_audit').selectAll().orderBy('audit_id').execute();

/** A move asked for as the release tool on the origin asks (signed, written to builds/requests/), applied by one pass of the server. */
async function requestMove(command: MoveCommand, key: SigningKey = shopKey, baseRevision?: string | null): Promise<MoveOutcome> {
  const signed = signMoveRequest(key, {
    baseRevision: baseRevision === undefined ? (await book.read()).revision : baseRevision,
    command,
    provenance: { who: 'owner-tool' },
  });
  expect(await submitMoveRequest(storage, signed, { waitMs: 0 })).toBeNull();
  await requests.pass();
  const name = (JSON.parse(signed.text) as { signedAt: string; nonce: string }).signedAt;
  const file = `${Date.parse(name)}-${(JSON.parse(signed.text) as { nonce: string }).nonce}.json`;
  return JSON.parse((await storage.readText(outcomeKey(file)))!) as MoveOutcome;
}

beforeAll(async () => {
  // The operator origin's release calls on this origin and this registry, as server.ts builds them.
  api = await startTestApi({
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
  const keys = releaseKeys(api.db);
  await registerShopKey(keys, shopKey);
  checkoutTeam = await createCredential(api.db, { name: 'ci-checkout', area: 'checkout' });
  checkoutKey = readSigningKey((await createTeamSigningKey(keys, 'ci-checkout', 'checkout')).privateKeyPem);
  const integrity = releaseIntegrity({ storage, keys: () => keys.trusted() });
  const identities = releaseIdentities(api.db);
  const findings = integrityFindings(api.db);
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
  await app.register(shellHost, {
    storage,
    book,
    assetOrigin: 'https://cdn.example',
    gtmId: null,
    registryPollMs: 60_000,
    telemetrySample: 1,
    publicUrl: 'https://shop.example',
    integrity,
    pageCacheMs: 0,
    serverRender: false,
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  ({ cookie: operator } = await api.operator());
  // Every test starts from a clean part: the rollbacks below pin it.
});
afterAll(async () => {
  requests?.stop();
  await app.close();
  await api?.close();
});

describe('the registry in force is the database’s, the origin’s files only its export', () => {
  it('an older signed version put back in latest.json, or an edited history, changes nothing a shopper gets; it is a finding and is written over', async () => {
    const older = await inForce();
    const newer = (await release('two')).version;
    expect(exported().areas.checkout.version).toBe(newer);
    // The origin writer points the part back at the older, still signed version, with a revision ahead of the real one.
    const forged = JSON.parse(readFileSync(join(originDir, 'builds', 'latest.json'), 'utf8')) as Registry;
    forged.revision = '9999';
    forged.areas.checkout = { ...forged.areas.checkout!, version: older, entry: `remotes/checkout/${older}/remoteEntry.js` };
    writeFileSync(join(originDir, 'builds', 'latest.json'), JSON.stringify(forged, null, 2));
    appendFileSync(
      join(originDir, 'builds', 'history.jsonl'),
      `${JSON.stringify({ at: new Date().toISOString(), part: 'checkout', action: 'rollback', from: newer, to: older, who: 'spravca', reason: null, commit: null, dirty: null })}\n`,
    );

    const served = (await (await fetch(`${base}/builds/latest.json`)).json()) as {
      revision: string;
      areas: { checkout: { version: string } };
    };
    expect(served.areas.checkout.version).toBe(newer);
    expect(served.revision).toBe((await book.read()).revision);
    const page = await (await fetch(`${base}/`)).text();
    expect(page).toContain(`remotes/checkout/${newer}/`);
    expect(page).not.toContain(`remotes/checkout/${older}/`);
    expect(await inForce()).toBe(newer);

    // Looked at twice (a single look may catch another server writing its export), then recorded and written over.
    await requests.pass();
    await requests.pass();
    const findings = await api.db.selectFrom('release_integrity_findings').selectAll().where('kind', '=', 'registry').execute();
    expect(findings.map((finding) => finding.subject)).toContain('builds/latest.json');
    expect(exported().areas.checkout.version).toBe(newer);
    expect(exported().revision).toBe((await book.read()).revision);
    expect(readFileSync(join(originDir, 'builds', 'history.jsonl'), 'utf8')).not.toContain('"who":"spravca"');
  });

  it('applies a move request signed with a trusted key once; another key, a replay or a stale revision is refused and moves nothing', async () => {
    const before = await inForce();
    const strangerKey = readSigningKey(generateSigningKey().privateKeyPem);
    const stranger = await requestMove({ op: 'pin', part: 'checkout' }, strangerKey);
    expect(stranger).toMatchObject({ ok: false, code: 'bad_signature' });
    const stale = await requestMove({ op: 'pin', part: 'checkout' }, shopKey, '1');
    expect(stale).toMatchObject({ ok: false, code: 'registry_moved' });
    // The team's key may move its own area only.
    const teamOnShell = await requestMove({ op: 'pin', part: 'shell' }, checkoutKey);
    expect(teamOnShell).toMatchObject({ ok: false, code: 'bad_signature' });
    expect((await book.read()).pins?.checkout).toBeUndefined();

    const signed = signMoveRequest(shopKey, {
      baseRevision: (await book.read()).revision,
      command: { op: 'pin', part: 'checkout' },
      provenance: { who: 'owner-tool' },
    });
    await submitMoveRequest(storage, signed, { waitMs: 0 });
    await requests.pass();
    expect((await book.read()).pins?.checkout).toMatchObject({ version: before, by: 'owner-tool' });
    // The same request put back on the origin: refused as a replay.
    await submitMoveRequest(storage, signed, { waitMs: 0 });
    await requests.pass();
    const history = await book.history();
    expect(history.filter((move) => move.action === 'pin')).toHaveLength(1);
    const refusedRequests = (await auditRows()).filter((row) => row.action === 'move-request' && row.allowed === 0);
    expect(refusedRequests.length).toBeGreaterThanOrEqual(4);
    expect(refusedRequests.at(-1)!.detail).toContain('replay');
    await setPin({ storage, book, part: 'checkout', pinned: false, provenance: { who: 'test' } });
  });

  it('a request two processes read at once is applied once, and the waiting command is told it was', async () => {
    // Another process that runs background work (a second worker, or a server starting): its own
    // cache of the registry, the same database and origin.
    const other = watchMoveRequests({
      storage,
      book: registryBook(api.db),
      keys: releaseKeys(api.db),
      integrity: null,
      identities: releaseIdentities(api.db),
      findings: null,
      log,
      scheduled: false,
    });
    const pinsBefore = (await book.history()).filter((move) => move.action === 'pin').length;
    // Every outcome written, in order: the waiting command reads the first one it finds.
    const answers: MoveOutcome[] = [];
    const write = storage.writeTextAtomic.bind(storage);
    const watched = vi.spyOn(storage, 'writeTextAtomic').mockImplementation(async (key, text) => {
      if (key.endsWith('.outcome.json')) answers.push(JSON.parse(text) as MoveOutcome);
      return write(key, text);
    });
    try {
      for (let round = 0; round < 5; round += 1) {
        const signed = signMoveRequest(shopKey, {
          // As the command asks: the revision in force (this process's reused read may be the other's move behind).
          baseRevision: await book.revisionNow(),
          command: { op: round % 2 === 0 ? 'pin' : 'unpin', part: 'checkout' },
          provenance: { who: 'owner-tool' },
        });
        const { signedAt, nonce } = JSON.parse(signed.text) as { signedAt: string; nonce: string };
        await submitMoveRequest(storage, signed, { waitMs: 0 });
        await Promise.all([requests.pass(), other.pass()]);
        const outcome = JSON.parse((await storage.readText(outcomeKey(`${Date.parse(signedAt)}-${nonce}.json`)))!) as MoveOutcome;
        expect(outcome, `round ${round}: ${JSON.stringify(outcome)}`).toMatchObject({ ok: true });
      }
      expect((await book.history()).filter((move) => move.action === 'pin')).toHaveLength(pinsBefore + 3);
      expect(answers.filter((answer) => !answer.ok)).toEqual([]);
    } finally {
      watched.mockRestore();
      // Unpinned whatever the last round did (a move reads the state in force; this process's reused
      // read may not show the last pin yet). Not pinned: refused, nothing to undo.
      await setPin({ storage, book, part: 'checkout', pinned: false, provenance: { who: 'test' } }).catch((error: unknown) => {
        if (!(error instanceof Error && 'code' in error && error.code === 'not_pinned')) throw error;
      });
    }
  });

  it('two release commands on the origin at once both land, one after the other, in one consistent history', async () => {
    const scheduled = watchMoveRequests({
      storage,
      book,
      keys: releaseKeys(api.db),
      integrity: null,
      identities: releaseIdentities(api.db),
      findings: null,
      log,
      scheduled: true,
    });
    try {
      const start = await inForce();
      const builds = [
        fakeAreaBuild('checkout', { marker: 'left', routes: [cartRoute] }),
        fakeAreaBuild('checkout', { marker: 'right', routes: [cartRoute] }),
      ];
      const run = (dist: string) =>
        new Promise<{ code: number; output: string }>((resolve) => {
          const child = spawn(
            process.execPath,
            ['--import', 'tsx', '../release/src/cli.ts', 'deploy', 'checkout', '--dist', dist, '--origin', originDir],
            {
              cwd: join(import.meta.dirname, '..'),
              env: {
                ...process.env,
                S3_BUCKET: '',
                RELEASE_USER: 'team',
                RELEASE_SIGNING_KEY: shopKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
              },
            },
          );
          let output = '';
          child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.on('exit', (code) => resolve({ code: code ?? 1, output }));
        });
      const results = await Promise.all(builds.map(run));
      for (const result of results) expect(result.code, result.output).toBe(0);
      const moves = (await book.history()).filter((entry) => entry.part === 'checkout' && entry.action === 'deploy').slice(-2);
      expect(moves[0]!.from).toBe(start);
      expect(moves[1]!.from).toBe(moves[0]!.to);
      expect(moves.map((move) => move.who)).toEqual(['team', 'team']);
      expect(await inForce()).toBe(moves[1]!.to);
      expect(exported().areas.checkout.version).toBe(moves[1]!.to);
    } finally {
      scheduled.stop();
    }
  }, 90_000);
});

describe('a floor: versions never to be served again', () => {
  it('a rollback marks the version it left; no rollback, deploy, canary, preview or pin brings it back; an operator (not a team) lifts it', async () => {
    const good = await inForce();
    const bad = (await release('floored-bad')).version;
    const back = await ops('/releases/checkout/rollback', { version: good, reason: 'košík padá' });
    expect(back.status).toBe(200);
    expect((await book.floors('checkout')).map((floor) => floor.version)).toContain(bad);
    await ops('/releases/checkout/unpin', {});

    const refusals = [
      await (async () => (await ops('/releases/checkout/rollback', { version: bad })).status)(),
      await (async () => (await ops('/releases/checkout/preview', { version: bad })).status)(),
    ];
    expect(refusals).toEqual([409, 409]);
    await expect(release('floored-bad')).rejects.toMatchObject({ code: 'floored' });
    await expect(release('floored-bad', { mode: { kind: 'canary', share: 10 } })).rejects.toMatchObject({ code: 'floored' });
    await expect(requestMove({ op: 'rollback', part: 'checkout', to: bad })).resolves.toMatchObject({ ok: false, code: 'floored' });
    await expect(requestMove({ op: 'deploy', parts: [{ part: 'checkout', version: bad }], mode: { kind: 'live' } })).resolves.toMatchObject(
      { ok: false, code: 'floored' },
    );
    expect(await inForce()).toBe(good);

    // A team may not lift it; an operator may, and that is audited.
    const byTeam = await ops('/releases/checkout/floor', { version: bad, floored: false }, { bearer: checkoutTeam });
    expect(byTeam.status).toBe(403);
    const lifted = await ops('/releases/checkout/floor', { version: bad, floored: false, reason: 'opravené na pôvode' });
    expect(lifted.status).toBe(200);
    expect((await book.floors('checkout')).map((floor) => floor.version)).not.toContain(bad);
    expect((await auditRows()).some((row) => row.action === 'floor-lift' && row.detail?.startsWith(bad))).toBe(true);
    expect((await release('floored-bad')).version).toBe(bad);
    // The version in force cannot be floored: roll back first.
    expect((await ops('/releases/checkout/floor', { version: bad, floored: true })).status).toBe(409);
  });
});

describe("a team's rollback", () => {
  it("needs the team's own signature: a credential alone, another key's signature or a replay is refused", async () => {
    const current = await inForce();
    const target = (await book.history()).filter((move) => move.part === 'checkout' && move.action === 'deploy').at(-1)!.from!;
    const before = (await book.read()).revision;
    const unsigned = await ops('/releases/checkout/rollback', { version: target }, { bearer: checkoutTeam });
    expect(unsigned.status).toBe(403);
    expect((await refusalOf(unsigned)).refusal).toBe('signature_required');
    const command: MoveCommand = { op: 'rollback', part: 'checkout', to: target };
    const byShop = signMoveRequest(shopKey, { baseRevision: null, command, provenance: { who: 'ci' } });
    expect((await ops('/releases/checkout/rollback', { version: target, signed: byShop }, { bearer: checkoutTeam })).status).toBe(422);
    const otherVersion = signMoveRequest(checkoutKey, {
      baseRevision: null,
      command: { ...command, to: current },
      provenance: { who: 'ci' },
    });
    expect((await ops('/releases/checkout/rollback', { version: target, signed: otherVersion }, { bearer: checkoutTeam })).status).toBe(
      422,
    );
    expect((await book.read()).revision).toBe(before);

    const signed = signMoveRequest(checkoutKey, { baseRevision: null, command, provenance: { who: 'ci' } });
    const done = await ops('/releases/checkout/rollback', { version: target, signed }, { bearer: checkoutTeam });
    expect(done.status).toBe(200);
    expect(await inForce()).toBe(target);
    const replay = await ops('/releases/checkout/rollback', { version: target, signed }, { bearer: checkoutTeam });
    expect(replay.status).toBe(422);
    await ops('/releases/checkout/unpin', {});
  });
});

describe('the watches’ moves', () => {
  it('the integrity watch falls back only to a version in good standing and logs its move; with none it contains the part and asks an operator', async () => {
    const findings = integrityFindings(api.db);
    const integrity = releaseIntegrity({ storage, keys: () => releaseKeys(api.db).trusted() });
    const watch = startIntegrityWatch({
      storage,
      book,
      integrity,
      findings,
      policy: { intervalMs: 3_600_000, action: 'fallback' },
      log,
      checkoutPageUrl: null,
      scheduled: false,
      onContained: (part) => contained.push(part),
    });
    try {
      // Good standing: `good` left force by a deploy.
      const good = (await release('watch-good', { overridePin: true })).version;
      const tampered = (await release('watch-tampered')).version;
      appendFileSync(join(originDir, 'remotes', 'checkout', tampered, 'assets', 'page.js'), '\n;steal()');
      await watch.checkNow();
      expect(await inForce()).toBe(good);
      const fallback = (await auditRows()).filter((row) => row.actor === 'kontrola integrity' && row.action === 'rollback');
      expect(fallback.at(-1)!.detail).toContain(`${tampered} → ${good}`);
      await setPin({ storage, book, part: 'checkout', pinned: false, provenance: { who: 'test' } });

      // The case: an operator rolled back from `left`; later the version in force is changed.
      const left = (await release('watch-left')).version;
      await rollback({ storage, book, part: 'checkout', to: good, provenance: { who: 'spravca', reason: 'chyba' } });
      await setPin({ storage, book, part: 'checkout', pinned: false, provenance: { who: 'test' } });
      // `left` was rolled back from (its floor lifted: the history alone keeps it out), `tampered` left by the
      // watch's fallback; every older version is floored, so nothing before `good` is in good standing.
      await setFloor(api.db, book, {
        part: 'checkout',
        version: left,
        floored: false,
        by: 'test',
        reason: 'only the history marks it now',
      });
      const older = new Set((await book.history()).filter((move) => move.part === 'checkout').map((move) => move.to));
      for (const version of older) {
        if ([good, left, tampered].includes(version) || (await book.floors('checkout')).some((floor) => floor.version === version))
          continue;
        await setFloor(api.db, book, { part: 'checkout', version, floored: true, by: 'test', reason: 'older' });
      }
      appendFileSync(join(originDir, 'remotes', 'checkout', good, 'assets', 'page.js'), '\n;steal()');
      const revision = (await book.read()).revision;
      await watch.checkNow();
      expect(await inForce()).toBe(good);
      expect((await book.read()).revision).toBe(revision);
      expect(contained).toContain('checkout');
      const recorded = await api.db.selectFrom('release_integrity_findings').selectAll().where('version', '=', good).execute();
      expect(recorded.map((row) => row.action)).toContain('contained');
    } finally {
      watch.stop();
    }
  });

  it('the canary watch’s abort is in the audit log, and the log’s chain holds', async () => {
    const stable = await inForce();
    const canary = (await release('canary-bad', { mode: { kind: 'canary', share: 50 } })).version;
    const watch = startCanaryWatch({
      storage,
      book,
      health: async () => [
        { area: 'checkout', version: stable, views: 100, errors: 0 },
        { area: 'checkout', version: canary, views: 100, errors: 60 },
      ],
      policy: { minViews: 10, margin: 0.05, intervalMs: 3_600_000 },
      log: silent,
    });
    try {
      expect(await watch.check()).toEqual(['checkout']);
    } finally {
      watch.stop();
    }
    const aborts = (await auditRows()).filter((row) => row.actor === 'canary-watch' && row.action === 'abort');
    expect(aborts.at(-1)!.detail).toContain(canary);
    expect(await verifyAuditChain(api.db)).toMatchObject({ intact: true });
    await expect(finishCanary({ storage, book, area: 'checkout', outcome: 'abort', provenance: { who: 'test' } })).rejects.toMatchObject({
      code: 'no_canary',
    });
  });
});

describe("the owner's release key", () => {
  const credentials = (args: string[], env: NodeJS.ProcessEnv) =>
    new Promise<{ code: number; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/domains/operators/credentials-cli.ts', ...args], {
        cwd: join(import.meta.dirname, '..'),
        env: {
          ...process.env,
          DATA_DIR: api.dataDir,
          DATABASE_URL: api.databaseUrl ?? '',
          RELEASE_SIGNING_KEY: '',
          RELEASE_SIGNING_KEY_FILE: '',
          ...env,
        },
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => resolve({ code: code ?? 1, output }));
    });

  it('is made by the owner’s command outside the data directory (an older one moved out of it) and only its public half is trusted', async () => {
    const config = tempDir('owner-config-');
    // An older shop kept its key in the data directory: the command moves it to the owner's place.
    const legacy = generateSigningKey();
    writeFileSync(join(api.dataDir, 'release-signing-key.pem'), legacy.privateKeyPem, { mode: 0o600 });
    const made = await credentials(['shop-key-create'], { XDG_CONFIG_HOME: config });
    expect(made.code, made.output).toBe(0);
    const file = join(config, 'stavebniny', 'release-signing-key.pem');
    expect(readFileSync(file, 'utf8')).toBe(legacy.privateKeyPem);
    expect(() => readFileSync(join(api.dataDir, 'release-signing-key.pem'))).toThrow();
    const trusted = await releaseKeys(api.db).trusted();
    expect(trusted.find((key) => key.keyId === legacy.keyId)).toMatchObject({ owner: 'shop', area: null });
    expect(JSON.stringify(trusted)).not.toContain('PRIVATE KEY');
    // A key file inside the data directory is refused: servers read it and backups copy it.
    const inside = await credentials(['shop-key-create'], { RELEASE_SIGNING_KEY_FILE: join(api.dataDir, 'owner.pem') });
    expect(inside.code).toBe(1);
    expect(inside.output).toContain('which servers read and backups copy');
  });

  it('is never in a server’s reach: a server started with a private key in its environment refuses to start', async () => {
    const names = ['RELEASE_SIGNING_KEY', 'RELEASE_SIGNING_KEY_FILE'];
    const starts = await Promise.all(
      names.map(
        (name) =>
          new Promise<{ code: number; output: string }>((resolve) => {
            const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
              cwd: join(import.meta.dirname, '..'),
              env: { ...process.env, DATA_DIR: tempDir('server-key-'), [name]: 'anything', GATEWAY_URL: 'http://127.0.0.1:9' },
            });
            let output = '';
            child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
            child.on('exit', (code) => resolve({ code: code ?? 1, output }));
          }),
      ),
    );
    starts.forEach((started, index) => {
      expect(started.code).toBe(1);
      expect(started.output).toContain(`${names[index]} set in the server's environment`);
    });
  }, 120_000);
});
