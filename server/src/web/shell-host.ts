/**
 * Serves the shell in force on the shop's own origin: its hashed assets
 * (immutable, older versions kept for open tabs), the release registry
 * (never cached), and index.html with the runtime configuration for every
 * other GET, so client-side routes work on a deep link and a reload.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { notFoundHandler } from '../infra/http/error-handler.ts';
import { ApiError, notFound } from '../infra/http/errors.ts';
import { canaryBucketOf } from '../infra/http/cookies.ts';
import {
  isSourceMap,
  originBook,
  publicRegistry,
  type PublicRegistry,
  type RegistryBook,
  type ReleaseStorage,
  PREVIEW_PATH,
  type ReleaseIntegrity,
} from '@shop/release';
import { areaPreloadLinks, matchRoute, routesOf } from './route-preload.ts';
import { previewHost, type PreviewGrants } from './preview-host.ts';
import { REPORTING_ENDPOINTS } from '../infra/http/security-headers.ts';
import { CONFIG_ID, CONFIG_READER, shellInline, shellPagePolicyFor, type PagePolicyOptions, type ShellInline } from './page-policy.ts';
import { pageScripts, ShellNotTrusted, type LocalArea, type RefusedVersion } from './script-integrity.ts';
import type { ReleasedFileCheck } from './verified-files.ts';
import { CONSENT_BODY_LIMIT, consentCookies, consentFirstFrame, safeBackPath } from './consent-frame.ts';
import { dropValidatorsOfImmutable } from './static-origin.ts';
import { SHELLS, shellFiles } from './shell-files.ts';
import { BASKET_COOKIE_PATH, basketFromCookies, type FlagShares } from '@shop/shared-kernel/rules';
import { pageTypeOf } from '@shop/shared-kernel/contract';
import {
  createPageRenderer,
  NotServerRendered,
  RenderFailed,
  type RenderBudget,
  type RenderedPage,
  type RendererSettings,
  type RenderFailure,
} from './ssr/page-render.ts';
import { documentRest, documentRestInBrowser, documentStart, serverRenderedHtml } from './ssr/page-html.ts';
import { compressedPage, compressingStream, preferredEncoding } from '../infra/http/compression.ts';
import { serveApiInProcess, STORED_REDIRECT_CACHE_CONTROL, storedRedirect } from './ssr/in-process-api.ts';
import { PageCache, type CachedPage } from './ssr/page-cache.ts';
import { catalogVersion } from '../infra/cache/catalog-version.ts';
import { PageValidators } from './page-validator.ts';
import { releasedFolder } from '../infra/storage/released-folder.ts';

export type ShellHostOptions = {
  /**
   * Where releases live: the registry, and the shell's and areas' version folders, read from local
   * disk (an object store's are downloaded into its cache once, see `releasedFolder`).
   */
  storage: ReleaseStorage;
  /**
   * The registry in force: the server's database (domains/releases/registry.repository.ts), never
   * the origin's export an origin writer could change. Default (tests of the page host alone): the origin's files.
   */
  book?: RegistryBook;
  /** Origin of the areas (the static origin or a CDN), from configuration. */
  assetOrigin: string;
  gtmId: string | null;
  registryPollMs: number;
  /** Share of page loads that report page views and client errors (0..1). */
  telemetrySample: number;
  /** The preview links the server keeps (domains/releases/previews.repository.ts); absent: no link opens. */
  previews?: PreviewGrants;
  /** The shop's public origin (configuration, never the request's Host): canonical and Open Graph URLs. */
  publicUrl: string;
  /** Budgets of a server render (default: DEFAULT_RENDER_BUDGET). */
  renderBudget?: RenderBudget;
  /** The sandbox's renderer processes (default: one, started with the first page). */
  renderers?: RendererSettings;
  /** Told of each render that failed in the sandbox (the metric, the failures /ops lists); it is logged here. */
  onRenderFailure?: (failure: RenderFailure) => void;
  /** How long a rendered page is served again to the next visitors with the same key (ms; 0: never). */
  pageCacheMs?: number;
  /** False: public pages render in the browser only (default true). */
  serverRender?: boolean;
  /** The card gateway's origin, where the shop's payment form may go (the page's form-action); null: none. */
  gatewayOrigin?: string | null;
  /**
   * The signed manifests of what the pages serve: every script a page runs gets its integrity from
   * them, and a version without a valid one is not served. Null only where a test serves unsigned builds.
   */
  integrity: ReleaseIntegrity | null;
  /** Told of each version left out of pages because its signed manifest did not verify. */
  onRefusedVersion?: (refused: RefusedVersion) => void;
  /** Sends a shell file only with the bytes its version's signed manifest lists (null: unchecked, tests of unsigned builds). */
  check?: ReleasedFileCheck | null;
  /** The areas' feature switches in force (the server's database); the page embeds them. Absent: none. */
  flags?: () => Promise<FlagShares>;
};

