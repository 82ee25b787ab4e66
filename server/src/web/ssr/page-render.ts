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
 * Where the parts' code runs: in the sandbox (sandbox-engine.ts: renderer processes, each an
 * isolate with nothing but the runtime), never in this process (in-process-engine.ts is the
 * benchmark's comparison only). Nothing is loaded from inside the sandbox: this process loads every
 * key through the API in-process (`directLoad`) and hands the data in. A render that fails in the
 * sandbox (a part throws, runs past its time or memory, its renderer hangs or dies) is reported
 * (`onFailure`: the log with the part and version, a metric, the failures /ops lists) and the page
 * is left to the browser; a part version whose renderers had to be replaced again and again is not
 * sent to a renderer for a while (`QUARANTINE_MS`).
 *
 * Streaming: a page whose title comes from its address (a search) sends its head (status 200,
 * title, description, canonical, structured data and styles known so far) through `onHead` while
 * its data loads; the browser starts on the styles and scripts meanwhile. A page whose title needs
 * its data (a product, a category, an article) commits nothing before that data: an unknown one
 * still answers 404. (Without declared data, the head leaves as soon as a render gives the page
 * its title while data is still on its way.)
 */
import { basename, join } from 'node:path';
import type { BasketEntry } from '@shop/shared-kernel/contract';
import type { EmbeddedServerData, PageMetaInput, PagePicture, SettledLoad } from '@shop/shared-kernel/react';
import { chooseReleases } from '@shop/shared-kernel/rules';
import type { AreaName, AreaRelease, PartName, PublicRegistry, ReleaseIntegrity, ReleaseStorage } from '@shop/release';
import { folderOf, releasedFolder } from '../../infra/storage/released-folder.ts';
import { matchRoute, type ShellRoute } from '../route-preload.ts';
import { verifiedServerBuild } from './server-bundles.ts';
import { pageLoads, type Load } from './page-loads.ts';
import { directLoad } from './in-process-api.ts';
import { embeddedJson } from './page-html.ts';
import { NotServerRendered, type PageContext, type PageEngine, type PartBuild, type Planned, type SandboxTime } from './page-engine.ts';
import { sandboxEngine } from './sandbox-engine.ts';
import { inProcessEngine } from './in-process-engine.ts';
import { rendererFiles } from './sandbox/sandbox-files.ts';
import { RenderersUnavailable, SandboxFailure, type SandboxFailureReason } from './sandbox/renderer-pool.ts';

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
/** A part version whose renderers were replaced this often within QUARANTINE_MS is not server-rendered for QUARANTINE_MS. */
const QUARANTINE_STRIKES = 3;
export const QUARANTINE_MS = 60_000;

export type RenderBudget = {
  /** How long the page's data may take, all rounds together (ms). */
  dataMs: number;
  /**
   * How much CPU time a page's parts' code may use in the sandbox, its plan and renders together
   * (ms): the renderer stops it there, and the page is left to the browser. A page renders in a few
   * milliseconds of CPU; this stops a build that loops, however busy the machine is.
   */
  cpuMs: number;
  /**
   * The same in wall-clock time (ms): on a machine too busy to give the page its CPU, or for a build
   * that blocks without using any, the browser renders the page rather than the shopper waiting on.
   * A page whose build loops spends its CPU share first: with its data, it answers within 2 s.
   */
  wallMs: number;
};
export const DEFAULT_RENDER_BUDGET: RenderBudget = { dataMs: 1500, cpuMs: 250, wallMs: 2000 };

/** What renders the parts' server builds (RENDERERS, RENDERER_MEMORY_MB in config.ts). */
export type RendererSettings = {
  /** Renderer processes (default: one per core). */
  count: number;
  /** The heap limit of each renderer's isolate (MB). */
  memoryMb: number;
  /** Start them with the server instead of with the first page. */
  warm: boolean;
  /** The benchmark's comparison only: the builds run in this process (refused by `npm start`). */
  inProcessForBench?: boolean;
};

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
  /** `embedded` as the page embeds it, when already made for the render. */
  embeddedJson?: string;
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
  /**
   * The basket's cookie, parsed: the basket page renders the shopper's lines from it. A page
   * rendered with one is this shopper's: the caller keeps it out of every shared cache.
   */
  basket?: readonly BasketEntry[];
  /** The shop's public origin (configuration): absolute URLs in structured data. */
  origin: string;
  log: { warn(object: object, message: string): void; error(object: object, message: string): void };
  /** The request's id (its log lines carry it), recorded with a failure. */
  requestId?: string;
  /** Called at most once, with status 200 implied, when the head can leave before the rest (see above). */
  onHead?: (head: PageHead) => void;
};

