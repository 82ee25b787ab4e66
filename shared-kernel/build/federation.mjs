// Build-time federation settings every part uses, so the shell and all areas
// agree on what is a shared singleton and which kernel contract they carry.
import { readFileSync } from 'node:fs';

const kernelPackage = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** The kernel version an area is built against: its contract. */
export const KERNEL_BUILD_VERSION = kernelPackage.version;

/**
 * Shared singletons: exactly one instance of each across the shell and every area.
 * The shell (host) loads first and provides them; an area's own copies are
 * fallbacks that are never fetched while the shell provides a compatible version.
 * The kernel is shared by its bare name only (no trailing slash, which would share
 * every subpath): '@shop/shared-kernel/rules' and '/react' are ordinary modules
 * each part bundles and tree-shakes.
 */
export function sharedSingletons() {
  const singleton = (requiredVersion) => ({ singleton: true, requiredVersion });
  return {
    react: singleton('^19.3.1'),
    'react/': singleton('^19.3.1'),
    'react-dom': singleton('^19.3.1'),
    'react-dom/': singleton('^19.3.1'),
    zustand: singleton('^5.1.0'),
    mitt: singleton('^3.0.1'),
    '@shop/shared-kernel': singleton(`^${KERNEL_BUILD_VERSION}`),
  };
}

/** Options common to the shell and the areas. */
export const federationDefaults = {
  dts: false,
  // One area that is down must not stop the shell from starting.
  shareStrategy: 'loaded-first',
};

/**
 * Emits `area.json` next to the remote entry: the facts a deploy checks
 * (area name, kernel contract, exposed modules, the pages the area ships)
 * without executing the build. The shell builds its route table from the
 * routes of the areas in force, so an area adds, changes or removes its
 * pages by deploying itself.
 */
export function areaMetaPlugin({ area, exposes, routes }) {
  return {
    name: 'shop-area-meta',
    apply: 'build',
    generateBundle() {
      for (const route of routes) {
        if (!(route.module in exposes)) this.error(`${area}: route ${route.name} needs ${route.module}, which the area does not expose`);
      }
      this.emitFile({
        type: 'asset',
        fileName: 'area.json',
        source: JSON.stringify(
          { area, kernel: KERNEL_BUILD_VERSION, exposes: Object.keys(exposes), entry: 'remoteEntry.js', routes },
          null,
          2,
        ),
      });
    },
  };
}

/**
 * The whole Vite config of an area. Plugin factories are passed in so the
 * kernel does not depend on build tools; every area builds the same way.
 */
export function areaViteConfig({ area, exposes, routes, devPort, react, federation }) {
  return {
    // Relative base: the build is published under any versioned path
    // (remotes/<area>/<version>/) and its chunks resolve against the entry's URL.
    base: './',
    plugins: [
      react(),
      federation({
        ...federationDefaults,
        name: area,
        filename: 'remoteEntry.js',
        manifest: true,
        exposes,
        shared: sharedSingletons(),
        // One federation runtime on the page: the shell's (it sets provideExternalRuntime).
        experiments: { externalRuntime: true },
      }),
      areaMetaPlugin({ area, exposes, routes }),
    ],
    build: { target: 'esnext', emptyOutDir: true },
    // Component tests (vitest) run in jsdom against the area's own sources.
    test: { environment: 'jsdom', include: ['src/**/*.test.{ts,tsx}'] },
    // `vite dev` in an area renders its pages standalone (src/dev-main.tsx)
    // against the API of a running `npm start`.
    server: {
      port: devPort,
      strictPort: true,
      origin: `http://localhost:${devPort}`,
      cors: true,
      proxy: { '/api': 'http://127.0.0.1:3000', '/media': 'http://127.0.0.1:3000' },
    },
    preview: { port: devPort, strictPort: true, cors: true },
  };
}
