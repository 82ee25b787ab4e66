/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { federation } from '@module-federation/vite';
import { federationDefaults, KERNEL_BUILD_VERSION, serverBuildPlugin, sharedSingletons } from '@shop/shared-kernel/federation';
import { LAYOUTS } from './src/app/route-table.ts';

/**
 * Emits routes.json: the kernel this shell provides and the layouts it has.
 * The areas own their routes (each area's area.json); a release checks them
 * against this shell's kernel and layouts.
 */
function shellFacts(): Plugin {
  return {
    name: 'shop-shell-facts',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'routes.json', source: JSON.stringify({ kernel: KERNEL_BUILD_VERSION, requires: {}, layouts: LAYOUTS }, null, 2) });
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
        return missing.map((href) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href }, injectTo: 'head' as const }));
      },
    },
  };
}

/**
 * The boot script starts after the first frame is painted: index.html's module entry becomes a
 * modulepreload (it still downloads at once) and a deferred inline loader that imports it on the
 * first animation frame. Otherwise the browser runs the whole boot (React, the kernel, the areas,
 * hydration) before its first paint whenever the scripts arrive before the HTML has been parsed,
 * which on a slow phone with a warm cache holds the server-rendered page back for the boot's
 * length. An inline module script runs only when the whole document has been parsed, so a
 * streamed page is complete before hydration starts.
 */
function paintBeforeBoot(): Plugin {
  return {
    name: 'shop-paint-before-boot',
    apply: 'build',
    enforce: 'post',
    // After the federation plugin, which rewrites the entry into its bootstrap in generateBundle.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const page = bundle['index.html'];
        if (page?.type !== 'asset') throw new Error('the shell build has no index.html');
        const html = String(page.source);
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
        const src = entry.exec(html)?.[1];
        if (!src) throw new Error('index.html has no module entry to start after the first paint');
        page.source = html.replace(
          entry,
          `<link rel="modulepreload" crossorigin href="${src}">` +
            `<script type="module">requestAnimationFrame(()=>setTimeout(()=>import(${JSON.stringify(src)})))</script>`,
        );
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
  return {
    name: 'shop-inline-shell-stylesheet',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const page = bundle['index.html'];
        if (page?.type !== 'asset') throw new Error('the shell build has no index.html');
        page.source = String(page.source).replace(/<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/g, (tag, fileName: string) => {
          const sheet = bundle[fileName];
          if (sheet?.type !== 'asset') throw new Error(`index.html links ${fileName}, which the build did not write`);
          return `<style>${String(sheet.source).replace(/<\/style/gi, '<\\/style')}</style>`;
        });
      },
    },
  };
}

// The host: it provides the shared singletons and registers the areas at
// runtime from the release registry, so it names no remote here.
export default defineConfig({
  plugins: [
    react(),
    federation({
      ...federationDefaults,
      name: 'shell',
      remotes: {},
      shared: sharedSingletons(),
      // The areas use this runtime instead of bundling their own (externalRuntime in their config).
      experiments: { provideExternalRuntime: true },
    }),
    shellFacts(),
    preloadBootChunks(),
    paintBeforeBoot(),
    inlineShellStylesheet(),
    // The shell on the shop's server (first view of public pages); areas come from the server, not the federation runtime.
    serverBuildPlugin({
      viteBuild: build,
      react,
      entry: 'src/server-entry.tsx',
      replace: { 'src/areas/module-source.ts': 'src/areas/module-source.server.ts' },
    }),
  ],
  build: { target: 'esnext' },
  test: { environment: 'jsdom', include: ['src/**/*.test.{ts,tsx}'] },
  server: {
    port: 5100,
    strictPort: true,
    proxy: { '/api': 'http://127.0.0.1:3000', '/builds': 'http://127.0.0.1:3000', '/media': 'http://127.0.0.1:3000' },
  },
});