/** Rendered pages are reused this long unless a release or a catalog change comes first. */
export const PAGE_CACHE_MS = 5000;

/**
 * Cache-Control of a page every visitor gets alike: a shared cache (CDN, the nginx edge) may keep it
 * as long as the server's page cache, then answer it stale as long again while it fetches it anew
 * in the background; a browser asks again each time. So a release or a catalog change shows
 * through a shared cache within twice the page cache's time (docs/operations.md).
 */
export function sharedHtmlCacheControl(pageCacheMs: number): string {
  const seconds = Math.floor(pageCacheMs / 1000);
  return seconds > 0 ? `public, max-age=0, s-maxage=${seconds}, stale-while-revalidate=${seconds}` : 'no-cache';
}

/** The answer when the shell in force is not as it was signed: nothing of the page can be trusted. */
const NOT_TRUSTED = 'Obchod je dočasne nedostupný: overujeme jeho verziu. Skúste to o chvíľu.';

/**
 * A page whose head left ahead of it (streamed) has the policy the head was sent with: styles the
 * render met only later are left out of the HTML (that policy does not admit them), and the
 * browser adds them itself when the page hydrates (a constructed stylesheet, injectAreaStyles).
 */
/** Sends a page's policy, enforced. */
function setPolicy(reply: FastifyReply, policy: string): FastifyReply {
  return reply.header('content-security-policy', policy);
}

function onlyAdmittedStyles(page: RenderedPage): RenderedPage {
  const sent = page.sentHead;
  if (!sent) return page;
  return { ...page, styles: page.styles.filter((style) => sent.styles.some((early) => early.area === style.area)) };
}

