import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deploy, prune, rollback, status } from '../src/release/releases.ts';
import { ReleaseRefused } from '../src/release/refusal.ts';
import { readHistory, readRegistry, REGISTRY_KEY, HISTORY_KEY } from '../src/release/registry.ts';
import { localDirectoryStorage, type ReleaseStorage } from '../src/release/storage.ts';
import { LOCK_KEY, withReleaseLock } from '../src/release/lock.ts';
import { fakeAreaBuild, fakeShellBuild } from './helpers/fake-builds.ts';

let origin: string;
let storage: ReleaseStorage;
const who = 'test';

async function deployArea(area: string, options: Parameters<typeof fakeAreaBuild>[1] = {}, extra: { budgetBytes?: number } = {}) {
  return deploy({ storage, part: area as 'checkout', distDir: fakeAreaBuild(area, options), packageVersion: '1.0.0', who, ...extra });
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
function snapshot() {
  const read = (key: string) => (existsSync(join(origin, key)) ? readFileSync(join(origin, key), 'utf8') : null);
  return { registry: read(REGISTRY_KEY), history: read(HISTORY_KEY) };
}

beforeEach(async () => {
  origin = mkdtempSync(join(tmpdir(), 'origin-'));
  storage = localDirectoryStorage(origin);
  await deployArea('checkout', { marker: 'v1' });
  await deploy({ storage, part: 'shell', distDir: fakeShellBuild({ checkout: ['./CartPage'] }), packageVersion: '1.0.0', who });
});
afterEach(() => rmSync(origin, { recursive: true, force: true }));

describe('deploy', () => {
  it('uploads to an immutable versioned path, moves the pointer and records who, when, from and to', async () => {
    const before = (await readRegistry(storage)).areas.checkout!.version;
    const result = await deployArea('checkout', { marker: 'v2' });
    expect(result.changed).toBe(true);
    expect(result.version).toMatch(/^1\.0\.0-[0-9a-f]{10}$/);
    expect(result.version).not.toBe(before);
    const registry = await readRegistry(storage);
    expect(registry.areas.checkout).toMatchObject({ version: result.version, entry: `remotes/checkout/${result.version}/remoteEntry.js`, kernel: '1.0.0' });
    expect(existsSync(join(origin, 'remotes', 'checkout', before))).toBe(true);
    const last = (await readHistory(storage)).at(-1)!;
    expect(last).toMatchObject({ part: 'checkout', action: 'deploy', from: before, to: result.version, who });
    expect(Date.parse(last.at)).not.toBeNaN();
  });

  it('gives the same build the same version and does not move the pointer again', async () => {
    const again = await deployArea('checkout', { marker: 'v1' });
    expect(again.changed).toBe(false);
    expect((await readHistory(storage)).filter((entry) => entry.part === 'checkout')).toHaveLength(1);
  });

  it('refuses an area built against a kernel contract the shell in force does not provide, changing nothing', async () => {
    const before = snapshot();
    const error = await refusal(deployArea('checkout', { kernel: '2.0.0', marker: 'v2' }));
    expect(error.code).toBe('incompatible_kernel');
    expect(error.message).toContain('kernel 2.0.0');
    expect(snapshot()).toEqual(before);
    expect(await storage.list('remotes/checkout')).toHaveLength(1);
  });

  it('refuses an area that lacks a module the shell route table needs', async () => {
    const before = snapshot();
    const error = await refusal(deployArea('checkout', { exposes: ['./OtherPage'], marker: 'v2' }));
    expect(error.code).toBe('missing_module');
    expect(error.message).toContain('./CartPage');
    expect(snapshot()).toEqual(before);
  });

  it('refuses a broken build (no manifest) and an area over its budget', async () => {
    const broken = fakeAreaBuild('checkout', { marker: 'v3' });
    writeFileSync(join(broken, 'mf-manifest.json'), '{ not json');
    const before = snapshot();
    expect((await refusal(deploy({ storage, part: 'checkout', distDir: broken, packageVersion: '1.0.0', who }))).code).toBe('broken_build');
    expect((await refusal(deployArea('checkout', { marker: 'v4', pageBytes: 20000 }, { budgetBytes: 50 }))).code).toBe('over_budget');
    expect(snapshot()).toEqual(before);
  });

  it('refuses a shell whose route table needs a module an area in force does not expose', async () => {
    const before = snapshot();
    const shell = fakeShellBuild({ checkout: ['./CartPage', './ContactPage'] });
    const error = await refusal(deploy({ storage, part: 'shell', distDir: shell, packageVersion: '1.0.0', who }));
    expect(error.code).toBe('missing_module');
    expect(snapshot()).toEqual(before);
  });

  it('refuses while another release holds the lock, changing nothing', async () => {
    const before = snapshot();
    writeFileSync(join(origin, LOCK_KEY), JSON.stringify({ pid: 1, host: 'elsewhere', since: new Date().toISOString(), what: 'deploy catalog' }));
    const error = await refusal(
      withReleaseLock(storage, 'deploy checkout', () => deployArea('checkout', { marker: 'v5' }), { waitMs: 200, pollMs: 50 }),
    );
    expect(error.code).toBe('lock_held');
    expect(error.message).toContain('deploy catalog');
    expect(snapshot()).toEqual(before);
  });
});

describe('two deploys of one area at once', () => {
  it('are serialised by the lock and leave a consistent registry and history', async () => {
    const start = (await readRegistry(storage)).areas.checkout!.version;
    const builds = [fakeAreaBuild('checkout', { marker: 'left' }), fakeAreaBuild('checkout', { marker: 'right' })];
    const run = (dist: string) =>
      new Promise<number>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/release/cli.ts', 'deploy', 'checkout', '--dist', dist, '--origin', origin], {
          cwd: join(import.meta.dirname, '..'),
          stdio: 'ignore',
        });
        child.on('exit', (code) => resolve(code ?? 1));
      });
    expect(await Promise.all(builds.map(run))).toEqual([0, 0]);

    const registry = await readRegistry(storage);
    const moves = (await readHistory(storage)).filter((entry) => entry.part === 'checkout');
    expect(moves).toHaveLength(3);
    const [, first, second] = moves;
    expect(first!.from).toBe(start);
    expect(second!.from).toBe(first!.to);
    expect(registry.areas.checkout!.version).toBe(second!.to);
    expect(new Set([first!.to, second!.to]).size).toBe(2);
    expect(existsSync(join(origin, LOCK_KEY))).toBe(false);
    for (const version of [first!.to, second!.to]) expect(existsSync(join(origin, 'remotes', 'checkout', version, 'remoteEntry.js'))).toBe(true);
  });
});

