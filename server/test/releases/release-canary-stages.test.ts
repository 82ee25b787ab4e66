/**
 * Staged canaries on the registry in force (the shop's database; SQLite, and PostgreSQL with
 * DATABASE_URL): the canary watch moves a healthy ramp on stage by stage, each move one registry
 * commit with the figures in the history and the audit log, followed by open tabs through the
 * registry events; it aborts a bad build from the stage it is at; and two servers' watches judging
 * the same stage at once move it on once. A team's CI upload starts one too, its plan bounded.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_STAGE_MS,
  finishCanary,
  startCanaryWatch,
  uploadRelease,
  type CanaryPolicy,
  type DeployMode,
  type SigningKey,
  type VersionHealth,
} from '@shop/release';
import { cartRoute, fakeAreaBuild } from '@shop/release/testing';
import { verifyAuditChain } from '../../src/domains/releases/audit-log.repository.ts';
import { registryBook, type TrustedRegistry } from '../../src/domains/releases/registry.repository.ts';
import { registryEvents } from '../../src/web/registry-events.ts';
import { openRegistryEvents } from '../helpers/registry-events.ts';
import { signedShop } from '../helpers/signed-shop.ts';
import type { TestApi } from '../helpers/test-api.ts';

const shop = signedShop({ registryInDatabase: true });
const { storage, release, inForce, auditRows } = shop;
let api: TestApi;
let book: TrustedRegistry;
let opsBase = '';
let checkoutTeam = '';
let checkoutKey: SigningKey;
const events = Fastify();
let eventsBase = '';

beforeAll(async () => {
  ({ api, book, opsBase, checkoutTeam, checkoutKey } = await shop.start());
  registryEvents(events, { storage, book, pollMs: 50 });
  eventsBase = await events.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await events.close();
  await shop.stop();
});

const STAGE_MS = 60_000;
const policy: CanaryPolicy = { minViews: 10, margin: 0.05, intervalMs: 3_600_000 };
const ramp = (stages: number[], autoPromote = true): DeployMode => ({
  kind: 'canary',
  share: stages[0]!,
  stages,
  stageMs: STAGE_MS,
  autoPromote,
});

/** A watch as a server runs it, over `on` (another server: a book of its own over the same database). */
function watch(health: () => VersionHealth[], now: () => number, on: TrustedRegistry = book) {
  const errors: object[] = [];
  const started = startCanaryWatch({
    storage,
    book: on,
    health: async () => health(),
    policy,
    now,
    log: { warn: () => undefined, error: (object) => errors.push(object) },
  });
  return { check: started.check, stop: started.stop, errors };
}

const healthy = (stable: string, canary: string) => () => [
  { area: 'checkout', version: stable, views: 100, errors: 0 },
  { area: 'checkout', version: canary, views: 40, errors: 0 },
];
/** The checkout's canary in force, read from the database now: another server's move is not in a book's reused copy. */
const canaryNow = async () => (await registryBook(api.db).read()).canaries?.checkout;

