// Build-time federation settings every part uses, so the shell and all areas
// agree on what is a shared singleton and which kernel contract they carry.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';

const kernelPackage = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** The kernel version an area is built against: its contract. */
export const KERNEL_BUILD_VERSION = kernelPackage.version;

/**
 * The React version a part is built with: the react package its build resolves from `root`, not a
 * range from its package.json. Recorded in area.json / routes.json, so a release can refuse an area
 * the shell in force cannot serve with its one shared React (release/src/shared-versions.ts).
 */
export function resolvedReactVersion(root = process.cwd()) {
  const file = createRequire(resolve(root, 'package.json')).resolve('react/package.json');
  return JSON.parse(readFileSync(file, 'utf8')).version;
}

/**
 * Shared singletons: exactly one instance of each across the shell and every area.
 * The shell (host) loads first and provides them; an area's own copies are
 * fallbacks that are never fetched while the shell provides a compatible version.
 * The kernel is shared by its bare name only (no trailing slash, which would share
 * every subpath): '@shop/shared-kernel/rules' and '/react' are ordinary modules
 * each part bundles and tree-shakes.
 *
 * Only what more than one part imports is shared; every share costs each part a generated
 * wrapper (a script request and its share-cache code) at every page load. zustand and mitt are
 * imported by the kernel's singleton alone, so they live in its chunk and are single through it.
 * react-dom is the shell's alone: it renders every area's page in its one root, and an area's
 * page that imported react-dom would get a second, unconnected copy, so an area build refuses
 * it (areaMetaPlugin). The JSX runtime is bundled by each part (federationTrims).
 */
export function sharedSingletons({ provider = false } = {}) {
  // The provider (the shell) checks no range: its own copies are the versions in force, and
  // the federation runtime's check of each (a semver parse per shared module at every page
  // load) ran in the shell's first long task on a phone's main thread (figures:
  // tools/bench/results.md). An area's ranges stay, and the release refuses an area whose
  // kernel contract the shell does not meet.
  const singleton = (requiredVersion) => ({ singleton: true, requiredVersion: provider ? false : requiredVersion });
  return {
    react: singleton('^19.3.1'),
    '@shop/shared-kernel': singleton(`^${KERNEL_BUILD_VERSION}`),
  };
}

/**
 * What a server build leaves out: the packages the shop's server provides as its own single
 * copies (the same ones the browser shares), so a page rendered on the server runs on the
 * server's React and kernel. '@shop/shared-kernel/rules' and '/react' are bundled, as in the browser.
 */
export const SERVER_SHARED = ['react', 'react-dom', 'zustand', 'mitt', '@shop/shared-kernel'];
const isServerShared = (id) => SERVER_SHARED.some((name) => id === name || (name !== '@shop/shared-kernel' && id.startsWith(`${name}/`)));

/** Where a part's server build goes inside its build: released together, so both are one version. */
export const SERVER_BUILD_DIR = 'server';
export const SERVER_ENTRY_FILE = 'entry.cjs';

/**
 * Builds the part's server entry right after its browser build, into `server/entry.cjs` of the
 * same output: one CommonJS file (the shop's server evaluates it with its own `require` for the
 * shared packages above), with every other import bundled. Either `entry` (a file of the part)
 * or `source` (the code of a generated entry) names what it exports; `replace` swaps modules
 * the server must not run (e.g. the federation runtime) for their server versions.
 */
