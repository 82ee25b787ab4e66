/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import { federation } from '@module-federation/vite';
import {
  BROWSER_JSX_SOURCE,
  federationDefaults,
  federationTrims,
  KERNEL_BUILD_VERSION,
  resolvedReactVersion,
  serverBuildPlugin,
  sharedSingletons,
} from '@shop/shared-kernel/federation';
// By path, at build time only: Vite's config loader bundles relative files but leaves workspace packages
// (TypeScript sources) to Node, which cannot load them. The kernel's '/rules' exports the same constant.
// eslint-disable-next-line no-restricted-imports
import { BOOT_PRELOAD_ID } from '../shared-kernel/src/rules/boot-preload.ts';
// eslint-disable-next-line no-restricted-imports -- the layouts the shell offers are the contract's list
import { LAYOUTS } from '../shared-kernel/src/contract/parts.ts';

/**
 * Emits routes.json: the kernel and the React this shell provides and the layouts it has.
 * The areas own their routes (each area's area.json); a release checks them
 * against this shell's kernel and layouts.
 */
function shellFacts(): Plugin {
  return {
    name: 'shop-shell-facts',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'routes.json',
        source: JSON.stringify(
          {
            kernel: KERNEL_BUILD_VERSION,
            react: resolvedReactVersion(fileURLToPath(new URL('.', import.meta.url))),
            requires: {},
            layouts: LAYOUTS,
          },
          null,
          2,
        ),
      });
    },
  };
}

/**
 * Every chunk of the shell but split-off pages is needed to show the first page (the shared
 * singletons are loaded by the federation runtime through dynamic imports the
 * browser cannot see in advance): preload them all from index.html, so they
 * download in parallel instead of one round trip after another.
 */
