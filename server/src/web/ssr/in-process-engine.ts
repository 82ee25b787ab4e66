/**
 * The benchmark's comparison only: the parts' server builds evaluated in the server's own process
 * (node:vm, which is no security boundary: a build here sees the process, its environment, files
 * and network), as the server rendered before the sandbox. Chosen by RENDER_IN_PROCESS_FOR_BENCH=1,
 * which `npm start` and `npm run start:cluster` refuse (config.ts, tools/scripts). Never use it
 * to serve shoppers.
 */
import { Writable } from 'node:stream';
import type { ReactElement } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import type { ServerRender, ShellServer, ShellServerModule } from '@shop/shared-kernel/contract';
import { NotServerRendered, type PageEngine, type PartBuild, type RenderedHead } from './page-engine.ts';
import { BundleCache, evaluateServerBundle } from './server-bundles.ts';

type AreaServerModule = { modules: Record<string, () => Promise<unknown>> };

export function inProcessEngine(options: { digest: (part: PartBuild) => Promise<string | undefined> }): PageEngine {
  const areas = new BundleCache<AreaServerModule>(24);
  const shells = new BundleCache<ShellServer>(12);
  const areaBundle = (part: PartBuild) =>
    areas.get(part.file, async () => evaluateServerBundle<AreaServerModule>(part.file, await options.digest(part)));
  const shellFor = (context: Parameters<PageEngine['plan']>[0]) =>
    shells.get(context.key, async () => {
      const shell = await evaluateServerBundle<ShellServerModule>(context.shell.file, await options.digest(context.shell));
      return shell.createShellServer({
        releases: context.releases,
        assetOrigin: context.assetOrigin,
        loadModule: async (key) => {
          const [name, exposed] = key.split('/') as [string, string];
          if (!context.area || name !== context.area.name) return null;
          const load = (await areaBundle(context.area)).modules[`./${exposed}`];
          return load ? load() : null;
        },
      });
    });

  return {
    start: async () => undefined,
    close: async () => undefined,
    plan: async (context, url, request) => {
      const shell = await shellFor(context).catch((error: unknown) => {
        throw new NotServerRendered(`the shell has no server build: ${String(error)}`);
      });
      if (context.area)
        await areaBundle(context.area).catch((error: unknown) => {
          throw new NotServerRendered(`${context.area?.id} has no server build: ${String(error)}`);
        });
      const pathname = url.split('?')[0] ?? '/';
      const route = shell.routeForPath(pathname);
      const declared = shell.pageData ? await shell.pageData(url, request) : null;
      return {
        route: route ? { area: route.area, serverRender: route.serverRender === true, name: route.name } : null,
        isPage: shell.isPage(pathname),
        declared: declared ? { headBeforeData: declared.headBeforeData, loads: declared.loads.map(({ key }) => ({ key })) } : null,
      };
    },
    render: async (context, input) => {
      const shell = await shellFor(context);
      const head: RenderedHead = {
        meta: { title: null },
        picture: null,
        jsonLd: [],
        styles: [],
        pending: [],
        errors: [],
        waited: false,
        logs: [],
      };
      const asked = new Set<string>();
      const server: ServerRender = {
        data: input.data,
        notFound: input.notFound,
        origin: input.origin,
        ...(input.basket ? { basket: input.basket } : {}),
        collect: (key) => void (input.data.has(key) || input.givenUp.has(key) || asked.add(key)),
        meta: (meta) => void (head.meta = meta),
        picture: (picture) => void (head.picture ??= picture),
        jsonLd: (id, json) => void (head.jsonLd.some((block) => block.id === id) || head.jsonLd.push({ id, json })),
        styles: (area, css) => void (head.styles.some((style) => style.area === area) || head.styles.push({ area, css })),
      };
      shell.prepare?.({ url: input.url, server });
      const html = await renderToHtml(shell.page({ url: input.url, config: input.config, server }), input.time.wallMs, (error) => {
        if (head.errors.length < 20) head.errors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      });
      head.pending = [...asked];
      return { head, html };
    },
  };
}

/** The element's HTML once everything it waits for is ready; what is not ready within `ms` renders in the browser. */
function renderToHtml(element: ReactElement, ms: number, onError: (error: unknown) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        clearTimeout(timer);
        resolve(Buffer.concat(chunks).toString());
        done();
      },
    });
    const stream = renderToPipeableStream(element, {
      // Every finished part inline, never outlined for a script to reveal: the page must read without JavaScript.
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      onAllReady: () => stream.pipe(sink),
      onShellError: (error) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
      onError,
    });
    const timer = setTimeout(() => stream.abort(new Error(`render took longer than ${ms} ms`)), ms);
  });
}