export function serverBuildPlugin({ viteBuild, react, entry, source, replace = {} }) {
  let root = '';
  let outDir = '';
  let isServerBuild = false;
  const ENTRY_ID = 'virtual:shop-server-entry';
  const VIRTUAL = '\0shop-server-entry';
  return {
    name: 'shop-server-build',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
      isServerBuild = Boolean(config.build.ssr);
    },
    async closeBundle() {
      if (isServerBuild) return;
      const replaced = Object.entries(replace).map(([from, to]) => [resolve(root, from), resolve(root, to)]);
      await viteBuild({
        configFile: false,
        root,
        mode: 'production',
        logLevel: 'warn',
        plugins: [
          react(),
          {
            name: 'shop-server-entry',
            enforce: 'pre',
            resolveId(id) {
              return source && (id === ENTRY_ID || id.endsWith(`/${ENTRY_ID}`)) ? VIRTUAL : null;
            },
            load(id) {
              return id === VIRTUAL ? source : null;
            },
          },
          {
            name: 'shop-server-replacements',
            enforce: 'pre',
            async resolveId(id, importer) {
              if (!importer || replaced.length === 0 || id.startsWith('\0')) return null;
              const resolved = await this.resolve(id, importer, { skipSelf: true });
              const swap = resolved && replaced.find(([from]) => from === resolved.id);
              return swap ? swap[1] : null;
            },
          },
        ],
        build: {
          ssr: entry ?? ENTRY_ID,
          outDir: resolve(outDir, SERVER_BUILD_DIR),
          emptyOutDir: true,
          copyPublicDir: false,
          target: 'node20',
          minify: false,
          rollupOptions: {
            external: isServerShared,
            output: { format: 'cjs', entryFileNames: SERVER_ENTRY_FILE, codeSplitting: false },
          },
        },
        ssr: { noExternal: true, target: 'node' },
      });
    },
  };
}

/** Where an area declares the data of its server-rendered routes (the contract's AreaRouteData, exported as `routeData`). */
export const ROUTE_DATA_FILE = 'src/route-data.ts';

/**
 * What an area's browser build exposes: its pages, and its route data (module './routeData') when
 * it has one, which the shell loads to warm a page's data when a shopper shows intent to open it.
 */
export function browserExposes(exposes, root) {
  const routeData = resolve(root, ROUTE_DATA_FILE);
  return existsSync(routeData) ? { ...exposes, './routeData': `./${ROUTE_DATA_FILE}` } : exposes;
}

/**
 * The generated server entry of an area: its exposed modules, loaded on demand by name, and its
 * route data as module './routeData' (server only: the browser's pages ask for the same keys themselves).
 */
export function areaServerEntry(area, exposes, root) {
  const routeData = resolve(root, ROUTE_DATA_FILE);
  const modules = { ...exposes, ...(existsSync(routeData) ? { './routeData': routeData } : {}) };
  const lines = Object.entries(modules).map(
    ([name, file]) => `  ${JSON.stringify(name)}: () => import(${JSON.stringify(resolve(root, file))}),`,
  );
  return `export const area = ${JSON.stringify(area)};\nexport const modules = {\n${lines.join('\n')}\n};\n`;
}

/**
 * The name a part's browser build compiles JSX against (`react({ jsxImportSource })`): the
 * federation plugin shares the JSX runtime named in the config as a subpath of the shared react,
 * and this name is no such subpath. federationTrims resolves it to React's own JSX runtime.
 */
export const BROWSER_JSX_SOURCE = '@shop/react-jsx';

/**
 * What the browser build of every part leaves out of the federation's share, placed before the
 * federation plugin:
 * - the JSX runtime (BROWSER_JSX_SOURCE): React 19's production JSX runtime only builds element
 *   objects and imports nothing from React, so a copy per part is correct, and smaller than the
 *   share wrapper and fallback each part loaded for it;
 * - the federation runtime's whole package.json, which its plugin that hands the shell's runtime
 *   to the areas imports for its version alone.
 */
export function federationTrims({ root = process.cwd() } = {}) {
  // The production build itself, not the package's entry: the federation plugin takes an import
  // that resolves to a shared package's entry for the share, whatever its name.
  const jsxRuntime = resolve(
    dirname(createRequire(resolve(root, 'package.json')).resolve('react/jsx-runtime')),
    'cjs/react-jsx-runtime.production.js',
  );
  const RUNTIME_PACKAGE = '@module-federation/runtime/package.json';
  const RUNTIME_VERSION = '\0shop-federation-runtime-version';
  let runtimeVersion = '';
  let isBrowserBuild = false;
  return {
    name: 'shop-federation-trims',
    enforce: 'pre',
    configResolved(config) {
      isBrowserBuild = config.command === 'build' && !config.build.ssr;
    },
    async resolveId(id, importer) {
      // Dev server and component tests: React's own JSX runtimes, as without this plugin.
      if (!isBrowserBuild && id.startsWith(`${BROWSER_JSX_SOURCE}/`)) {
        return this.resolve(`react/${id.slice(BROWSER_JSX_SOURCE.length + 1)}`, importer, { skipSelf: true });
      }
      if (!isBrowserBuild) return null;
      if (id === `${BROWSER_JSX_SOURCE}/jsx-runtime`) return jsxRuntime;
      if (id !== RUNTIME_PACKAGE) return null;
      const resolved = await this.resolve(id, importer, { skipSelf: true });
      if (!resolved) return null;
      runtimeVersion = JSON.parse(readFileSync(resolved.id, 'utf8')).version;
      return RUNTIME_VERSION;
    },
    load(id) {
      return id === RUNTIME_VERSION ? `export default { version: ${JSON.stringify(runtimeVersion)} };` : null;
    },
  };
}

