/**
 * The operator console's files on the operator origin: its HTML at `/ops` (and every `/ops/…` page of
 * the console, which routes in the browser) and its built scripts and styles at `/ops/assets/…`
 * (server/console, built by `npm run build`). Nothing of the shell or an area is served here.
 *
 * Every answer of the operator origin carries the console's own policy: scripts, styles, connections
 * and images from this origin only (the QR code is a data: image), no inline script, no frame, no
 * plugin, forms to this origin, never framed, Trusted Types with no policy (no script builds HTML).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError, notFound } from '../infra/http/errors.ts';
import { apiDir } from '../infra/paths.ts';

/** Where `npm run build` puts the console (server/console/dist). */
export const CONSOLE_DIST = join(apiDir, 'console', 'dist');

export const CONSOLE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "frame-src 'none'",
  "object-src 'none'",
  "worker-src 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};
/** A built asset's name: Vite's hashed file names, nothing that could climb out of the folder. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,120}$/;

const NOT_BUILT = 'Konzola operátora nie je zostavená. Spustite npm run build (alebo npm start).';

/** Serves the console from `dir` (default CONSOLE_DIST) and sets the console's policy on every answer of `app`. */
export function operatorConsole(app: FastifyInstance, options: { dir?: string } = {}): void {
  const dir = options.dir ?? CONSOLE_DIST;
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('content-security-policy', CONSOLE_POLICY).header('cross-origin-resource-policy', 'same-origin');
  });

  const page = async () => {
    const html = await readFile(join(dir, 'index.html'), 'utf8').catch(() => null);
    if (html === null) throw new ApiError(503, 'internal', NOT_BUILT);
    return html;
  };
  const showConsole = async (reply: FastifyReply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(await page());
  app.get('/', async (_request, reply) => reply.redirect('/ops', 302));
  // The console names no icon; a browser asks for one anyway (an answer of the API opened in a tab).
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).header('cache-control', 'public, max-age=86400').send());
  app.get('/ops', async (_request, reply) => showConsole(reply));
  app.get('/ops/*', async (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    if (!rest.startsWith('assets/')) return showConsole(reply);
    const name = rest.slice('assets/'.length);
    const type = TYPES[name.slice(name.lastIndexOf('.'))];
    if (!ASSET_NAME.test(name) || !type) throw notFound('Súbor konzoly neexistuje.');
    const bytes = await readFile(join(dir, 'assets', name)).catch(() => null);
    if (!bytes) throw notFound('Súbor konzoly neexistuje.');
    return reply.type(type).header('cache-control', 'public, max-age=31536000, immutable').send(bytes);
  });
}