function preloadBootChunks(): Plugin {
  return {
    name: 'shop-preload-boot-chunks',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const srcDir = fileURLToPath(new URL('./src/', import.meta.url));
        // Pages the shell splits off on purpose (the ops console) load when visited, not at boot.
        const splitOff = (chunk: { isDynamicEntry: boolean; facadeModuleId: string | null }) =>
          chunk.isDynamicEntry && (chunk.facadeModuleId?.startsWith(srcDir) ?? false);
        const chunks = Object.values(context.bundle ?? {}).filter((item) => item.type === 'chunk' && !item.isEntry && !splitOff(item));
        const missing = chunks.map((chunk) => `/${chunk.fileName}`).filter((href) => !html.includes(`"${href}"`));
        return missing.map((href) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/**
 * The boot starts once the browser has painted the page and parsed the whole document (a streamed
 * page is complete before hydration starts). index.html's module entry and its modulepreload links
 * become an inline loader that asks for the shell's scripts, largest first, with the page's area
 * chunks the server listed (BOOT_PRELOAD_ID), then imports the entry at the first contentful paint
 * (1.5 s at the latest where paint timing is not reported). The scripts too are asked for at that
 * paint, on every page: asked from the head, they had the basket's lines usable about 150 ms sooner
 * on a slow line, but Lighthouse's simulated LCP of the pages without a first-view picture (home,
 * basket) went from under 0.9 s to about 2 s, past the budgets of issues 17 and 43
 * (tools/bench/results.md, notebook). The whole boot (React, the kernel, the areas, hydration)
 * never runs before the first frame.
 */
function bootAfterFirstPaint(entry: string, shellScripts: string[]): string {
  return [
    `const entry=${JSON.stringify(entry)},shell=${JSON.stringify(shellScripts)};`,
    "let asked=false,linked=false,painted=false,parsed=document.readyState!=='loading',started=false;",
    'const go=()=>{if(started||!linked||!painted||!parsed)return;started=true;import(entry)};',
    'const ask=()=>{if(asked)return;asked=true;',
    `const area=JSON.parse(document.getElementById(${JSON.stringify(BOOT_PRELOAD_ID)})?.textContent||'[]');`,
    // A few links per task: each request costs the main thread about a millisecond (four on a
    // phone), and some thirty of them in one task were the page's longest task after its first paint.
    'const hrefs=[...shell,...area];',
    "const next=()=>{for(const href of hrefs.splice(0,4)){const link=document.createElement('link');link.rel='modulepreload';link.crossOrigin='anonymous';link.href=href;document.head.append(link)}",
    'if(hrefs.length>0)setTimeout(next);else{linked=true;go()}};next()};',
    "if(!parsed)document.addEventListener('DOMContentLoaded',()=>{parsed=true;go()},{once:true});",
    'const boot=()=>{painted=true;ask();go()};',
    "new PerformanceObserver((list,observer)=>{if(list.getEntriesByName('first-contentful-paint').length){observer.disconnect();setTimeout(boot)}}).observe({type:'paint',buffered:true});",
    'setTimeout(boot,1500);',
  ].join('');
}

/**
 * The largest script first: on a slow line the scripts share it, and the largest is the last to
 * arrive; started first, it is not also queued behind the browser's six connections to an origin.
 */
function largestFirst(scripts: string[], bundle: Rollup.OutputBundle): string[] {
  const size = (href: string) => {
    const item = bundle[href.replace(/^\//, '')];
    return item?.type === 'chunk' ? item.code.length : 0;
  };
  return [...scripts].sort((a, b) => size(b) - size(a));
}

function paintBeforeBoot(): Plugin {
  return rewriteIndexHtml('shop-paint-before-boot', (html, bundle) => {
    const entryTag = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/;
    const entry = entryTag.exec(html)?.[1];
    if (!entry) throw new Error('index.html has no module entry to start after the first paint');
    const preloadTag = /<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g;
    const shellScripts = largestFirst([entry, ...[...html.matchAll(preloadTag)].map((match) => match[1]!)], bundle);
    const rest = html.replace(preloadTag, '').replace(entryTag, '');
    // A classic script: it runs where it stands, at the end of the head, not after the whole document.
    return rest.replace('</head>', `<script>${bootAfterFirstPaint(entry, shellScripts)}</script></head>`);
  });
}

/**
 * The federation's bootstrap (the module index.html starts) initialises the runtime, then imports
 * the shell's entry, which loads the shared modules and boots. The modules are preloaded by then,
 * so every step resolves at once and the whole chain ran as one task after the first paint
 * (60-120 ms of a phone's main thread). A task boundary after the runtime's initialisation and
 * another before the entry lets the browser paint and answer input in between. The bootstrap is
 * generated by @module-federation/vite; the build fails if its shape changes.
 */
function yieldingBootstrap(): Plugin {
  const nextTask = 'await new Promise((resolve) => setTimeout(resolve));';
  return {
    name: 'shop-yielding-bootstrap',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const bootstraps = Object.values(bundle).filter(
          (item) => item.type === 'asset' && /(^|\/)mf-entry-bootstrap-[^/]*\.js$/.test(item.fileName),
        );
        if (bootstraps.length !== 1) throw new Error(`expected one federation bootstrap, found ${bootstraps.length}`);
        const bootstrap = bootstraps[0] as Rollup.OutputAsset;
        const source = String(bootstrap.source);
        const afterInit = '  await initHost();\n';
        const entryImport = '})().then(() => __mfImport(';
        if (source.split(afterInit).length !== 2 || source.split(entryImport).length !== 2) {
          throw new Error('the federation bootstrap has changed shape: review shop-yielding-bootstrap');
        }
        bootstrap.source = source
          .replace(afterInit, `${afterInit}  ${nextTask}\n`)
          .replace(entryImport, `  ${nextTask}\n})().then(() => __mfImport(`);
      },
    },
  };
}

/**
 * The shell's stylesheet inside index.html (a <style> instead of a <link>): it is small (about
 * 9 KB, 2.5 KB compressed) and every page needs it before its first paint, so a separate file
 * only added a render-blocking request that queued behind the preloaded scripts.
 */
function inlineShellStylesheet(): Plugin {
  return rewriteIndexHtml('shop-inline-shell-stylesheet', (html, bundle) =>
    html.replace(/<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/g, (_tag, fileName: string) => {
      const sheet = bundle[fileName];
      if (sheet?.type !== 'asset') throw new Error(`index.html links ${fileName}, which the build did not write`);
      return `<style>${String(sheet.source).replace(/<\/style/gi, '<\\/style')}</style>`;
    }),
  );
}

/**
 * A build step that rewrites the built index.html, after every other plugin (the federation
 * plugin rewrites the entry into its bootstrap and adds its preloads in generateBundle).
 */
function rewriteIndexHtml(name: string, rewrite: (html: string, bundle: Rollup.OutputBundle) => string): Plugin {
  return {
    name,
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const page = bundle['index.html'];
        if (page?.type !== 'asset') throw new Error('the shell build has no index.html');
        page.source = rewrite(String(page.source), bundle);
      },
    },
  };
}

/** The shell's browser entry: its chunk carries React DOM, the router and the shell. */
const SHELL_MAIN = fileURLToPath(new URL('./src/main.tsx', import.meta.url));

// The host: it provides the shared singletons and registers the areas at
// runtime from the release registry, so it names no remote here.
export default defineConfig({
  plugins: [
    react({ jsxImportSource: BROWSER_JSX_SOURCE }),
    federationTrims({ root: fileURLToPath(new URL('.', import.meta.url)) }),
    federation({
      ...federationDefaults,
      name: 'shell',
      remotes: {},
      shared: sharedSingletons({ provider: true }),
      // The areas use this runtime instead of bundling their own (externalRuntime in their config).
      experiments: { provideExternalRuntime: true },
    }),
    shellFacts(),
    preloadBootChunks(),
    paintBeforeBoot(),
    yieldingBootstrap(),
    inlineShellStylesheet(),
    // The shell on the shop's server (first view of public pages); areas come from the server, not the federation runtime.
    serverBuildPlugin({
      viteBuild: build,
      react,
      entry: 'src/server-entry.tsx',
      replace: { 'src/areas/module-source.ts': 'src/areas/module-source.server.ts' },
    }),
  ],
  // Every browser that runs the shop's esnext build supports module preloading: no polyfill.
  build: {
    target: 'esnext',
    modulePreload: { polyfill: false },
    // Released beside the files for the shop's server to map client errors; no sourceMappingURL reaches browsers.
    sourcemap: 'hidden',
    rolldownOptions: {
      output: {
        // The kernel's singleton (the shell provides it to every area) in one chunk with the kernel
        // modules the shell's own code also imports: they made a chunk of their own, a script
        // request more on every page. The shell's entry then loads the singleton's chunk directly;
        // the federation's share of the kernel resolves to the same module, so it stays one instance.
        codeSplitting: { groups: [{ name: 'singleton', test: /\/shared-kernel\/src\/singleton\// }] },
        // V8's compile hint for the chunk the boot runs most of (React DOM, the router, the shell):
        // its functions are compiled while it streams in, off the main thread, not each at its first
        // call during the boot. After minification, so it stays; in the chunk's hash and source map.
        postBanner: (chunk) => (chunk.moduleIds.includes(SHELL_MAIN) ? '//# allFunctionsCalledOnLoad' : ''),
      },
    },
  },
  test: { environment: 'jsdom' },
  server: {
    port: 5100,
    strictPort: true,
    proxy: { '/api': 'http://127.0.0.1:3000', '/builds': 'http://127.0.0.1:3000', '/media': 'http://127.0.0.1:3000' },
  },
});
