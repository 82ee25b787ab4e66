/**
 * Deploys, on the local directory and on S3 (a real local S3-compatible server, s3rver): a build is
 * checked (kernel contract, routes, manifest, budget), uploaded to its immutable versioned path and
 * put in force, alone or with other parts in one move; a refused one changes nothing; the release
 * lock serialises deploys and breaks a stale lock; an upload's unsafe paths are refused. Every test
 * runs against both storages but the last: the release command refuses to run without a signing key.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  deploy,
  deploySet,
  rollback,
  readHistory,
  readRegistry,
  REGISTRY_KEY,
  type ReleaseStorage,
  LOCK_KEY,
  readLock,
  withReleaseLock,
  unpackBuild,
} from '../src/index.ts';
import { fakeAreaBuild, fakeShellBuild, provenance, refusal, releaseBench } from './support/index.ts';

let storage: ReleaseStorage;
const { onEveryBackend, deployArea, snapshot, inForce } = releaseBench((seeded) => (storage = seeded));

onEveryBackend((backend) => {
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