/** Options common to the shell and the areas. */
export const federationDefaults = {
  dts: false,
  // One area that is down must not stop the shell from starting.
  shareStrategy: 'loaded-first',
  // Areas are registered by their remoteEntry.js (registry), never by a manifest: the runtime's
  // snapshot plugins (manifest snapshots, asset preloading from them) are left out of the bundle.
  disableSnapshot: true,
  // Said outright (the shell loads areas and provides the shared singletons): the runtime's
  // stand-ins for a build without remotes or without sharing are then left out of its bundle.
  disableRemote: false,
  disableShared: false,
};

/**
 * Every file the browser loads before an exposed module runs: the remote entry's static imports
 * and the module's chunk with all it imports statically, as the bundle says (the federation
 * manifest lists the module's inner chunk but not the chunk the entry loads, and counts the
 * shared-module loader among the lazy ones). The shop's server lists them with the page for the
 * shell's loader (BOOT_PRELOAD_ID), so none is discovered late.
 */
function preloadOf(bundle, exposes) {
  const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
  const closure = (start) => {
    const seen = new Set();
    const visit = (fileName) => {
      if (seen.has(fileName)) return;
      seen.add(fileName);
      for (const imported of bundle[fileName]?.imports ?? []) visit(imported);
    };
    visit(start);
    return seen;
  };
  const entry = chunks.find((chunk) => chunk.fileName === 'remoteEntry.js');
  const preload = {};
  for (const [name, source] of Object.entries(exposes)) {
    const path = String(source).replace(/^\.\//, '/');
    const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(path));
    if (!chunk) continue;
    const files = new Set([...(entry ? closure(entry.fileName) : []), ...closure(chunk.fileName)]);
    files.delete('remoteEntry.js');
    preload[name] = [...files].sort();
  }
  return preload;
}

/** Packages the shell alone may bundle (see sharedSingletons): an area's copy would be a second, unconnected one. */
const SHELL_ONLY_PACKAGES = ['react-dom'];