export { NotServerRendered };

/** A failure in the sandbox, attributed to a part's version. */
export type RenderFailure = {
  part: PartName;
  version: string;
  reason: SandboxFailureReason;
  url: string;
  message: string;
  requestId: string;
};

/** The sandbox failed this page (reported already): the browser renders it, and nothing of it is kept. */
export class RenderFailed extends Error {
  constructor(readonly failure: RenderFailure | null) {
    super(failure ? `${failure.part} ${failure.version}: ${failure.reason}` : 'the render was left to the browser');
  }
}

export type PageRenderer = {
  render(request: PageRenderRequest): Promise<RenderedPage>;
  start(): Promise<void>;
  close(): Promise<void>;
  /** The renderer processes' ids (the sandbox's; none in-process). */
  rendererPids(): number[];
};

const partOf = (id: string) => {
  const slash = id.indexOf('/');
  return { part: id.slice(0, slash) as PartName, version: id.slice(slash + 1) };
};

/** `storage`: where the areas' builds are read from (each version folder brought to local disk once, see `releasedFolder`). */
export function createPageRenderer(options: {
  storage: ReleaseStorage;
  assetOrigin: string;
  budget?: RenderBudget;
  integrity?: ReleaseIntegrity | null;
  renderers?: RendererSettings;
  /** Told of each failure in the sandbox (with the request's log). */
  onFailure?: (failure: RenderFailure, log: PageRenderRequest['log']) => void;
  log?: PageRenderRequest['log'];
}): PageRenderer {
  /** The signed digest of a version's server build (undefined: unchecked, tests of unsigned builds); a version without one is refused. */
  const signedDigest = async (part: PartBuild): Promise<string | undefined> => {
    if (!options.integrity) return undefined;
    const digest = (await options.integrity.manifest(part.part as PartName, part.version)).files[SERVER_ENTRY]?.sha384;
    if (!digest) throw new Error(`${part.id} has no signed server build`);
    return digest;
  };
  const budget = options.budget ?? DEFAULT_RENDER_BUDGET;
  const settings = options.renderers ?? { count: 1, memoryMb: 128, warm: false };
  const log = options.log ?? { warn: () => undefined, error: () => undefined };
  const sandbox = settings.inProcessForBench
    ? null
    : sandboxEngine({
        files: rendererFiles,
        size: settings.count,
        memoryMb: settings.memoryMb,
        renderMs: budget.wallMs,
        // Work that waited for a renderer as long as a render may take is left to the browser.
        queueMs: budget.dataMs,
        code: async (part) => verifiedServerBuild(part.file, await signedDigest(part)),
        log,
      });
  const engine: PageEngine = sandbox ?? inProcessEngine({ digest: signedDigest });

  /** Failures that replaced a renderer, by part id; and part ids not sent to a renderer until a time. */
  const strikes = new Map<string, number[]>();
  const quarantined = new Map<string, number>();
  const isQuarantined = (id: string) => {
    const until = quarantined.get(id);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    quarantined.delete(id);
    return false;
  };
  function failed(context: PageContext, error: unknown, request: PageRenderRequest): never {
    if (error instanceof RenderersUnavailable) {
      request.log.warn({ url: request.url, err: error }, 'no renderer could take the page: the browser renders it');
      throw new RenderFailed(null);
    }
    if (!(error instanceof SandboxFailure)) throw error;
    // The part whose own code was running, else the page's area, else the shell.
    const id = error.part ?? context.area?.id ?? context.shell.id;
    const failure: RenderFailure = {
      ...partOf(id),
      reason: error.reason,
      url: request.url,
      message: error.message,
      requestId: request.requestId ?? '',
    };
    options.onFailure?.(failure, request.log);
    if (error.reason !== 'error') {
      const now = Date.now();
      const recent = [...(strikes.get(id) ?? []).filter((at) => now - at < QUARANTINE_MS), now];
      strikes.set(id, recent);
      if (recent.length >= QUARANTINE_STRIKES) {
        quarantined.set(id, now + QUARANTINE_MS);
        strikes.delete(id);
        request.log.error(
          { render: { part: failure.part, version: failure.version } },
          'server render: this part version keeps failing in the sandbox; its pages render in the browser for a while',
        );
      }
    }
    throw new RenderFailed(failure);
  }

  /** The context a page renders in: the shell's choice, and the area if its route renders on the server. */
  async function contextFor(request: PageRenderRequest, releases: Partial<Record<AreaName, AreaRelease>>, area: AreaName | null) {
    const choice = Object.entries(releases)
      .map(([name, release]) => `${name}@${release?.version}`)
      .sort()
      .join(',');
    const shellVersion = basename(request.shellDir);
    const shell: PartBuild = {
      id: `shell/${shellVersion}`,
      part: 'shell',
      version: shellVersion,
      file: join(request.shellDir, SERVER_ENTRY),
    };
    let areaBuild: PageContext['area'] = null;
    if (area) {
      const release = releases[area];
      if (!release) throw new NotServerRendered(`area ${area} is not released`);
      const folder = folderOf(release.entry);
      const file = join(await releasedFolder(options.storage, folder), SERVER_ENTRY);
      areaBuild = { id: `${area}/${release.version}`, part: area, version: release.version, file, name: area };
    }
    for (const id of [shell.id, ...(areaBuild ? [areaBuild.id] : [])]) {
      if (isQuarantined(id)) throw new RenderFailed(null);
    }
    const context: PageContext = {
      key: `${shell.id}|${areaBuild?.id ?? '-'}|${choice}`,
      shell,
      area: areaBuild,
      releases,
      assetOrigin: options.assetOrigin,
    };
    return context;
  }

  async function render(request: PageRenderRequest): Promise<RenderedPage> {
    const releases = chooseReleases(request.registry, request.bucket ?? 100);
    const pathname = request.url.split('?')[0] ?? '/';
    // The area whose page this is, as the shell's table will say (the shell's plan confirms it).
    const guess = serverRenderedArea(releases, pathname);
    if (guess && request.bucket === null && request.registry.canaries?.[guess]) {
      throw new NotServerRendered(`${guess} has a canary and this browser's side is not known yet`);
    }
    let context = await contextFor(request, releases, guess);
    // The page's time in the sandbox: how long the parts' code may run for it, plan and renders together.
    const left: SandboxTime = { cpuMs: budget.cpuMs, wallMs: budget.wallMs };
    const spent = (time: SandboxTime) => {
      left.cpuMs -= time.cpuMs;
      left.wallMs -= time.wallMs;
    };
    const timed = async <T>(work: (time: SandboxTime) => Promise<T>): Promise<T> => {
      if (left.cpuMs <= 0 || left.wallMs <= 0) {
        request.log.warn({ url: request.url }, 'the page used its time in the sandbox before its last render: the browser renders it');
        throw new RenderFailed(null);
      }
      return work({ ...left }).catch((error: unknown) => failed(context, error, request));
    };
    const basket = request.basket ?? [];
    const plan = (): Promise<Planned> => timed((time) => engine.plan(context, request.url, { basket }, time, spent));
    let planned = await plan();
    const area = planned.route?.serverRender ? (planned.route.area as AreaName) : null;
    if (area !== guess) {
      if (area && request.bucket === null && request.registry.canaries?.[area]) {
        throw new NotServerRendered(`${area} has a canary and this browser's side is not known yet`);
      }
      context = await contextFor(request, releases, area);
      planned = await plan();
    }
    const route = planned.route;

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
    /** Each key's load, in this process through the API (nothing is fetched from the sandbox); a key it cannot load is the browser's. */
    const loadsOf = (keys: Iterable<string>) => {
      const chosen = new Map<string, Load>();
      for (const key of keys) {
        const load = directLoad(key);
        if (load) chosen.set(key, load);
        else if (!givenUp.has(key)) {
          givenUp.add(key);
          request.log.warn({ url: request.url, key }, 'server render leaves a load it cannot make in-process to the browser');
        }
      }
      return chosen;
    };
    const renderOnce = async () => {
      const embedded: EmbeddedServerData = {
        path: request.url,
        data: Object.fromEntries(data),
        notFound,
        ...(basket.length > 0 ? { basket } : {}),
      };
      let json: string | undefined;
      const dataJson = () => (json ??= embeddedJson(embedded));
      const { head, html } = await timed((time) =>
        engine.render(context, {
          url: request.url,
          config: request.config,
          data,
          notFound,
          givenUp,
          basket,
          origin: request.origin,
          dataJson,
          time,
          spent,
        }),
      );
      for (const error of head.errors) request.log.warn({ url: request.url, error }, 'server render left part of the page to the browser');
      if (head.waited) request.log.warn({ url: request.url }, 'server render left what never settled to the browser');
      // What the parts wrote to the console is theirs to read in the server's log; it does not make the page less whole.
      if (head.logs.length > 0) log.warn({ url: request.url, logs: head.logs }, 'server render: the parts wrote to the console');
      const page: PageHead & { html: string } = { html, meta: head.meta, picture: head.picture, jsonLd: head.jsonLd, styles: head.styles };
      return { page, pending: head.pending, embedded, dataJson };
    };
    try {
      let sentHead: PageHead | null = null;
      // The page's data as its route declares it, loaded all at once: then one render is the page.
      const declared = planned.declared;
      if (declared) {
        const settling = loads.settle(loadsOf(declared.loads.map((load) => load.key)), null);
        // A page titled by its address alone sends its head while its data loads (the browser starts on styles and scripts).
        if (declared.headBeforeData && request.onHead && planned.isPage) {
          const { page } = await renderOnce();
          if (page.meta.title)
            request.onHead((sentHead = { meta: page.meta, picture: page.picture, jsonLd: [...page.jsonLd], styles: [...page.styles] }));
        }
        absorb(await settling);
      }
      // Without declared data (an area build from before route data), or for what a page asks beyond it,
      // each render collects what the page asks for, loads it and renders again.
      for (let round = 1; ; round += 1) {
        const { page, pending, embedded, dataJson } = await renderOnce();
        const remaining = deadline - Date.now();
        const asked = loadsOf(pending);
        if (asked.size === 0 || round >= MAX_RENDERS || remaining <= 0 || notFound) {
          if (asked.size > 0 && !notFound)
            request.log.warn({ url: request.url, keys: [...asked.keys()] }, 'server render left data to the browser');
          const missing = notFound || !planned.isPage;
          if (missing && sentHead) request.log.warn({ url: request.url }, 'page data was not found after the head left with status 200');
          return {
            ...page,
            status: missing ? 404 : 200,
            area: missing || !route?.serverRender ? null : route.area,
            embedded,
            embeddedJson: dataJson(),
            sentHead,
          };
        }
        if (declared) request.log.warn({ url: request.url, keys: [...asked.keys()] }, 'page asked for data its route does not declare');
        if (!sentHead && request.onHead && page.meta.title && planned.isPage) {
          sentHead = { meta: page.meta, picture: page.picture, jsonLd: [...page.jsonLd], styles: [...page.styles] };
          request.onHead(sentHead);
        }
        // Until the head has left, a page whose title came while other data did not yet renders again to send
        // it (short of the last renders, which wait for all the data).
        absorb(await loads.settle(asked, !sentHead && request.onHead && round < MAX_RENDERS - 1 ? HEAD_WAIT_MS : null));
      }
    } finally {
      loads.close();
    }
  }

  return {
    render,
    start: () => engine.start(),
    close: () => engine.close(),
    rendererPids: () => sandbox?.pool.pids() ?? [],
  };
}

/** The area whose server-rendered route a path is, from the releases' routes (as the shell's table ranks them). */
function serverRenderedArea(releases: Partial<Record<AreaName, AreaRelease>>, pathname: string): AreaName | null {
  const routes: (ShellRoute & { serverRender: boolean })[] = [];
  for (const [area, release] of Object.entries(releases) as [AreaName, AreaRelease | undefined][]) {
    for (const route of release?.routes ?? [])
      routes.push({ path: route.path, area, module: route.module, serverRender: route.serverRender === true });
  }
  const route = matchRoute(routes, pathname) as (ShellRoute & { serverRender: boolean }) | null;
  return route?.serverRender ? (route.area as AreaName) : null;
}
