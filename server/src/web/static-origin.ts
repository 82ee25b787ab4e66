/**
 * The static origin of the areas: each build under its immutable, versioned
 * path remotes/<area>/<version>/. Hashed chunks are cached for a year; entry,
 * manifest and metadata files are revalidated on every use. CORS lets the
 * shell's origin load them as ES modules.
 *
 * On the local directory the files are served from `<origin>/remotes` as they
 * are. On an object store, the first request for a version downloads its whole
 * folder into the storage's cache (requests at the same time wait for that one
 * download; a version folder never changes, so it is kept), and every file is
 * then sent from there, with the same headers.
 *
 * Only released files leave it: the canonical path of a file a version's valid signed manifest
 * lists (or of its compressed copy), while its bytes are the signed ones (verified-files.ts), but
 * never a source map (`*.map`, read by the shop's server alone). Any other path, spelling or method
 * is a 404 in the shop's error shape, looked up nowhere.
 */
import { mkdir } from 'node:fs/promises';
import { relative } from 'node:path';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isArea, isVersionName, type AreaName, type ReleaseStorage, isSafeBuildPath, isSourceMap } from '@shop/release';
import type { ReleasedFileCheck } from './verified-files.ts';
import { releasedFolder } from '../infra/storage/released-folder.ts';
import { addSecurityHeaders } from '../infra/http/security-headers.ts';
import { errorHandler, notFoundHandler } from '../infra/http/error-handler.ts';
import { frameworkErrorOptions } from '../infra/http/framework-errors.ts';
import { notFound } from '../infra/http/errors.ts';

/** Cache-Control of content-hashed files (shell and areas). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * A hashed file cached as immutable is never revalidated, so its validators
 * (ETag, Last-Modified) are dead weight on every one of the page's many chunks.
 */
export function dropValidatorsOfImmutable(reply: FastifyReply): void {
  if (reply.getHeader('cache-control') !== IMMUTABLE) return;
  reply.removeHeader('etag');
  reply.removeHeader('last-modified');
}

/** The longest URL path of a released file (area, version and a build's file path). */
const MAX_PATH = 700;
/**
 * A released file's URL path exactly as the shop writes it: `/remotes/<area>/<version>/<file>`, every
 * character one a release's names are made of. No escape (`%2e`, `%2f`, `%00`…), no `\`, no empty,
 * `.` or `..` step: there is one spelling of each file, and only that one is ever sent.
 */
const CANONICAL = /^\/remotes\/([a-z]+)\/([0-9A-Za-z.+-]{1,64})\/((?:[\w.-]+\/){0,6}[\w.-]+)$/;

/**
 * The area, version and file a `/remotes/…` URL names in its one canonical spelling (the query is
 * not part of it), or null: checked before anything is looked up. A known area, a version name, a
 * file path as uploads accept them.
 */
export function releasedFileOf(url: string): { area: string; version: string; file: string } | null {
  const path = url.split('?', 1)[0] ?? '';
  if (path.length > MAX_PATH) return null;
  const [, area, version, file] = CANONICAL.exec(path) ?? [];
  if (!area || !version || !file || !isArea(area) || !isVersionName(version) || !isSafeBuildPath(file)) return null;
  return { area, version, file };
}

/** The answer for anything that is not a released file's canonical path (or not a file of a signed manifest). */
export const NOT_RELEASED = 'Súbor nie je súčasťou žiadneho vydania obchodu.';
/** The answer for a released file whose bytes are not the ones signed (or of a version without a valid signature). */
export const NOT_AS_RELEASED = 'Súbor sa nezhoduje s podpísaným vydaním.';

type ReleasedFilesOptions = { storage: ReleaseStorage; check: ReleasedFileCheck | null };