describe('a staged canary on the registry in force', () => {
  it('moves on stage by stage, each move one commit in the history and the audit log, seen by open tabs, then is promoted', async () => {
    const stable = await inForce();
    const canary = (await release('ramp-good', { mode: ramp([5, 25, 50]) })).version;
    const tab = await openRegistryEvents(eventsBase);
    try {
      expect(await tab.nextRevision()).toBe((await book.read()).revision);
      const watcher = watch(healthy(stable, canary), () => Date.now() + STAGE_MS);
      try {
        for (const share of [25, 50]) {
          const before = Number((await book.read()).revision);
          await watcher.check();
          const registry = await book.read();
          expect(registry.canaries?.checkout).toMatchObject({ version: canary, share });
          expect(Number(registry.revision)).toBe(before + 1);
          expect(await tab.nextRevision()).toBe(registry.revision);
        }
        await watcher.check();
        expect(await tab.nextRevision()).toBe((await book.read()).revision);
      } finally {
        watcher.stop();
      }
      expect(watcher.errors).toEqual([]);
    } finally {
      tab.close();
    }
    expect(await inForce()).toBe(canary);
    expect(await canaryNow()).toBeUndefined();
    const moves = (await book.history()).filter((move) => move.to === canary);
    expect(moves.map((move) => [move.action, move.share, move.who])).toEqual([
      ['canary', 5, 'test'],
      ['advance', 25, 'canary-watch'],
      ['advance', 50, 'canary-watch'],
      ['promote', 100, 'canary-watch'],
    ]);
    const audited = (await auditRows()).filter((row) => row.actor === 'canary-watch' && row.detail?.includes(canary));
    expect(audited.map((row) => row.action)).toEqual(['advance', 'advance', 'promote']);
    expect(audited[0]!.detail).toMatch(
      new RegExp(
        `^${stable} → ${canary} \\(25 %\\); revízia \\d+; automatický postup: fáza 1 z 3 \\(5 %\\) → fáza 2 z 3 \\(25 %\\) po 60 s bez regresie: chybovosť 0\\.0 % z 40 zobrazení`,
      ),
    );
    expect(await verifyAuditChain(api.db)).toMatchObject({ intact: true });
  });

  it('aborts a bad build from the stage it is at: back to the stable version for everyone', async () => {
    const stable = await inForce();
    const canary = (await release('ramp-bad', { mode: ramp([5, 25, 50]) })).version;
    let errors = 0;
    const health = () => [
      { area: 'checkout', version: stable, views: 100, errors: 0 },
      { area: 'checkout', version: canary, views: 40, errors },
    ];
    const watcher = watch(health, () => Date.now() + STAGE_MS);
    try {
      await watcher.check();
      expect(await canaryNow()).toMatchObject({ share: 25, stages: { index: 1 } });
      errors = 30;
      expect(await watcher.check()).toEqual(['checkout']);
    } finally {
      watcher.stop();
    }
    expect(await canaryNow()).toBeUndefined();
    expect(await inForce()).toBe(stable);
    const last = (await book.history()).at(-1)!;
    expect(last).toMatchObject({ action: 'abort', who: 'canary-watch', from: canary, to: stable });
    expect(last.reason).toContain('automatic abort: client error rate 75.0 % over 40 page views');
    expect((await auditRows()).at(-1)).toMatchObject({ actor: 'canary-watch', action: 'abort', part: 'checkout' });
  });

  it('two servers’ watches judging the same stage at once move it on once', async () => {
    const stable = await inForce();
    const canary = (await release('ramp-race', { mode: ramp([5, 10, 15, 20, 25], false) })).version;
    const other = registryBook(api.db);
    // Both watches see one instant per round: the current stage has just been held its time (the
    // round starts a millisecond after the stage did), and a stage a watch moves to during the round
    // has not. So the other watch, whether it reads before or after that move, never moves it again
    // (with a clock running on, a watch reading after the move would find the new stage held too).
    let round = 0;
    const now = () => round;
    const here = watch(healthy(stable, canary), now);
    const there = watch(healthy(stable, canary), now, other);
    try {
      for (const [index, share] of [10, 15, 20, 25].entries()) {
        const stageSince = Date.parse((await canaryNow())!.stages!.stageSince);
        while (Date.now() <= stageSince) await new Promise((resolve) => setTimeout(resolve, 1));
        round = Date.now() + STAGE_MS - 1;
        await Promise.all([here.check(), there.check()]);
        expect(await canaryNow(), `round ${index}`).toMatchObject({ share, stages: { index: index + 1 } });
      }
    } finally {
      here.stop();
      there.stop();
    }
    const advances = (await book.history()).filter((move) => move.to === canary && move.action === 'advance');
    expect(advances.map((move) => move.share)).toEqual([10, 15, 20, 25]);
    // The one that came second found the stage moved: nothing to log.
    expect([...here.errors, ...there.errors]).toEqual([]);
    await finishCanary({ storage, book, area: 'checkout', outcome: 'abort', provenance: { who: 'test' } });
  });

  it('is started by a team’s CI upload as by the command, its plan bounded (400 in Slovak)', async () => {
    const upload = (marker: string, mode: DeployMode) =>
      uploadRelease({
        server: opsBase,
        token: checkoutTeam,
        input: { part: 'checkout', distDir: fakeAreaBuild('checkout', { marker, routes: [cartRoute] }), packageVersion: '1.0.0' },
        mode,
        overridePin: false,
        provenance: { who: 'ci-checkout' },
        signingKey: checkoutKey,
      });
    const refused = await upload('ramp-upload-bad', { kind: 'canary', share: 25, stages: [25, 5] }).catch((error: unknown) => error);
    expect(String(refused)).toContain('Postupné kanárske vydanie potrebuje 1 až 5 podielov od 1 do 99 %');
    expect(await canaryNow()).toBeUndefined();

    const { result } = await upload('ramp-upload', { kind: 'canary', share: 10, stages: [10, 50] });
    expect(await canaryNow()).toMatchObject({
      version: result.version,
      share: 10,
      stages: { shares: [10, 50], index: 0, stageMs: DEFAULT_STAGE_MS, autoPromote: false },
    });
    await finishCanary({ storage, book, area: 'checkout', outcome: 'abort', provenance: { who: 'test' } });
  });
});
