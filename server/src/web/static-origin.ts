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
 */
import { mkdir } from 'node:fs/promises';
import { relative } from 'node:path';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isArea, isVersionName, type AreaName, type ReleaseStorage, isSafeBuildPath } from '@shop/release';
import type { ReleasedFileCheck } from './verified-files.ts';
import { releasedFolder } from './released-folder.ts';
import { addSecurityHeaders } from '../infra/http/security-headers.ts';

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

/** The longest URL path the object store's files are looked up for (area, version and a build's file path). */
const MAX_PATH = 700;

/**
 * The area, version and file a `/remotes/…` URL names, or null when it names none a release
 * could have made (checked before anything is looked up): a known area, a version name, a file
 * path as uploads accept them (no `.` or `..` step, no encoded slash).
 */
export function releasedFileOf(url: string): { area: string; version: string; file: string } | null {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  if (path.length > MAX_PATH || !path.startsWith('/remotes/')) return null;
  let segments: string[];
  try {
    segments = path
      .slice('/remotes/'.length)
      .split('/')
      .map((segment) => decodeURIComponent(segment));
  } catch {
    return null;
  }
  const [area, version, ...rest] = segments;
  if (!area || !version || rest.length === 0 || !isArea(area) || !isVersionName(version)) return null;
  if (rest.some((segment) => segment.includes('/'))) return null;
  const file = rest.join('/');
  return isSafeBuildPath(file) ? { area, version, file } : null;
}

/** The answer for a released file whose bytes are not the ones signed (or of a version without a valid signature). */
export const NOT_AS_RELEASED = { error: { code: 'not_found', message: 'Súbor sa nezhoduje s podpísaným vydaním.' } } as const;

export async function buildStaticOrigin(options: { storage: ReleaseStorage; logger: FastifyBaseLogger; check: ReleasedFileCheck | null }) {
  const { storage } = options;
  /** `<origin>/remotes`, or its copy in an object store's cache. */
  const root = storage.localPath('remotes');
  // Its failures go to the shop's log (one line per 5xx); ordinary file answers are not logged.
  const origin = Fastify({
    loggerInstance: options.logger.child({ server: 'static-origin' }),
    logController: new LogController({ disableRequestLogging: true }),
  });
  origin.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 500) request.log.error({ url: request.url, status: reply.statusCode }, 'static origin request failed');
  });
  // The areas' files are the shop's scripts: the same headers as every answer of the shop (the CDN's TLS sets HSTS).
  addSecurityHeaders(origin, { hsts: false });
  // A missing file answers 404 with CORS too, so the browser reports the 404 and not a CORS error.
  origin.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('access-control-allow-origin')) reply.header('access-control-allow-origin', '*');
  });
  const { check } = options;
  if (check) {
    // Before any file is sent: only the bytes the version's signed manifest lists leave this origin.
    origin.addHook('onRequest', async (request, reply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      const named = releasedFileOf(request.raw.url ?? '');
      if (!named) return;
      const key = `remotes/${named.area}/${named.version}`;
      const dir = storage.local ? storage.localPath(key) : await releasedFolder(storage, key);
      if (await check(named.area as AreaName, named.version, dir, named.file)) return;
      return reply.code(404).header('cache-control', 'no-store').send(NOT_AS_RELEASED);
    });
  }
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
