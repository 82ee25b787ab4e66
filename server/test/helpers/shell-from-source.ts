/**
 * The shell's server build as a test renders it from source: every area's pages and route data
 * imported straight from its folder, not through the federation runtime. The test file itself must
 * mock the shell's module source first (vi.mock is per file):
 *   vi.mock('../../shell/src/areas/module-source.ts', () => import('../../shell/src/areas/module-source.server.ts'));
 */
import { Writable } from 'node:stream';
import type { ReactElement } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
// eslint-disable-next-line no-restricted-imports -- the kernel version the areas are built against
import { KERNEL_VERSION } from '@shop/shared-kernel';
import type { AreaName, AreaRelease, AreaRoute } from '@shop/shared-kernel/contract';
import { createShellServer } from '../../../shell/src/server-entry.tsx';
import { routes as catalogRoutes, exposes as catalogExposes } from '../../../mf-catalog/vite.config.ts';
import { routes as contentRoutes, exposes as contentExposes } from '../../../mf-content/vite.config.ts';
import { routes as checkoutRoutes, exposes as checkoutExposes } from '../../../mf-checkout/vite.config.ts';
import { routes as accountRoutes, exposes as accountExposes } from '../../../mf-account/vite.config.ts';

/** Each area's routes and exposed modules, as its vite.config.ts declares them. */
export const areaSources: Record<AreaName, { routes: AreaRoute[]; exposes: Record<string, string> }> = {
  catalog: { routes: catalogRoutes, exposes: catalogExposes },
  content: { routes: contentRoutes, exposes: contentExposes },
  checkout: { routes: checkoutRoutes, exposes: checkoutExposes },
  account: { routes: accountRoutes, exposes: accountExposes },
};

/** The shell's server with every area released at 1.0.0, its modules and route data from source. */
export function shellFromSource() {
  const releases = Object.fromEntries(
    Object.entries(areaSources).map(([area, { routes, exposes }]) => [
      area,
      { version: '1.0.0', entry: `remotes/${area}/1.0.0/remoteEntry.js`, kernel: KERNEL_VERSION, exposes: Object.keys(exposes), routes },
    ]),
  ) as Partial<Record<AreaName, AreaRelease>>;
  return createShellServer({
    releases,
    assetOrigin: 'http://assets.test',
    // An area's server build: its exposed modules and its route data (src/route-data.ts).
    loadModule: async (key) => {
      const [area, name] = key.split('/') as [AreaName, string];
      const file = name === 'routeData' ? './src/route-data.ts' : areaSources[area]?.exposes[`./${name}`];
      return file ? import(new URL(`../../../mf-${area}/${file}`, import.meta.url).href) : null;
    },
  });
}

/** The configuration a page embeds, as the server gives it (no registry, no telemetry). */
export const pageConfig = {
  assetOrigin: 'http://assets.test',
  gtmId: null,
  registryPollMs: 60_000,
  registry: null,
  telemetrySample: 0,
  preview: null,
};

/** The page's HTML once all of it is ready, as the server renders it. */
export function renderAll(element: ReactElement): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        html += chunk.toString();
        done();
      },
      final(done) {
        resolve(html);
        done();
      },
    });
    const stream = renderToPipeableStream(element, { onAllReady: () => stream.pipe(sink), onShellError: reject });
  });
}