describe('rollback', () => {
  it('moves the pointer to the previous version without building, and to a named one', async () => {
    const v1 = (await readRegistry(storage)).areas.checkout!.version;
    const v2 = (await deployArea('checkout', { marker: 'v2' })).version;
    const back = await rollback({ storage, part: 'checkout', who });
    expect(back).toMatchObject({ from: v2, version: v1, changed: true });
    expect((await readRegistry(storage)).areas.checkout!.version).toBe(v1);
    expect((await readHistory(storage)).at(-1)).toMatchObject({ action: 'rollback', from: v2, to: v1 });
    const forward = await rollback({ storage, part: 'checkout', to: v2, who });
    expect(forward.version).toBe(v2);
  });

  it('refuses an unknown version and a part with nothing to roll back to', async () => {
    const before = snapshot();
    expect((await refusal(rollback({ storage, part: 'checkout', to: '9.9.9-0000000000', who }))).code).toBe('unknown_version');
    expect((await refusal(rollback({ storage, part: 'catalog', who }))).code).toBe('nothing_to_roll_back');
    expect(snapshot()).toEqual(before);
  });
});

describe('retention', () => {
  it('keeps the last N versions and never the one in force or the one before it', async () => {
    const versions: string[] = [(await readRegistry(storage)).areas.checkout!.version];
    for (const marker of ['b', 'c', 'd', 'e']) versions.push((await deploy({ storage, part: 'checkout', distDir: fakeAreaBuild('checkout', { marker }), packageVersion: '1.0.0', who, keep: 10 })).version);
    const removed = await prune(storage, 'checkout', 2);
    expect(removed.sort()).toEqual(versions.slice(0, 3).sort());
    expect((await storage.list('remotes/checkout')).sort()).toEqual(versions.slice(3).sort());
    const { parts } = await status(storage);
    expect(parts.find((part) => part.part === 'checkout')).toMatchObject({ version: versions[4], versionsKept: versions.slice(3).sort() });
  });
});

describe('a set of parts released together', () => {
  it('takes a kernel upgrade and a new route at once, which neither order of single deploys can', async () => {
    const { deploySet } = await import('../src/release/releases.ts');
    const before = snapshot();
    // Alone, the area (kernel 1.1.0, new page) is refused by the shell in force (kernel 1.0.0) …
    const area = fakeAreaBuild('checkout', { kernel: '1.1.0', exposes: ['./CartPage', './ContactPage'], marker: 'v11' });
    expect((await refusal(deploy({ storage, part: 'checkout', distDir: area, packageVersion: '1.1.0', who }))).code).toBe('incompatible_kernel');
    // … and the shell alone (needs ./ContactPage) by the area in force.
    const shell = fakeShellBuild({ checkout: ['./CartPage', './ContactPage'] }, { kernel: '1.1.0' });
    expect((await refusal(deploy({ storage, part: 'shell', distDir: shell, packageVersion: '1.1.0', who }))).code).toBe('missing_module');
    expect(snapshot()).toEqual(before);

    const results = await deploySet({
      storage,
      who,
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