/** The shell-only packages an exposed module of the area would load (its chunks and what they import, dynamic imports too). */
function shellOnlyImports(bundle, exposes) {
  const seen = new Set();
  const visit = (fileName) => {
    const chunk = bundle[fileName];
    if (seen.has(fileName) || chunk?.type !== 'chunk') return;
    seen.add(fileName);
    for (const imported of [...chunk.imports, ...chunk.dynamicImports]) visit(imported);
  };
  for (const chunk of Object.values(bundle)) {
    const exposed = Object.values(exposes).some((source) => chunk.facadeModuleId?.endsWith(String(source).replace(/^\.\//, '/')));
    if (chunk.type === 'chunk' && exposed) visit(chunk.fileName);
  }
  const found = new Set();
  for (const fileName of seen) {
    for (const id of bundle[fileName].moduleIds) {
      const name = SHELL_ONLY_PACKAGES.find((pkg) => id.includes(`/node_modules/${pkg}/`));
      if (name) found.add(name);
    }
  }
  return [...found];
}

/**
 * Emits `area.json` next to the remote entry: the facts a deploy checks
 * (area name, kernel contract, exposed modules, the pages the area ships)
 * without executing the build. The shell builds its route table from the
 * routes of the areas in force, so an area adds, changes or removes its
 * pages by deploying itself.
 */
export function areaMetaPlugin({ area, exposes, routes, root = process.cwd() }) {
  return {
    name: 'shop-area-meta',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const route of routes) {
        if (!(route.module in exposes)) this.error(`${area}: route ${route.name} needs ${route.module}, which the area does not expose`);
      }
      const shellOnly = shellOnlyImports(bundle, exposes);
      if (shellOnly.length > 0)
        this.error(`${area}: its pages import ${shellOnly.join(', ')}, which only the shell may bundle (one copy per page)`);
      this.emitFile({
        type: 'asset',
        fileName: 'area.json',
        source: JSON.stringify(
          {
            area,
            kernel: KERNEL_BUILD_VERSION,
            react: resolvedReactVersion(root),
            exposes: Object.keys(exposes),
            entry: 'remoteEntry.js',
            routes,
            preload: preloadOf(bundle, exposes),
          },
          null,
          2,
        ),
      });
    },
  };
}

/** The area's and the kernel's bundled code (not the kernel's singleton, the area's fallback copy never loaded while the shell provides it). */
const isPartCode = (id) =>
  !id.includes('\0') && !id.includes('/node_modules/') && !id.includes('__mf') && !id.includes('/shared-kernel/src/singleton/');

/**
 * The area's own code that more than one of its pages uses, in one chunk (`<area>-common`), unless
 * the area names a group for it (code only some pages use, e.g. the catalog's listing): split by
 * which pages share it, it made several chunks of about a kilobyte, each a script request.
 */
function areaCodeChunks(area, chunkGroups = []) {
  // The common chunk is taken first, with what its modules import (which the bundler keeps with
  // them), so a group's chunk holds only what the pages that use it need beyond the common code.
  const grouped = (id) => chunkGroups.some((group) => group.test.test(id));
  return [
    { name: `${area}-common`, priority: 1, minShareCount: 2, test: (id) => isPartCode(id) && !grouped(id) },
    ...chunkGroups.map((group) => ({ name: `${area}-${group.name}`, priority: 0, test: (id) => isPartCode(id) && group.test.test(id) })),
  ];
}

/**
 * Fails the build when a named group got no chunk: its test matches no module (a folder moved or
 * renamed), so the code it should keep apart would silently land where every page loads it.
 */
function chunkGroupsPresent(area, chunkGroups) {
  return {
    name: 'shop-chunk-groups-present',
    generateBundle(_options, bundle) {
      const names = new Set(Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [file.name] : [])));
      for (const group of chunkGroups) {
        if (!names.has(`${area}-${group.name}`)) this.error(`Chunk group "${group.name}" (${group.test}) matched no module of ${area}.`);
      }
    },
  };
}

/**
 * The whole Vite config of an area. Plugin factories are passed in so the
 * kernel does not depend on build tools; every area builds the same way.
 */
export function areaViteConfig({ area, exposes, routes, devPort, react, federation, viteBuild, root = process.cwd(), chunkGroups = [] }) {
  return {
    // Relative base: the build is published under any versioned path
    // (remotes/<area>/<version>/) and its chunks resolve against the entry's URL.
    base: './',
    plugins: [
      react({ jsxImportSource: BROWSER_JSX_SOURCE }),
      federationTrims({ root }),
      federation({
        ...federationDefaults,
        name: area,
        filename: 'remoteEntry.js',
        manifest: true,
        exposes: browserExposes(exposes, root),
        shared: sharedSingletons(),
        // One federation runtime on the page: the shell's (it sets provideExternalRuntime).
        experiments: { externalRuntime: true },
      }),
      areaMetaPlugin({ area, exposes, routes, root }),
      chunkGroupsPresent(area, chunkGroups),
      // The same pages for the shop's server (first view of public pages, rendered at the version in force).
      serverBuildPlugin({ viteBuild, react, source: areaServerEntry(area, exposes, root) }),
    ],
    build: {
      target: 'esnext',
      emptyOutDir: true,
      // Source maps beside each file, with no sourceMappingURL comment: they are released (listed in the
      // signed manifest) and read by the shop's server to map a client error's stack, never sent to browsers.
      sourcemap: 'hidden',
      // The federation plugin emits remoteEntry.js itself. The standalone harness (index.html,
      // src/dev-main.tsx) is for `vite dev` only: built, it imported every page statically and so
      // split each page into a facade and a body chunk, a script request more per page.
      rolldownOptions: {
        input: {},
        output: { codeSplitting: { groups: areaCodeChunks(area, chunkGroups) } },
      },
    },
    // Component tests (vitest) run in jsdom against the area's own sources.
    test: { environment: 'jsdom', isolate: false, include: ['src/**/*.test.{ts,tsx}'] },
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
