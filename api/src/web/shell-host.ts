/**
 * Serves the shell in force on the shop's own origin: its hashed assets
 * (immutable, older versions kept for open tabs), the release registry
 * (never cached), and index.html with the runtime configuration for every
 * other GET, so client-side routes work on a deep link and a reload.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { notFoundHandler } from '../lib/error-handler.ts';
import { readRegistry, REGISTRY_KEY } from '../release/registry.ts';
import { localDirectoryStorage } from '../release/storage.ts';
import { areaPreloadLinks, type ShellRoute } from './route-preload.ts';
import { consentCookies, consentFirstFrame, safeBackPath } from './consent-frame.ts';
import { dropValidatorsOfImmutable, IMMUTABLE } from './static-origin.ts';

export type ShellHostOptions = {
  originDir: string;
  /** Origin of the areas (the static origin or a CDN), from configuration. */
  assetOrigin: string;
  gtmId: string | null;
  registryPollMs: number;
};

const SAFE_ASSET = /^[\w.-]+$/;

async function exists(path: string) {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

export async function shellHost(app: FastifyInstance, options: ShellHostOptions) {
  const shellsDir = join(options.originDir, 'shells', 'shell');
  const storage = localDirectoryStorage(options.originDir);
  await app.register(fastifyStatic, { root: shellsDir, serve: false, preCompressed: true, cacheControl: false });
  app.addHook('onSend', async (_request, reply) => dropValidatorsOfImmutable(reply));

  let indexCache: { dir: string; html: string; routes: ShellRoute[] } | null = null;
  async function currentShellDir(): Promise<string | null> {
    const registry = await readRegistry(storage);
    return registry.shell ? join(options.originDir, registry.shell.dir) : null;
  }
  async function shellIndex(dir: string) {
    if (indexCache?.dir !== dir) {
      const routes = await readFile(join(dir, 'routes.json'), 'utf8').then(
        (text) => (JSON.parse(text) as { routes?: ShellRoute[] }).routes ?? [],
        () => [],
      );
      indexCache = { dir, html: await readFile(join(dir, 'index.html'), 'utf8'), routes };
    }
    return indexCache;
  }

  app.get('/builds/latest.json', async (_request, reply) => {
    const body = await storage.readText(REGISTRY_KEY);
    if (body === null) return reply.code(404).send({ error: { code: 'not_found', message: 'Obchod ešte nemá nasadenú žiadnu verziu.' } });
    return reply.header('cache-control', 'no-cache').type('application/json').send(body);
  });

  /** Sends a hashed shell file from the version in force, or from an older one for open tabs. */
  async function sendShellFile(reply: FastifyReply, folder: string, file: string): Promise<boolean> {
    if (!SAFE_ASSET.test(file)) return false;
    const current = await currentShellDir();
    const versions = await readdir(shellsDir).catch(() => [] as string[]);
    const candidates = [current, ...versions.map((version) => join(shellsDir, version))].filter(Boolean) as string[];
    for (const dir of candidates) {
      if (await exists(join(dir, folder, file))) {
        reply.header('cache-control', IMMUTABLE);
        await reply.sendFile(file, join(dir, folder));
        return true;
      }
    }
    return false;
  }

  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.startsWith('/api/') || request.url === '/api') {
      return notFoundHandler(request, reply);
    }
    // Hashed shell files: /assets/<file>, and the host's own entry at the build's root
    // (/remoteEntry-<hash>.js). Federation chunk names are longer than a route parameter may be.
    const file = /^\/(assets\/)?([\w.-]+\.(?:js|css|svg|woff2))$/.exec(request.url);
    if (file) {
      if (await sendShellFile(reply, file[1] ? 'assets' : '.', file[2] ?? '')) return reply;
      return reply.code(404).type('text/plain').send('Not found');
    }
    const registry = await readRegistry(storage);
    const dir = registry.shell ? join(options.originDir, registry.shell.dir) : null;
    if (!dir) return reply.code(503).type('text/plain; charset=utf-8').send('Obchod sa práve nasadzuje. Skúste to o chvíľu.');
    const assetOrigin = options.assetOrigin;
    // The registry rides along (no fetch at boot), and the page's area starts loading with the shell.
    const config = { assetOrigin, gtmId: options.gtmId, registryPollMs: options.registryPollMs, registry: { revision: registry.revision, areas: registry.areas } };
    const index = await shellIndex(dir);
    const pathname = request.url.split('?')[0] ?? '/';
    const preload = await areaPreloadLinks({ originDir: options.originDir, registry, routes: index.routes, pathname, assetOrigin });
    const script = `<script>window.__SHOP__=${JSON.stringify(config).replace(/</g, '\\u003c')}</script>`;
    const html = index.html
      .replace('<!--shop-config-->', script + preload)
      .replace('<div id="root"></div>', `<div id="root">${consentFirstFrame(request.headers.cookie, request.url)}</div>`);
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  };
  // The first frame's consent form (works without JavaScript): the same cookies the shell's notice sets.
  app.register(async (form) => {
    form.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    form.post('/consent', async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (body.choice !== 'all' && body.choice !== 'none') {
        return reply.code(400).send({ error: { code: 'bad_request', message: 'Vyberte, či cookies prijímate alebo odmietate.' } });
      }
      return reply.header('set-cookie', consentCookies(body.choice, request.protocol === 'https')).redirect(safeBackPath(body.back), 303);
    });
  });
  app.get('/', sendIndex);
  app.get('/*', sendIndex);
}
