/**
 * The React each part was built with, checked at release: an area the shell in force cannot serve
 * with its one shared React is refused, and so is a shell that would break an area in force; the
 * message names both versions and nothing changes. Real deploys on a local origin.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ReleaseRefused } from '../src/refusal.ts';
import { deploy, deploySet } from '../src/deploy.ts';
import { HISTORY_KEY, readRegistry, REGISTRY_KEY } from '../src/registry.ts';
import { isReactCompatible } from '../src/shared-versions.ts';
import { localDirectoryStorage, type ReleaseStorage } from '../src/storage.ts';
import { fakeAreaBuild, tempDir } from './support/index.ts';

/** A checkout build recording the React it was built with. */
const checkoutBuild = (react: string | undefined, marker = react ?? 'none') => fakeAreaBuild('checkout', { marker, react });

function shellBuild(react: string | undefined): string {
  const dir = tempDir('build-shell-');
  writeFileSync(join(dir, 'index.html'), `<!doctype html><title>shop ${react ?? ''}</title>`);
  writeFileSync(join(dir, 'routes.json'), JSON.stringify({ kernel: '1.0.0', react, requires: {} }));
  return dir;
}

const provenance = { who: 'test' };
let storage: ReleaseStorage;

const deployShell = (react: string | undefined, extra: Partial<Parameters<typeof deploy>[0]> = {}) =>
  deploy({ storage, part: 'shell', distDir: shellBuild(react), packageVersion: '1.0.0', provenance, ...extra });
const deployCheckout = (react: string | undefined, extra: Partial<Parameters<typeof deploy>[0]> = {}) =>
  deploy({ storage, part: 'checkout', distDir: checkoutBuild(react), packageVersion: '1.0.0', provenance, ...extra });

async function refusal(promise: Promise<unknown>): Promise<ReleaseRefused> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ReleaseRefused);
  return error as ReleaseRefused;
}

const snapshot = async () => ({ registry: await storage.readText(REGISTRY_KEY), history: await storage.readText(HISTORY_KEY) });

beforeEach(() => {
  storage = localDirectoryStorage(tempDir('origin-'));
});

describe('React checked at release', () => {
  it('refuses an area built with React 18.3.1 under a shell providing 19.3.1, naming both, and changes nothing', async () => {
    await deployShell('19.3.1', { init: true });
    const before = await snapshot();
    const error = await refusal(deployCheckout('18.3.1'));
    expect(error.code).toBe('incompatible_react');
    expect(error.message).toContain('React 18.3.1');
    expect(error.message).toContain('React 19.3.1');
    expect(error.message).toContain('checkout');
    expect(await snapshot()).toEqual(before);
    expect(await storage.exists('remotes/checkout')).toBe(false);
  });

  it('refuses an area built with a newer minor than the shell provides, also as a canary', async () => {
    await deployShell('19.2.0', { init: true });
    expect((await refusal(deployCheckout('19.3.1'))).code).toBe('incompatible_react');
    expect((await refusal(deployCheckout('19.3.1', { mode: { kind: 'canary', share: 10 } }))).code).toBe('incompatible_react');
  });

  it('releases an area whose React the shell serves: the same version, an older minor or patch', async () => {
    await deployShell('19.3.1', { init: true });
    for (const react of ['19.3.1', '19.3.0', '19.0.0']) {
      const result = await deployCheckout(react);
      expect(result.changed).toBe(true);
      expect((await readRegistry(storage)).areas.checkout?.version).toBe(result.version);
    }
  });

  it('refuses a shell whose React would break an area in force, naming both versions, and changes nothing', async () => {
    await deployShell('19.3.1', { init: true });
    await deployCheckout('19.3.1');
    const before = await snapshot();
    for (const react of ['18.3.1', '20.0.0', '19.2.5']) {
      const error = await refusal(deployShell(react));
      expect(error.code).toBe('incompatible_react');
      expect(error.message).toContain(`React ${react}`);
      expect(error.message).toContain('React 19.3.1');
      expect(error.message).toContain('checkout');
    }
    expect(await snapshot()).toEqual(before);
    expect((await deployShell('19.4.0')).changed).toBe(true);
  });

  it('refuses a shell under which a running canary would break', async () => {
    await deployShell('19.3.1', { init: true });
    await deployCheckout('19.0.0');
    await deployCheckout('19.3.1', { mode: { kind: 'canary', share: 10 } });
    const error = await refusal(deployShell('19.2.0'));
    expect(error.code).toBe('incompatible_react');
    expect(error.message).toContain('checkout in a canary was built with React 19.3.1');
  });

  it('takes a React upgrade of the shell and an area released together', async () => {
    await deployShell('18.3.1', { init: true });
    await deployCheckout('18.3.1');
    expect((await refusal(deployShell('19.3.1'))).code).toBe('incompatible_react');
    const results = await deploySet({
      storage,
      provenance,
      parts: [
        { part: 'checkout', distDir: checkoutBuild('19.3.1'), packageVersion: '1.0.0' },
        { part: 'shell', distDir: shellBuild('19.3.1'), packageVersion: '1.0.0' },
      ],
    });
    expect(results.every((result) => result.changed)).toBe(true);
  });

  it('leaves a part built before builds recorded their React unchecked, and refuses a record that is not a version', async () => {
    await deployShell(undefined, { init: true });
    expect((await deployCheckout('18.3.1')).changed).toBe(true);
    // The area in force records its React now, so a shell is checked against it.
    expect((await refusal(deployShell('19.3.1'))).code).toBe('incompatible_react');
    expect((await deployCheckout(undefined)).changed).toBe(true);
    expect((await deployShell('19.3.1')).changed).toBe(true);
    const broken = await refusal(
      deploy({ storage, part: 'checkout', distDir: checkoutBuild('<script>', 'x'), packageVersion: '1.0.0', provenance }),
    );
    expect(broken.code).toBe('broken_build');
  });
});

describe('isReactCompatible', () => {
  it('needs the same major and the shell at least at the area’s minor', () => {
    expect(isReactCompatible('19.3.1', '19.3.1')).toBe(true);
    expect(isReactCompatible('19.3.0', '19.3.1')).toBe(true);
    expect(isReactCompatible('19.10.0', '19.9.0')).toBe(true);
    expect(isReactCompatible('19.2.0', '19.3.0')).toBe(false);
    expect(isReactCompatible('19.3.1', '18.3.1')).toBe(false);
    expect(isReactCompatible('20.0.0', '19.3.1')).toBe(false);
    expect(isReactCompatible('19.3.1-rc.1', '19.3.0')).toBe(true);
    expect(isReactCompatible('19', '19.0.0')).toBe(false);
    expect(isReactCompatible('latest', '19.0.0')).toBe(false);
  });
});
