/**
 * Who may move a part back, and to what, on SQLite and PostgreSQL (DATABASE_URL):
 * - a version marked never to be served again (a rollback marks the one it left) cannot be put in
 *   force by a rollback, a deploy, a canary, a preview or a move request; an operator may lift the
 *   mark, a team may not;
 * - a team's credential alone cannot roll back: the rollback must carry the team's signature;
 * - the integrity watch falls back only to a version in good standing, else contains the part and
 *   asks an operator; its moves and the canary watch's are in the audit log, whose chain holds.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  finishCanary,
  releaseIntegrity,
  rollback,
  setPin,
  signMoveRequest,
  startCanaryWatch,
  type MoveCommand,
  type SigningKey,
} from '@shop/release';
import { integrityFindings } from '../../src/domains/releases/integrity-findings.repository.ts';
import { startIntegrityWatch } from '../../src/domains/releases/integrity-watch.ts';
import { releaseKeys } from '../../src/domains/releases/release-keys.repository.ts';
import { setFloor, type TrustedRegistry } from '../../src/domains/releases/registry.repository.ts';
import { verifyAuditChain } from '../../src/domains/releases/audit-log.repository.ts';
import type { TestApi } from '../helpers/test-api.ts';
import { signedShop } from '../helpers/signed-shop.ts';

const shop = signedShop({ registryInDatabase: true });
const { originDir, storage, shopKey, contained, silent, log, release, requestMove, inForce, ops, refusalOf, auditRows } = shop;
let api: TestApi;
let book: TrustedRegistry;
let checkoutTeam = '';
let checkoutKey: SigningKey;

beforeAll(async () => {
  ({ api, book, checkoutTeam, checkoutKey } = await shop.start());
});
afterAll(shop.stop);

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
