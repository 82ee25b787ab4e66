import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { areaPreloadLinks, matchRoute, type ShellRoute } from '../../src/web/route-preload.ts';
import { emptyRegistry, localDirectoryStorage } from '@shop/release';

const routes: ShellRoute[] = [
  { path: '/', area: 'catalog', module: './HomePage' },
  { path: '/s/:site', area: 'content', module: './StaticPage' },
  { path: '/s/kontakt', area: 'content', module: './ContactPage' },
  { path: '/p/:product', area: 'catalog', module: './ProductPage' },
];

describe('matchRoute', () => {
  it('prefers static segments over parameters, as the router does', () => {
    expect(matchRoute(routes, '/s/kontakt')?.module).toBe('./ContactPage');
    expect(matchRoute(routes, '/s/obchodne-podmienky')?.module).toBe('./StaticPage');
    expect(matchRoute(routes, '/')?.module).toBe('./HomePage');
    expect(matchRoute(routes, '/p/tehla')?.module).toBe('./ProductPage');
    expect(matchRoute(routes, '/p/tehla/navyse')).toBeNull();
    expect(matchRoute(routes, '/neznama')).toBeNull();
  });
});

describe('areaPreloadLinks', () => {
  it('names the area entry and the exposed page chunks of the requested route', async () => {
    const originDir = mkdtempSync(join(tmpdir(), 'preload-'));
    const storage = localDirectoryStorage(originDir);
    const dir = join(originDir, 'remotes', 'catalog', '1.0.0-abc');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'mf-manifest.json'),
      JSON.stringify({ exposes: [{ name: 'ProductPage', assets: { js: { sync: ['assets/product-page-1.js'] } } }] }),
    );
    const catalog = { version: '1.0.0-abc', entry: 'remotes/catalog/1.0.0-abc/remoteEntry.js', kernel: '1.0.0', exposes: [], routes: [] };
    const registry = { ...emptyRegistry(), areas: { catalog }, canaries: {} };
    const links = await areaPreloadLinks({ storage, registry, routes, pathname: '/p/tehla', assetOrigin: 'https://cdn.example' });
    expect(links).toContain('<link rel="preconnect" href="https://cdn.example" crossorigin>');
    const listed = (html: string) =>
      JSON.parse(/<script type="application\/json" id="shop-boot-preload">([^<]*)<\/script>/.exec(html)?.[1] ?? '[]') as string[];
    expect(listed(links)).toEqual([
      'https://cdn.example/remotes/catalog/1.0.0-abc/remoteEntry.js',
      'https://cdn.example/remotes/catalog/1.0.0-abc/assets/product-page-1.js',
    ]);
    expect(listed(await areaPreloadLinks({ storage, registry, routes, pathname: '/neznama', assetOrigin: 'https://cdn.example' }))).toEqual(
      [],
    );
    // With a canary of the area running, the browser's own bucket decides the version: nothing is preloaded.
    const withCanary = { ...registry, canaries: { catalog: { ...catalog, version: '1.0.1-def', share: 10 } } };
    expect(
      listed(await areaPreloadLinks({ storage, registry: withCanary, routes, pathname: '/p/tehla', assetOrigin: 'https://cdn.example' })),
    ).toEqual([]);
    rmSync(originDir, { recursive: true, force: true });
  });
});
