/**
 * Renders the first view of a public page on the server, with the shell and the area at the
 * versions this request uses (the registry in force, this browser's canary side, a preview).
 *
 * A page's data is declared by its route (the area's route data, the shell's layout data: see
 * `ShellServer.pageData`), with the same calls and keys the pages give the kernel's `useResource`.
 * The server loads all of it at once (in-process, through the API itself) and renders the page a
 * single time; the data is embedded, so the browser hydrates the same markup without asking again.
 * A page whose area declares nothing (a build from before route data) is rendered as before: a
 * render collects what the page asks for, the data is loaded and the page renders again, until
 * nothing new is asked for (route-data.test.ts refuses a current page that asks for more).
 *
 * Budgets keep a slow page from holding the response: data that is not there in time, and a
 * render that takes too long, are left to the browser (the area shows its skeleton and loads
 * as it does today). A not-found answer for the page's data makes the page the shell's 404 page.
 *
 * Streaming: a page whose title comes from its address (a search) sends its head (status 200,
 * title, description, canonical, structured data and styles known so far) through `onHead` while
 * its data loads; the browser starts on the styles and scripts meanwhile. A page whose title needs
 * its data (a product, a category, an article) commits nothing before that data: an unknown one
 * still answers 404. (Without declared data, the head leaves as soon as a render gives the page
 * its title while data is still on its way.)
 */
import { basename, join } from 'node:path';
import { Writable } from 'node:stream';
import type { ReactElement } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import type { EmbeddedServerData, PageMetaInput, PagePicture, ServerRender, SettledLoad } from '@shop/shared-kernel/react';
import { chooseReleases } from '@shop/shared-kernel/rules';
import type { ShellServer, ShellServerModule } from '@shop/shared-kernel/contract';
import type { AreaName, AreaRelease, PartName, PublicRegistry, ReleaseIntegrity, ReleaseStorage } from '@shop/release';
import { folderOf, releasedFolder } from '../released-folder.ts';
import { BundleCache, evaluateServerBundle } from './server-bundles.ts';
import { pageLoads, type Load } from './page-loads.ts';
import { directLoad } from './in-process-api.ts';

/** Where a part's server build sits inside its released build (the kernel's build/federation.mjs). */
const SERVER_ENTRY = 'server/entry.cjs';
/** Renders per request: the first collects what the page asks for; each next one has more data. */
const MAX_RENDERS = 4;
/**
 * How long, once some of a page's data has come, the rest may keep its head waiting (ms). A page
 * whose data all comes within it renders once more, whole; otherwise it renders with what came,
 * and its head leaves if that gave it its title (a category while its listing still loads).
 */
const HEAD_WAIT_MS = 10;

export type RenderBudget = {
  /** How long the page's data may take, all rounds together (ms). */
  dataMs: number;
  /** How long one render may take before what is still pending is left to the browser (ms). */
  renderMs: number;
};
export const DEFAULT_RENDER_BUDGET: RenderBudget = { dataMs: 1500, renderMs: 1000 };

type AreaServerModule = { modules: Record<string, () => Promise<unknown>> };

/** What the document's head carries: known once the page has its title. */
export type PageHead = {
  meta: PageMetaInput;
  /** The picture the first view waits for, as its component declared it (see picture-preload.ts). */
  picture?: PagePicture | null;
  jsonLd: { id: string; json: string }[];
  styles: { area: string; css: string }[];
};

export type RenderedPage = PageHead & {
  status: 200 | 404;
  /** The area that renders the page, null for the shell's own 404 page. */
  area: string | null;
  html: string;
  embedded: EmbeddedServerData;
  /** The head as `onHead` got it, when it was sent ahead of the page: what came later goes into the body. */
  sentHead: PageHead | null;
};

export type PageRenderRequest = {
  /** Path and query of the request. */
  url: string;
  registry: Pick<PublicRegistry, 'areas' | 'canaries'>;
  /** The local path of the shell's version folder (see `releasedFolder`). */
  shellDir: string;
  /** This browser's canary bucket; null when unknown (then a page of an area with a canary renders in the browser). */
  bucket: number | null;
  /** The shell's runtime configuration, as the page embeds it. */
  config: unknown;
  /** The shop's public origin (configuration): absolute URLs in structured data. */
  origin: string;
  log: { warn(object: object, message: string): void; error(object: object, message: string): void };
  /** Called at most once, with status 200 implied, when the head can leave before the rest (see above). */
  onHead?: (head: PageHead) => void;
};

