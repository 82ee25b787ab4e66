/**
 * The release flow, on the local directory and on S3 (a real local
 * S3-compatible server, s3rver): every test runs against both storages (the
 * CLI's too: with S3_BUCKET it releases into the bucket).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  deploy,
  deploySet,
  finishCanary,
  prune,
  rollback,
  setPin,
  status,
  ReleaseRefused,
  readHistory,
  readRegistry,
  REGISTRY_KEY,
  HISTORY_KEY,
  publicRegistry,
  localDirectoryStorage,
  type ReleaseStorage,
  LOCK_KEY,
  readLock,
  withReleaseLock,
  canaryVerdict,
  startCanaryWatch,
  type VersionHealth,
  unpackBuild,
} from '@shop/release';
import { previewedRegistry } from '../src/web/preview-host.ts';
import { fakeAreaBuild, fakeShellBuild } from './helpers/fake-builds.ts';
import { startS3Server, type S3TestServer } from './helpers/s3-server.ts';

let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.stop();
});

/** Origin directories made by a test, removed after it. */
const origins: string[] = [];
afterEach(() => {
  for (const dir of origins.splice(0)) rmSync(dir, { recursive: true, force: true });
});

type Backend = { name: string; local: boolean; /** A new, empty origin. */ make(): ReleaseStorage };
const backends: Backend[] = [
  {
    name: 'the local directory',
    local: true,
    make: () => {
      const dir = mkdtempSync(join(tmpdir(), 'origin-'));
      origins.push(dir);
      return localDirectoryStorage(dir);
    },
  },
  { name: 'S3 (s3rver)', local: false, make: () => s3.storage() },
];

let storage: ReleaseStorage;
const provenance = { who: 'test', commit: 'abc123def456', dirty: false };

async function deployArea(
  area: string,
  options: Parameters<typeof fakeAreaBuild>[1] = {},
  extra: Partial<Parameters<typeof deploy>[0]> = {},
) {
  return deploy({
    storage,
    part: area as 'checkout',
    distDir: fakeAreaBuild(area, options),
    packageVersion: '1.0.0',
    provenance,
    ...extra,
  });
}

async function refusal(promise: Promise<unknown>): Promise<ReleaseRefused> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ReleaseRefused);
  return error as ReleaseRefused;
}

/** Everything a refused release must leave untouched. */
async function snapshot() {
  return { registry: await storage.readText(REGISTRY_KEY), history: await storage.readText(HISTORY_KEY) };
}

const inForce = async (area: 'checkout' | 'catalog' = 'checkout') => (await readRegistry(storage)).areas[area]?.version;