export async function shellHost(app: FastifyInstance, options: ShellHostOptions) {
  const { storage } = options;
  const book = options.book ?? originBook(storage);
  const readRegistry = (_storage: ReleaseStorage) => book.read();
  const shellsDir = storage.localPath(SHELLS);
  // Pages rendered here ask the API for their data in-process, through the kernel's own client.
  serveApiInProcess(app);
  const pageRenderer = createPageRenderer({
    storage,
    assetOrigin: options.assetOrigin,
    budget: options.renderBudget,
    integrity: options.integrity,
    renderers: options.renderers,
    log: app.log,
    onFailure: (failure, log) => {
      log.error(
        { render: { part: failure.part, version: failure.version, reason: failure.reason, url: failure.url, message: failure.message } },
        `server render failed in the sandbox (${failure.reason}): ${failure.part} ${failure.version}; the browser renders the page`,
      );
      app.metrics?.renderFailure(failure.part, failure.version, failure.reason);
      options.onRenderFailure?.(failure);
    },
  });
  // No renderer outlives the server (tests close theirs; a stopped server's renderers end with it).
  app.addHook('onClose', async () => pageRenderer.close());
  if (options.serverRender !== false && options.renderers?.warm) {
    void pageRenderer.start().catch((error: unknown) => app.log.error({ err: error }, 'server-render sandbox: renderers did not start'));
  }
  const pageCache = new PageCache(options.pageCacheMs ?? PAGE_CACHE_MS);
  const validators = new PageValidators();
  // An object store's versions are downloaded under its cache: the folder is made here, not by a release.
  if (!storage.local) await mkdir(shellsDir, { recursive: true });
  await app.register(fastifyStatic, { root: shellsDir, serve: false, preCompressed: true, cacheControl: false });
  app.addHook('onSend', async (_request, reply) => dropValidatorsOfImmutable(reply));

  let indexCache: { dir: string; html: string; inline: ShellInline } | null = null;
  const policyOptions: PagePolicyOptions = {
    assetOrigin: options.assetOrigin,
    tagManager: options.gtmId !== null,
    gateway: options.gatewayOrigin ?? null,
    reportTo: options.publicUrl.startsWith('https:'),
  };
  const scripts = options.integrity
    ? pageScripts({
        integrity: options.integrity,
        assetOrigin: options.assetOrigin,
        shopOrigin: options.publicUrl,
        onRefused: options.onRefusedVersion,
      })
    : null;
  /** The shell's page of a version, and the inline scripts and styles its pages have: its own, the config reader's and the consent notice's. */
  async function shellIndex(dir: string) {
    if (indexCache?.dir !== dir) {
      const html = await readFile(join(dir, 'index.html'), 'utf8');
      indexCache = { dir, html, inline: shellInline(html) };
    }
    return indexCache;
  }

  // What browsers load: the versions in force, canaries and their shares; not who moved what or why.
  // From the registry in force, never the origin's file (its export).
  app.get('/builds/latest.json', async (_request, reply) => {
    if (!(await book.exists())) {
      throw notFound('Obchod ešte nemá nasadenú žiadnu verziu.');
    }
    return reply.header('cache-control', 'no-cache').send(publicRegistry(await readRegistry(storage)));
  });

  // A preview link: the one browser that opens it loads the previewed area until it ends, expires or is revoked.
  const previewing = previewHost(app, { storage, book, previews: options.previews ?? null, https: options.publicUrl.startsWith('https:') });
  const shell = shellFiles({ storage, book, check: options.check });

  /** A rendered page compressed here in one piece (the compression plugin leaves an encoded answer alone), each encoding once per kept page. */
  const sendPage = (request: FastifyRequest, reply: FastifyReply, page: CachedPage) => {
    reply.header('vary', 'accept-encoding');
    const encoding = request.method === 'HEAD' ? null : preferredEncoding(request.headers['accept-encoding']);
    const body = encoding ? ((page.encoded ??= {})[encoding] ??= compressedPage(page.html, encoding) ?? undefined) : undefined;
    if (!encoding || !body) return reply.send(page.html);
    return reply.header('content-encoding', encoding).send(body);
  };

  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    // The API's and the pictures' paths answer in the error shape, never with the shop's page; so do the
    // release folders' (in any letter case): this server sends no file of them by those paths; and so
    // does the operator console's, which lives on the operator origin only (operator-app.ts).
    if (/^\/(api|media|remotes|shells|ops)([/\\?]|$)/i.test(request.url)) return notFoundHandler(request, reply);
    // A source map is the shop server's alone (it maps client errors' stacks): never sent, by any path.
    if (isSourceMap(request.url.split(/[?#]/, 1)[0] ?? '')) return notFoundHandler(request, reply);
    // Hashed shell files: /assets/<file>, and the host's own entry at the build's root
    // (/remoteEntry-<hash>.js). Federation chunk names are longer than a route parameter may be.
    const file = /^\/(assets\/)?([\w.-]+\.(?:js|css|svg|woff2))$/.exec(request.url);
    if (file) {
      if (await shell.send(reply, file[1] ? 'assets' : '.', file[2] ?? '')) return reply;
      return reply.code(404).type('text/plain').send('Not found');
    }
    // An old address the operator moved (a page of the shop or not) is answered before anything is rendered or reused.
    const moved = await storedRedirect(request.url);
    if (moved) return reply.header('cache-control', STORED_REDIRECT_CACHE_CONTROL).redirect(moved, 301);
    const registry = await readRegistry(storage);
    const dir = registry.shell ? await releasedFolder(storage, registry.shell.dir) : null;
    if (!dir) return reply.code(503).type('text/plain; charset=utf-8').send('Obchod sa práve nasadzuje. Skúste to o chvíľu.');
    const assetOrigin = options.assetOrigin;
    const shown: PublicRegistry = publicRegistry(registry);
    const previewed = await previewing.served(request, shown);
    let served = previewed?.registry ?? shown;
    // A local override: this browser loads one area from the developer's machine (loopback), checked
    // against the digests its link recorded; no page of it is rendered here (the server cannot reach that build).
    const held = previewed?.preview;
    const local: LocalArea | null = held?.local ? { area: held.area, version: held.version, build: held.local } : null;
    // The page's own scripts come from index.html: the shell's signed one, or no page at all.
    if (options.check && !(await options.check('shell', registry.shell!.version, dir, 'index.html'))) {
      return reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(NOT_TRUSTED);
    }
    const index = await shellIndex(dir);
    // Only signed versions are served, each script with its integrity (the import map), admitted by its hash.
    let importMap = '';
    let importMapHash: string | null = null;
    if (scripts) {
      try {
        const page = await scripts.forPage(registry.shell!.version, served, local);
        served = page.registry;
        importMap = page.importMap;
        importMapHash = page.importMapHash;
      } catch (error) {
        if (!(error instanceof ShellNotTrusted)) throw error;
        request.log.error(
          { err: error, integrity: { part: 'shell', version: registry.shell!.version } },
          'the shell in force has no valid signed manifest; pages are not served',
        );
        return reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(NOT_TRUSTED);
      }
    }

    // The registry rides along (no fetch at boot), and the page's area starts loading with the shell.
    const bucket = canaryBucketOf(request.headers.cookie, options.publicUrl.startsWith('https:'));
    // The switches ride along too: the server renders with the ones the browser then applies.
    // Unreadable (the database away): the page goes out without them; the server still refuses what is off.
    const flags: FlagShares = options.flags
      ? await options.flags().catch((error: unknown) => {
          request.log.error({ err: error }, 'feature switches could not be read; the page carries none');
          return {};
        })
      : {};
    const flagsText = JSON.stringify(flags);
    // A switch on for part of the browsers makes the page depend on this browser's bucket, as a canary does.
    const partlyOn = Object.values(flags).some((area) => Object.values(area).some((share) => share > 0 && share < 100));
    const shownConfig = {
      assetOrigin,
      gtmId: options.gtmId,
      registryPollMs: options.registryPollMs,
      telemetrySample: options.telemetrySample,
      registry: served,
      preview: previewed
        ? {
            area: previewed.preview.area,
            version: previewed.preview.version,
            endPath: `${PREVIEW_PATH}?end=1`,
            ...(local ? { local: local.build.origin } : {}),
          }
        : null,
      flags,
    };
    const pathname = request.url.split('?')[0] ?? '/';
    // The basket page renders this shopper's lines from the basket's cookie (sent to that path only;
    // read nowhere else, so no other page turns private for a request that adds it).
    const basket = pathname === BASKET_COOKIE_PATH ? basketFromCookies(request.headers.cookie) : [];
    const counted = (outcome: string) => app.metrics?.serverRenders.inc({ outcome, page: pageTypeOf(pathname) });
    const routes = routesOf(served);
    const route = matchRoute(routes, pathname);
    // The same for every shopper of these versions, so a page kept by a cache keeps a valid policy: the
    // page's own (import map, Tag Manager where it may run) and the area styles a server render puts in its head.
    const policyWith = (areaStyles: readonly { css: string }[]) =>
      shellPagePolicyFor(index.inline, local ? { ...policyOptions, localOrigin: local.build.origin } : policyOptions, {
        pathname,
        noConsent: route?.noConsent,
        importMapHash,
        areaStyles,
      });
    const policy = policyWith([]);
    // A local area's files are not on the origin: its page loads them when the shell asks, nothing is preloaded.
    const preloaded = local ? { ...served, areas: { ...served.areas, [local.area]: undefined } } : served;
    const preload = await areaPreloadLinks({ storage, registry: preloaded, routes, pathname, assetOrigin });
    const script = `${importMap}<script type="application/json" id="${CONFIG_ID}">${JSON.stringify(shownConfig).replace(/</g, '\\u003c')}</script>${CONFIG_READER}`;
    const firstFrame = consentFirstFrame(request.url, route?.noConsent === true);
    // The bucket matters only while a canary runs or a switch is on for part of the browsers.
    const bucketMatters = Object.keys(served.canaries ?? {}).length > 0 || partlyOn;
    // The page is the same for every visitor (nothing of the shopper is in it), so a CDN may keep it
    // as briefly as the server does; during a canary or a preview it depends on this browser's cookie,
    // and the basket page with the basket's cookie is this shopper's alone.
    const shared = !previewed && !bucketMatters && basket.length === 0;
    reply
      .header('cache-control', shared ? sharedHtmlCacheControl(options.pageCacheMs ?? PAGE_CACHE_MS) : 'private, no-cache')
      .type('text/html; charset=utf-8');
    setPolicy(reply, policy);
    if (policyOptions.reportTo) reply.header('reporting-endpoints', REPORTING_ENDPOINTS);

    // A public page comes rendered (crawlers, link previews, a fast first paint); any other renders in the browser.
    const cacheKey =
      previewed || basket.length > 0
        ? null
        : [request.url, served.revision, bucketMatters ? (bucket ?? '-') : '', catalogVersion(), flagsText].join('\u0000');
    // A kept copy (nginx's, a CDN's, a browser's) whose page has not changed is confirmed without a render.
    const validator =
      shared && options.serverRender !== false ? validators.forPage(request.url, [dir, policy, script, preload, firstFrame]) : null;
    const confirmed = validator?.confirmed(request.headers['if-none-match']);
    if (confirmed) {
      counted('revalidated');
      // The kept copy keeps the policy it came with (it admits that copy's styles): a 304 names none.
      reply.removeHeader('content-security-policy');
      return reply.code(304).header('etag', confirmed).header('vary', 'accept-encoding').send();
    }
    const cached = cacheKey && options.serverRender !== false ? pageCache.get(cacheKey) : null;
    if (cached) {
      counted('cached');
      const keptTag = validator?.keptTag();
      if (keptTag) reply.header('etag', keptTag);
      // The policy the page was kept with: it admits exactly that page's import map.
      return sendPage(request, setPolicy(reply.code(cached.status), cached.policy).header('x-page-cache', 'hit'), cached);
    }
    const config = script + preload;
    if (validator) reply.header('etag', validator.tag);
    // Set once the head has left ahead of the page: the rest is written into it, under the head's policy.
    let streamed: ReturnType<typeof compressingStream> | null = null;
    let headPolicy = policy;
    try {
      if (options.serverRender === false) throw new NotServerRendered('server rendering is off (SERVER_RENDER=off)');
      if (local) throw new NotServerRendered(`a local override of ${local.area}: this browser renders its pages`);
      const rendered = await pageRenderer.render({
        url: request.url,
        registry: served,
        shellDir: dir,
        bucket,
        // The render's switches use this browser's bucket; the page embeds the table, never the bucket.
        config: { ...shownConfig, bucket },
        basket,
        origin: options.publicUrl,
        requestId: request.id,
        log: validator ? validator.watch(request.log) : request.log,
        onHead: (head) => {
          const encoding = preferredEncoding(request.headers['accept-encoding']);
          streamed = compressingStream(encoding);
          if (encoding) reply.header('content-encoding', encoding);
          headPolicy = policyWith(head.styles);
          setPolicy(reply, headPolicy);
          reply.header('vary', 'accept-encoding').code(200).header('x-page-cache', 'miss').send(streamed.stream);
          streamed.stream.write(documentStart({ template: index.html, head, publicUrl: options.publicUrl, config }));
          streamed.flush();
        },
      });
      const page = onlyAdmittedStyles(rendered);
      counted(page.status === 404 ? 'not_found' : 'rendered');
      validator?.rendered(page.embedded);
      const rest = documentRest({ template: index.html, page, afterRoot: firstFrame });
      // The document is built once: the answer and the cache's copy are the same text when the head did not leave ahead.
      const html = streamed ? null : documentStart({ template: index.html, head: page, publicUrl: options.publicUrl, config }) + rest;
      if (html === null) {
        if (cacheKey)
          pageCache.set(cacheKey, {
            status: page.sentHead ? 200 : page.status,
            policy: headPolicy,
            html: serverRenderedHtml({ template: index.html, page, publicUrl: options.publicUrl, config, afterRoot: firstFrame }),
          });
        (streamed as unknown as ReturnType<typeof compressingStream>).stream.end(rest);
        return reply;
      }
      const renderedPolicy = policyWith(page.styles);
      const kept: CachedPage = { status: page.status, policy: renderedPolicy, html, encoded: {} };
      if (cacheKey) pageCache.set(cacheKey, kept);
      return sendPage(request, setPolicy(reply.code(page.status).header('x-page-cache', 'miss'), renderedPolicy), kept);
    } catch (error) {
      const expected = error instanceof NotServerRendered;
      // A failure in the sandbox was logged with its part and version where it was recorded.
      if (!expected && !(error instanceof RenderFailed))
        request.log.error({ err: error, url: request.url }, 'server render failed; the browser renders the page');
      counted(expected ? 'browser' : 'fallback');
      // A page the server meant to render but could not is not worth keeping in a shared cache, nor confirmed by its tag.
      if (!expected && !streamed) reply.header('cache-control', 'private, no-cache').removeHeader('etag');
      if (streamed) {
        // The head has left: the page follows as the browser renders it.
        (streamed as ReturnType<typeof compressingStream>).stream.end(documentRestInBrowser(index.html, firstFrame));
        return reply;
      }
    }
    const html = index.html.replace('<!--shop-config-->', config).replace('<div id="root"></div>', `<div id="root">${firstFrame}</div>`);
    return reply.send(html);
  };
  // The first frame's consent form (works without JavaScript): the same cookies the shell's notice sets.
  app.register(async (form) => {
    form.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: CONSENT_BODY_LIMIT },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
    form.post('/consent', async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (body.choice !== 'all' && body.choice !== 'none') {
        throw new ApiError(400, 'bad_request', 'Vyberte, či cookies prijímate alebo odmietate.');
      }
      return reply
        .header('set-cookie', consentCookies(body.choice, request.protocol === 'https'))
        .redirect(safeBackPath(body.back, options.publicUrl), 303);
    });
  });
  app.get('/', sendIndex);
  app.get('/*', sendIndex);
}