/** The areas' static origin on its own port (ASSET_PORT), where a CDN (ASSET_ORIGIN) takes them from. */
export async function buildStaticOrigin(options: ReleasedFilesOptions & { logger: FastifyBaseLogger }) {
  // Its failures go to the shop's log (one line per 5xx); ordinary file answers are not logged.
  const origin = Fastify({
    ...frameworkErrorOptions,
    loggerInstance: options.logger.child({ server: 'static-origin' }),
    logController: new LogController({ disableRequestLogging: true }),
  });
  origin.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 500) request.log.error({ url: request.url, status: reply.statusCode }, 'static origin request failed');
  });
  // The areas' files are the shop's scripts: the same headers as every answer of the shop (the CDN's TLS sets HSTS).
  addSecurityHeaders(origin, { hsts: false });
  // Every refusal in the shop's error shape: nothing of this origin answers in the framework's words.
  origin.setErrorHandler(errorHandler);
  origin.setNotFoundHandler(notFoundHandler);
  await releasedFiles(origin, options);
  origin.options('/*', async (_request, reply) =>
    reply
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-methods', 'GET, HEAD, OPTIONS')
      .header('access-control-max-age', '86400')
      .code(204)
      .send(),
  );
  return origin;
}

/**
 * The same released files on the shop's own origin, under the same canonical paths: where the
 * shell falls back when the asset origin (a CDN) cannot be reached. The same checks and bytes; the
 * page's import map names these paths with the same digests, so the browser checks them as well.
 * Registered in a context of its own (its hooks, error handler and file server stay there).
 */
export async function releasedFilesOnShopOrigin(app: FastifyInstance, options: ReleasedFilesOptions): Promise<void> {
  // Refusals in the shop's error shape by the shop's own handlers; the shop's pages ask with no preflight.
  await app.register(async (scope) => releasedFiles(scope, options));
}

async function releasedFiles(origin: FastifyInstance, options: ReleasedFilesOptions) {
  const { storage } = options;
  /** `<origin>/remotes`, or its copy in an object store's cache. */
  const root = storage.localPath('remotes');
  // A missing file answers 404 with CORS too, so the browser reports the 404 and not a CORS error.
  // A refusal is never kept by a CDN: the file may be put right, or be released, a moment later.
  origin.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('access-control-allow-origin')) reply.header('access-control-allow-origin', '*');
    if (reply.statusCode >= 400) reply.header('cache-control', 'no-store');
  });
  const { check } = options;
  // Before anything is looked up or sent: this origin sends released files, by their one spelling,
  // and only the bytes the version's signed manifest lists. Whatever else is asked for is a 404 here
  // (the static server would otherwise resolve `//`, `./` or an escape to a file and send it).
  origin.addHook('onRequest', async (request) => {
    if (request.method === 'OPTIONS') return;
    const named = releasedFileOf(request.raw.url ?? '');
    // A source map is released for the shop's server alone (client errors' stacks): no browser gets one.
    if (!named || isSourceMap(named.file)) throw notFound(NOT_RELEASED);
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    if (check) {
      const area = named.area as AreaName;
      if (!(await check.released(area, named.version, named.file))) throw notFound(NOT_RELEASED);
      const key = `remotes/${named.area}/${named.version}`;
      const dir = storage.local ? storage.localPath(key) : await releasedFolder(storage, key);
      if (!(await check(area, named.version, dir, named.file))) throw notFound(NOT_AS_RELEASED);
    }
  });
  const files = {
    root,
    preCompressed: true,
    cacheControl: false,
    setHeaders(response: { setHeader(name: string, value: string): unknown }, path: string) {
      response.setHeader('access-control-allow-origin', '*');
      // Hashed chunks sit in a build's assets/ (the path below the root: the root's own names do not count).
      response.setHeader('cache-control', /(?:^|[\\/])assets[\\/]/.test(relative(root, path)) ? IMMUTABLE : 'no-cache');
      response.setHeader('vary', 'accept-encoding');
    },
  };
  if (storage.local) {
    await origin.register(fastifyStatic, { ...files, prefix: '/remotes/' });
  } else {
    // The same sending (precompressed siblings, headers, 404s) from the cache, after the version's download.
    await mkdir(root, { recursive: true });
    await origin.register(fastifyStatic, { ...files, serve: false });
    origin.route({
      method: ['HEAD', 'GET'],
      url: '/remotes/*',
      handler: async (request, reply) => {
        const named = releasedFileOf(request.raw.url ?? '');
        if (!named) return reply.callNotFound();
        const dir = await releasedFolder(storage, `remotes/${named.area}/${named.version}`);
        return reply.sendFile(named.file, dir);
      },
    });
  }
  origin.addHook('onSend', async (_request, reply) => dropValidatorsOfImmutable(reply));
}
