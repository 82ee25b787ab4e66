/**
 * The static origin of the areas: each build under its immutable, versioned
 * path remotes/<area>/<version>/. Hashed chunks are cached for a year; entry,
 * manifest and metadata files are revalidated on every use. CORS lets the
 * shell's origin load them as ES modules.
 */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { join } from 'node:path';

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

export async function buildStaticOrigin(options: { originDir: string; logger: FastifyBaseLogger }) {
  // Its failures go to the shop's log (one line per 5xx); ordinary file answers are not logged.
  const origin = Fastify({ loggerInstance: options.logger.child({ server: 'static-origin' }), logController: new LogController({ disableRequestLogging: true }) });
  origin.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 500) request.log.error({ url: request.url, status: reply.statusCode }, 'static origin request failed');
  });
  // A missing file answers 404 with CORS too, so the browser reports the 404 and not a CORS error.
  origin.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('access-control-allow-origin')) reply.header('access-control-allow-origin', '*');
  });
  await origin.register(fastifyStatic, {
    root: join(options.originDir, 'remotes'),
    prefix: '/remotes/',
    preCompressed: true,
    cacheControl: false,
    setHeaders(response, path) {
      response.setHeader('access-control-allow-origin', '*');
      response.setHeader('cache-control', /[\\/]assets[\\/]/.test(path) ? IMMUTABLE : 'no-cache');
      response.setHeader('vary', 'accept-encoding');
    },
  });
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