describe.each(backends)('releases on $name', (backend) => {
  beforeEach(async () => {
    storage = backend.make();
    await deployArea('checkout', { marker: 'v1' }, { init: true });
    await deploy({ storage, part: 'shell', distDir: fakeShellBuild(), packageVersion: '1.0.0', provenance });
  });

  describe('deploy', () => {
    it('uploads to an immutable versioned path, moves the pointer and records who, when, from, to and the commit', async () => {
      const before = (await inForce())!;
      const result = await deployArea('checkout', { marker: 'v2' }, { provenance: { ...provenance, reason: 'new basket', dirty: true } });
      expect(result.changed).toBe(true);
      expect(result.version).toMatch(/^1\.0\.0-[0-9a-f]{10}$/);
      const registry = await readRegistry(storage);
      expect(registry.areas.checkout).toMatchObject({
        version: result.version,
        entry: `remotes/checkout/${result.version}/remoteEntry.js`,
        kernel: '1.0.0',
      });
      expect(registry.areas.checkout!.routes).toEqual([
        { name: 'checkout-cart-page', path: '/checkout/cart-page', module: './CartPage', layout: 'default' },
      ]);
      expect(await storage.exists(`remotes/checkout/${before}`)).toBe(true);
      const last = (await readHistory(storage)).at(-1)!;
      expect(last).toMatchObject({
        part: 'checkout',
        action: 'deploy',
        from: before,
        to: result.version,
        who: 'test',
        reason: 'new basket',
        commit: 'abc123def456',
        dirty: true,
      });
      expect(Date.parse(last.at)).not.toBeNaN();
    });

    it('gives the same build the same version and does not move the pointer again', async () => {
      const again = await deployArea('checkout', { marker: 'v1' });
      expect(again.changed).toBe(false);
      expect((await readHistory(storage)).filter((entry) => entry.part === 'checkout')).toHaveLength(1);
    });

    it('refuses an origin without a registry (a mistyped DATA_DIR) unless asked to start one', async () => {
      const empty = backend.make();
      const error = await refusal(
        deploy({ storage: empty, part: 'checkout', distDir: fakeAreaBuild('checkout'), packageVersion: '1.0.0', provenance }),
      );
      expect(error.code).toBe('no_registry');
      expect(error.message).toContain('--init');
      expect(error.message).toContain(empty.location(REGISTRY_KEY));
      expect(await empty.exists(REGISTRY_KEY)).toBe(false);
      expect(await empty.exists('remotes')).toBe(false);
      expect((await refusal(rollback({ storage: empty, part: 'checkout', provenance }))).code).toBe('no_registry');
    });

    it('refuses an area built against a kernel contract the shell in force does not provide, changing nothing', async () => {
      const before = await snapshot();
      const error = await refusal(deployArea('checkout', { kernel: '2.0.0', marker: 'v2' }));
      expect(error.code).toBe('incompatible_kernel');
      expect(error.message).toContain('kernel 2.0.0');
      expect(await snapshot()).toEqual(before);
      expect(await storage.list('remotes/checkout')).toHaveLength(1);
    });

    it('refuses a route that names a module the build does not expose, a path the shell owns, and a path another area serves', async () => {
      const before = await snapshot();
      const missing = await refusal(
        deployArea('checkout', {
          marker: 'v2',
          routes: [{ name: 'cart', path: '/checkout/cart', module: './Missing', layout: 'checkout' }],
        }),
      );
      expect(missing.code).toBe('missing_module');
      expect(missing.message).toContain('./Missing');
      const reserved = await refusal(
        deployArea('checkout', { marker: 'v3', routes: [{ name: 'ops', path: '/ops', module: './CartPage', layout: 'default' }] }),
      );
      expect(reserved.code).toBe('broken_build');
      expect(reserved.message).toContain('/ops');
      await deployArea('catalog', {
        exposes: ['./HomePage'],
        routes: [{ name: 'home', path: '/', module: './HomePage', layout: 'default' }],
      });
      const beforeClash = await snapshot();
      const clash = await refusal(
        deployArea('checkout', { marker: 'v4', routes: [{ name: 'landing', path: '/', module: './CartPage', layout: 'default' }] }),
      );
      expect(clash.code).toBe('route_clash');
      expect(clash.message).toContain('catalog');
      const sameName = await refusal(
        deployArea('checkout', { marker: 'v5', routes: [{ name: 'home', path: '/kosik', module: './CartPage', layout: 'default' }] }),
      );
      expect(sameName.code).toBe('route_clash');
      expect(await snapshot()).toEqual(beforeClash);
      expect(before.registry).not.toBeNull();
    });

    it('lets an area add, change and remove its own pages with a deploy of its own', async () => {
      const pages = [
        { name: 'checkout-cart', path: '/checkout/cart', module: './CartPage', layout: 'checkout' },
        { name: 'checkout-gift', path: '/checkout/darcek/:code', module: './GiftPage', layout: 'checkout' },
      ];
      await deployArea('checkout', { marker: 'v2', exposes: ['./CartPage', './GiftPage'], routes: pages });
      expect((await readRegistry(storage)).areas.checkout!.routes.map((route) => route.path)).toEqual([
        '/checkout/cart',
        '/checkout/darcek/:code',
      ]);
      await deployArea('checkout', { marker: 'v3', routes: pages.slice(0, 1) });
      expect((await readRegistry(storage)).areas.checkout!.routes.map((route) => route.path)).toEqual(['/checkout/cart']);
    });

    it('refuses a broken build (no manifest) and an area over its budget', async () => {
      const broken = fakeAreaBuild('checkout', { marker: 'v3' });
      writeFileSync(join(broken, 'mf-manifest.json'), '{ not json');
      const before = await snapshot();
      expect((await refusal(deploy({ storage, part: 'checkout', distDir: broken, packageVersion: '1.0.0', provenance }))).code).toBe(
        'broken_build',
      );
      expect((await refusal(deployArea('checkout', { marker: 'v4', pageBytes: 20000 }, { budgetBytes: 50 }))).code).toBe('over_budget');
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('the release lock', () => {
    it('refuses while a live release holds it, changing nothing', async () => {
      const before = await snapshot();
      await storage.writeTextAtomic(
        LOCK_KEY,
        JSON.stringify({ pid: 1, host: 'elsewhere', since: new Date().toISOString(), what: 'deploy catalog' }),
      );
      const error = await refusal(
        withReleaseLock(storage, 'deploy checkout', () => deployArea('checkout', { marker: 'v5' }), { waitMs: 200, pollMs: 50 }),
      );
      expect(error.code).toBe('lock_held');
      expect(error.message).toContain('deploy catalog');
      expect(await snapshot()).toEqual(before);
      expect(await readLock(storage)).toMatchObject({ what: 'deploy catalog', stale: false });
    });

    it('breaks a lock whose process is gone, or that is older than the limit, with a log line', async () => {
      const dead = spawn(process.execPath, ['-e', '0']);
      await new Promise((resolve) => dead.on('exit', resolve));
      for (const stale of [
        { pid: dead.pid!, host: hostname(), since: new Date().toISOString(), what: 'deploy checkout (crashed)' },
        { pid: 1, host: 'elsewhere', since: new Date(Date.now() - 11 * 60_000).toISOString(), what: 'deploy checkout (hung)' },
      ]) {
        await storage.writeTextAtomic(LOCK_KEY, JSON.stringify(stale));
        expect((await readLock(storage))?.stale).toBe(true);
        const lines: string[] = [];
        const ran = await withReleaseLock(storage, 'rollback checkout', async () => 'done', {
          waitMs: 200,
          pollMs: 20,
          log: (line) => lines.push(line),
        });
        expect(ran).toBe('done');
        expect(lines.join('\n')).toContain(stale.what);
        expect(await storage.exists(LOCK_KEY)).toBe(false);
      }
    });
  });

  describe('two deploys of one area at once', () => {
    it('in one process are serialised by the lock and leave a consistent registry and history', async () => {
      const start = (await inForce())!;
      const results = await Promise.all(['left', 'right'].map((marker) => deployArea('checkout', { marker })));
      const moves = (await readHistory(storage)).filter((entry) => entry.part === 'checkout');
      expect(moves).toHaveLength(3);
      const [, first, second] = moves;
      expect(first!.from).toBe(start);
      expect(second!.from).toBe(first!.to);
      expect(new Set(results.map((result) => result.version))).toEqual(new Set([first!.to, second!.to]));
      expect(await inForce()).toBe(second!.to);
      expect(await storage.exists(LOCK_KEY)).toBe(false);
    });

    // The CLI releases where the server's environment says: the directory --origin names, or with
    // S3_BUCKET the bucket (--origin then holds only its cache).
  });

  describe('rollback', () => {
    it('goes back to the version before, pins it there, and a second rollback needs a named version', async () => {
      const v1 = (await inForce())!;
      const v2 = (await deployArea('checkout', { marker: 'v2' })).version;
      const back = await rollback({ storage, part: 'checkout', provenance: { who: 'night-ops', reason: 'basket throws' } });
      expect(back).toMatchObject({ from: v2, version: v1, changed: true });
      const registry = await readRegistry(storage);
      expect(registry.areas.checkout!.version).toBe(v1);
      expect(registry.pins?.checkout).toMatchObject({ version: v1, by: 'night-ops', reason: 'basket throws' });
      expect((await readHistory(storage)).at(-1)).toMatchObject({ action: 'rollback', from: v2, to: v1, reason: 'basket throws' });

      const before = await snapshot();
      const again = await refusal(rollback({ storage, part: 'checkout', provenance }));
      expect(again.code).toBe('rollback_needs_version');
      expect(await snapshot()).toEqual(before);
      // Named, it goes anywhere on the origin.
      expect((await rollback({ storage, part: 'checkout', to: v2, provenance })).version).toBe(v2);
    });

    it('keeps a pinned part where it is: deploys are refused, `deploy all --only-new` leaves it, an override or unpin frees it', async () => {
      const v1 = (await inForce())!;
      const bad = fakeAreaBuild('checkout', { marker: 'bad' });
      const v2 = (await deploy({ storage, part: 'checkout', distDir: bad, packageVersion: '1.0.0', provenance })).version;
      await rollback({ storage, part: 'checkout', provenance });
      const pinned = await snapshot();

      // A restart (npm start) releases the working tree's builds: the pinned part and the build rolled back from stay put.
      const restart = await deploySet({
        storage,
        provenance,
        onlyNew: true,
        parts: [{ part: 'checkout', distDir: bad, packageVersion: '1.0.0' }],
      });
      expect(restart[0]).toMatchObject({ changed: false, version: v2 });
      expect(restart[0]!.left).toContain(`pinned at ${v1}`);
      expect(await snapshot()).toEqual(pinned);

      const fixed = fakeAreaBuild('checkout', { marker: 'fixed' });
      expect((await refusal(deploy({ storage, part: 'checkout', distDir: fixed, packageVersion: '1.0.0', provenance }))).code).toBe(
        'pinned',
      );
      expect(await snapshot()).toEqual(pinned);

      await setPin({ storage, part: 'checkout', pinned: false, provenance });
      // Unpinned, a restart still does not bring back the build that was rolled back from …
      const unpinned = await deploySet({
        storage,
        provenance,
        onlyNew: true,
        parts: [{ part: 'checkout', distDir: bad, packageVersion: '1.0.0' }],
      });
      expect(unpinned[0]!.left).toContain('released before');
      expect(await inForce()).toBe(v1);
      // … but a new build moves.
      const v3 = (
        await deploySet({ storage, provenance, onlyNew: true, parts: [{ part: 'checkout', distDir: fixed, packageVersion: '1.0.0' }] })
      )[0]!;
      expect(v3).toMatchObject({ changed: true, from: v1 });

      await rollback({ storage, part: 'checkout', provenance });
      const override = await deployArea('checkout', { marker: 'override' }, { overridePin: true });
      expect(override.changed).toBe(true);
      expect((await readRegistry(storage)).pins?.checkout).toBeUndefined();
      const { parts } = await status(storage);
      expect(parts.find((part) => part.part === 'checkout')?.pin).toBeNull();
    });

    it('skips versions that were rolled back from', async () => {
      const v1 = (await inForce())!;
      const v2build = fakeAreaBuild('checkout', { marker: 'v2' });
      const v3build = fakeAreaBuild('checkout', { marker: 'v3' });
      await deploy({ storage, part: 'checkout', distDir: v2build, packageVersion: '1.0.0', provenance });
      const v3 = (await deploy({ storage, part: 'checkout', distDir: v3build, packageVersion: '1.0.0', provenance })).version;
      await rollback({ storage, part: 'checkout', provenance }); // v3 → v2
      await rollback({ storage, part: 'checkout', to: v1, provenance }); // v2 failed too → v1
      await setPin({ storage, part: 'checkout', pinned: false, provenance });
      await deploy({ storage, part: 'checkout', distDir: v3build, packageVersion: '1.0.0', provenance }); // v3, fixed elsewhere, again
      expect(await inForce()).toBe(v3);
      const { parts } = await status(storage);
      expect(parts.find((part) => part.part === 'checkout')!.rollback).toMatchObject({ version: v1, by: 'test' });
      expect((await rollback({ storage, part: 'checkout', provenance })).version).toBe(v1);
    });

    it('refuses an unknown version and a part with nothing to roll back to', async () => {
      const before = await snapshot();
      expect((await refusal(rollback({ storage, part: 'checkout', to: '9.9.9-0000000000', provenance }))).code).toBe('unknown_version');
      expect((await refusal(rollback({ storage, part: 'catalog', provenance }))).code).toBe('nothing_to_roll_back');
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('canary releases', () => {
    it('put a version in force for a share of shoppers, block other deploys of the area, and end by promote or abort', async () => {
      const stable = (await inForce())!;
      const canary = await deployArea('checkout', { marker: 'canary' }, { mode: { kind: 'canary', share: 10 } });
      let registry = await readRegistry(storage);
      expect(registry.areas.checkout!.version).toBe(stable);
      expect(registry.canaries?.checkout).toMatchObject({ version: canary.version, share: 10, by: 'test' });
      // Browsers get the canary and its share, not who started it.
      expect(publicRegistry(registry).canaries.checkout).toEqual(expect.not.objectContaining({ by: expect.anything() }));
      expect((await readHistory(storage)).at(-1)).toMatchObject({ action: 'canary', to: canary.version, share: 10 });
      expect((await refusal(deployArea('checkout', { marker: 'other' }))).code).toBe('canary_running');

      await finishCanary({ storage, area: 'checkout', outcome: 'promote', provenance });
      registry = await readRegistry(storage);
      expect(registry.areas.checkout!.version).toBe(canary.version);
      expect(registry.canaries?.checkout).toBeUndefined();

      const second = await deployArea('checkout', { marker: 'canary-2' }, { mode: { kind: 'canary', share: 50 } });
      await finishCanary({ storage, area: 'checkout', outcome: 'abort', provenance: { who: 'ops', reason: 'looks wrong' } });
      registry = await readRegistry(storage);
      expect(registry.areas.checkout!.version).toBe(canary.version);
      expect(registry.canaries?.checkout).toBeUndefined();
      expect((await readHistory(storage)).at(-1)).toMatchObject({
        action: 'abort',
        from: second.version,
        to: canary.version,
        reason: 'looks wrong',
      });
      expect((await refusal(finishCanary({ storage, area: 'checkout', outcome: 'abort', provenance }))).code).toBe('no_canary');
    });

    it('are judged on error rate over a minimum of page views', () => {
      const policy = { minViews: 20, margin: 0.05, intervalMs: 1000 };
      expect(canaryVerdict({ views: 100, errors: 0 }, { views: 19, errors: 19 }, policy)).toBeNull();
      expect(canaryVerdict({ views: 100, errors: 2 }, { views: 40, errors: 2 }, policy)).toBeNull();
      expect(canaryVerdict({ views: 100, errors: 0 }, { views: 20, errors: 10 }, policy)).toContain('50.0 %');
    });

    it('are aborted by the watchdog when their error rate exceeds the stable one, with the reason in the history', async () => {
      const stable = (await inForce())!;
      const canary = (await deployArea('checkout', { marker: 'throws' }, { mode: { kind: 'canary', share: 50 } })).version;
      let rows: VersionHealth[] = [
        { area: 'checkout', version: stable, views: 30, errors: 0 },
        { area: 'checkout', version: canary, views: 3, errors: 3 },
      ];
      const warnings: object[] = [];
      const watch = startCanaryWatch({
        storage,
        health: async () => rows,
        policy: { minViews: 5, margin: 0.05, intervalMs: 60_000 },
        log: { warn: (object) => warnings.push(object), error: () => undefined },
      });
      try {
        expect(await watch.check()).toEqual([]);
        rows = [rows[0]!, { area: 'checkout', version: canary, views: 6, errors: 6 }];
        expect(await watch.check()).toEqual(['checkout']);
      } finally {
        watch.stop();
      }
      expect((await readRegistry(storage)).canaries?.checkout).toBeUndefined();
      const last = (await readHistory(storage)).at(-1)!;
      expect(last).toMatchObject({ action: 'abort', who: 'canary-watch', from: canary, to: stable });
      expect(last.reason).toContain('automatic abort: client error rate 100.0 % over 6 page views');
      expect(warnings).toHaveLength(1);
    });
  });

  describe('preview', () => {
    it('publishes a version in force for nobody, which the preview host reads from the origin', async () => {
      const stable = (await inForce())!;
      const published = await deployArea('checkout', { marker: 'preview' }, { mode: { kind: 'publish' } });
      expect(await inForce()).toBe(stable);
      expect(await storage.exists(`remotes/checkout/${published.version}`)).toBe(true);
      expect((await readHistory(storage)).at(-1)).toMatchObject({ action: 'publish', to: published.version });

      // The preview host reads the published build from the origin (downloaded first from S3).
      const preview = { area: 'checkout' as const, version: published.version, expires: Date.now() + 60_000 };
      const shown = await previewedRegistry(storage, preview, publicRegistry(await readRegistry(storage)));
      expect(shown?.registry.areas.checkout).toMatchObject({
        version: published.version,
        entry: `remotes/checkout/${published.version}/remoteEntry.js`,
      });
    });
  });

  describe('uploads', () => {
    it('refuse unsafe paths', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'unpack-'));
      try {
        for (const path of ['../escape.js', '/etc/passwd', 'assets/../../x', 'a\\b']) {
          expect((await refusal(unpackBuild({ files: { [path]: 'eA==' } }, dir))).code).toBe('broken_build');
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('retention', () => {
    it('keeps the last N versions and never the one in force, its pin or its rollback target', async () => {
      const versions: string[] = [(await inForce())!];
      for (const marker of ['b', 'c', 'd', 'e']) versions.push((await deployArea('checkout', { marker }, { keep: 10 })).version);
      const removed = await prune(storage, 'checkout', 2);
      expect(removed.sort()).toEqual(versions.slice(0, 3).sort());
      expect((await storage.list('remotes/checkout')).sort()).toEqual(versions.slice(3).sort());
      const { parts } = await status(storage);
      expect(parts.find((part) => part.part === 'checkout')).toMatchObject({
        version: versions[4],
        versionsKept: versions.slice(3).sort(),
      });
    });
  });

  describe('a set of parts released together', () => {
    it('takes a kernel upgrade of the shell and an area at once, which neither order of single deploys can', async () => {
      const before = await snapshot();
      const area = fakeAreaBuild('checkout', { kernel: '1.1.0', exposes: ['./CartPage', './ContactPage'], marker: 'v11' });
      expect((await refusal(deploy({ storage, part: 'checkout', distDir: area, packageVersion: '1.1.0', provenance }))).code).toBe(
        'incompatible_kernel',
      );
      expect(await snapshot()).toEqual(before);

      const shell = fakeShellBuild({}, { kernel: '1.1.0' });
      const results = await deploySet({
        storage,
        provenance,
        parts: [
          { part: 'checkout', distDir: area, packageVersion: '1.1.0' },
          { part: 'shell', distDir: shell, packageVersion: '1.1.0' },
        ],
      });
      expect(results.every((result) => result.changed)).toBe(true);
      const registry = await readRegistry(storage);
      expect(registry.areas.checkout!.kernel).toBe('1.1.0');
      expect(registry.shell!.kernel).toBe('1.1.0');
      const moves = (await readHistory(storage)).slice(-2);
      expect(moves.map((move) => move.part).sort()).toEqual(['checkout', 'shell']);
      expect(moves[0]!.at).toBe(moves[1]!.at);
    });
  });
});

describe('the release command without a signing key', () => {
  it("refuses and makes no key, even for a new origin: only the owner's command makes the shop's key (and registers it)", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'release-no-key-'));
    const config = mkdtempSync(join(tmpdir(), 'release-no-key-owner-'));
    try {
      const dist = fakeAreaBuild('checkout', { marker: 'no-key' });
      const result = spawnSync(
        process.execPath,
        ['--import', 'tsx', '../release/src/cli.ts', 'deploy', 'checkout', '--dist', dist, '--init', '--no-wait'],
        {
          cwd: join(import.meta.dirname, '..'),
          encoding: 'utf8',
          env: {
            ...process.env,
            S3_BUCKET: '',
            DATA_DIR: dataDir,
            XDG_CONFIG_HOME: config,
            RELEASE_SIGNING_KEY: '',
            RELEASE_SIGNING_KEY_FILE: '',
            RELEASE_USER: 'team',
          },
        },
      );
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain('npm run credentials -- shop-key-create');
      expect(existsSync(join(dataDir, 'release-signing-key.pem'))).toBe(false);
      expect(existsSync(join(config, 'stavebniny'))).toBe(false);
      expect(existsSync(join(dataDir, 'origin', 'builds', 'requests'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(config, { recursive: true, force: true });
    }
  });
});