/** A page the server does not render (not a public page, or a part without a server build): the browser renders it. */
export class NotServerRendered extends Error {}

/** `storage`: where the areas' builds are read from (each version folder brought to local disk once, see `releasedFolder`). */
export function createPageRenderer(options: {
  storage: ReleaseStorage;
  assetOrigin: string;
  budget?: RenderBudget;
  integrity?: ReleaseIntegrity | null;
}) {
  /** The signed digest of a version's server build (undefined: unchecked, tests of unsigned builds); a version without one is refused. */
  const signedDigest = async (part: PartName, version: string): Promise<string | undefined> => {
    if (!options.integrity) return undefined;
    const digest = (await options.integrity.manifest(part, version)).files[SERVER_ENTRY]?.sha384;
    if (!digest) throw new Error(`${part} ${version} has no signed server build`);
    return digest;
  };
  const budget = options.budget ?? DEFAULT_RENDER_BUDGET;
  // Area builds are stateless modules: one evaluation per version serves every shell instance.
  const areas = new BundleCache<AreaServerModule>(24);
  // A shell instance holds one choice of area versions (its route table and loader): one per choice.
  const shells = new BundleCache<ShellServer>(12);

  async function areaBundle(release: AreaRelease): Promise<AreaServerModule> {
    const folder = folderOf(release.entry);
    const file = join(await releasedFolder(options.storage, folder), SERVER_ENTRY);
    const area = folder.split('/')[1] as AreaName;
    return areas.get(file, async () => evaluateServerBundle<AreaServerModule>(file, await signedDigest(area, release.version)));
  }

  function shellFor(shellDir: string, releases: Partial<Record<AreaName, AreaRelease>>): Promise<ShellServer> {
    const choice = Object.entries(releases)
      .map(([area, release]) => `${area}@${release?.version}`)
      .sort()
      .join(',');
    return shells.get(`${shellDir}|${choice}`, async () => {
      const shell = await evaluateServerBundle<ShellServerModule>(
        join(shellDir, SERVER_ENTRY),
        await signedDigest('shell', basename(shellDir)),
      );
      return shell.createShellServer({
        releases,
        assetOrigin: options.assetOrigin,
        loadModule: async (key) => {
          const [area, exposed] = key.split('/') as [AreaName, string];
          const release = releases[area];
          if (!release) return null;
          const load = (await areaBundle(release)).modules[`./${exposed}`];
          return load ? load() : null;
        },
      });
    });
  }

  return async function renderPage(request: PageRenderRequest): Promise<RenderedPage> {
    const releases = chooseReleases(request.registry, request.bucket ?? 100);
    const shell = await shellFor(request.shellDir, releases).catch((error: unknown) => {
      throw new NotServerRendered(`the shell has no server build: ${String(error)}`);
    });
    const pathname = request.url.split('?')[0] ?? '/';
    const route = shell.routeForPath(pathname);
    // A page its area renders on the server needs the area's server build; any other page (checkout steps,
    // account, /ops) is rendered as the layout around a skeleton, the page following in the browser.
    if (route?.serverRender) {
      // Which version of a canaried area this browser runs is known only from its bucket.
      if (request.bucket === null && request.registry.canaries?.[route.area as AreaName]) {
        throw new NotServerRendered(`${route.area} has a canary and this browser's side is not known yet`);
      }
      const release = releases[route.area as AreaName];
      if (!release) throw new NotServerRendered(`area ${route.area} is not released`);
      await areaBundle(release).catch((error: unknown) => {
        throw new NotServerRendered(`${route.area} has no server build: ${String(error)}`);
      });
    }

    const data = new Map<string, SettledLoad>();
    // Loads that failed (other than 404) are not asked for again: the browser loads them.
    const givenUp = new Set<string>();
    const deadline = Date.now() + budget.dataMs;
    const loads = pageLoads(deadline);
    let notFound = false;
    const absorb = (settled: Map<string, SettledLoad>) => {
      for (const [key, result] of settled) {
        if (result.ok || result.status === 404) data.set(key, result);
        if (!result.ok && result.status === 404) notFound = true;
        // Any other failure stays unsettled: the browser loads it and shows its own message.
        if (!result.ok && result.status !== 404) {
          givenUp.add(key);
          request.log.warn({ url: request.url, key, status: result.status }, 'server render could not load page data');
        }
      }
    };
    const render = async () => {
      shell.prepare?.({ url: request.url, server: { data } });
      const pending = new Map<string, Load>();
      const page: PageHead & { html: string } = { html: '', meta: { title: null }, jsonLd: [], styles: [] };
      const server: ServerRender = {
        data,
        notFound,
        origin: request.origin,
        collect: (key, load) => void (data.has(key) || givenUp.has(key) || pending.set(key, directLoad(key) ?? load)),
        meta: (meta) => void (page.meta = meta),
        picture: (picture) => void (page.picture ??= picture),
        jsonLd: (id, json) => void (page.jsonLd.some((block) => block.id === id) || page.jsonLd.push({ id, json })),
        styles: (area, css) => void (page.styles.some((style) => style.area === area) || page.styles.push({ area, css })),
      };
      page.html = await renderToHtml(shell.page({ url: request.url, config: request.config, server }), budget.renderMs, (error) =>
        request.log.warn({ err: error, url: request.url }, 'server render left part of the page to the browser'),
      );
      return { page, pending };
    };
    try {
      let sentHead: PageHead | null = null;
      // The page's data as its route declares it, loaded all at once: then one render is the page.
      const declared = shell.pageData
        ? await shell.pageData(request.url).catch((error: unknown) => {
            request.log.warn({ err: error, url: request.url }, "the page's route data failed: the render discovers its data");
            return null;
          })
        : null;
      if (declared) {
        const settling = loads.settle(new Map(declared.loads.map((load) => [load.key, directLoad(load.key) ?? load.load])), null);
        // A page titled by its address alone sends its head while its data loads (the browser starts on styles and scripts).
        if (declared.headBeforeData && request.onHead && shell.isPage(pathname)) {
          const { page } = await render();
          if (page.meta.title)
            request.onHead((sentHead = { meta: page.meta, picture: page.picture, jsonLd: [...page.jsonLd], styles: [...page.styles] }));
        }
        absorb(await settling);
      }
      // Without declared data (an area build from before route data), or for what a page asks beyond it,
      // each render collects what the page asks for, loads it and renders again.
      for (let round = 1; ; round += 1) {
        const { page, pending } = await render();
        const remaining = deadline - Date.now();
        if (pending.size === 0 || round >= MAX_RENDERS || remaining <= 0 || notFound) {
          if (pending.size > 0 && !notFound)
            request.log.warn({ url: request.url, keys: [...pending.keys()] }, 'server render left data to the browser');
          const embedded: EmbeddedServerData = { path: request.url, data: Object.fromEntries(data), notFound };
          const missing = notFound || !shell.isPage(pathname);
          if (missing && sentHead) request.log.warn({ url: request.url }, 'page data was not found after the head left with status 200');
          return { ...page, status: missing ? 404 : 200, area: missing || !route?.serverRender ? null : route.area, embedded, sentHead };
        }
        if (declared) request.log.warn({ url: request.url, keys: [...pending.keys()] }, 'page asked for data its route does not declare');
        if (!sentHead && request.onHead && page.meta.title && shell.isPage(pathname)) {
          sentHead = { meta: page.meta, picture: page.picture, jsonLd: [...page.jsonLd], styles: [...page.styles] };
          request.onHead(sentHead);
        }
        // Until the head has left, a page whose title came while other data did not yet renders again to send
        // it (short of the last renders, which wait for all the data).
        absorb(await loads.settle(pending, !sentHead && request.onHead && round < MAX_RENDERS - 1 ? HEAD_WAIT_MS : null));
      }
    } finally {
      loads.close();
    }
  };
}

/** The element's HTML once everything it waits for is ready; what is not ready within `ms` renders in the browser. */
function renderToHtml(element: ReactElement, ms: number, onError: (error: unknown) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    // The bytes as they come, decoded once at the end (React writes the page in many small chunks).
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
