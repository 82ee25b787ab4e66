/**
 * What crawlers and price comparators read, at the shop's root: robots.txt, the sitemap index and
 * its files, and the Heureka.sk and Google Merchant Center product feeds. Addresses are absolute
 * with the configured public origin, never the request's Host. Cached briefly by browsers and CDNs.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ApiDeps } from '../../../infra/deps.ts';
import { ApiError, notFound } from '../../../infra/http/errors.ts';
import { SeoRepository } from './seo.repository.ts';
import {
  brandsSitemap,
  categoriesSitemap,
  pagesSitemap,
  productFileCount,
  productsSitemap,
  sitemapIndex,
  SITEMAP_URLS_PER_FILE,
} from './sitemap.ts';
import { googleFeed, heurekaFeed } from './feeds.ts';

const CACHE = 'public, max-age=300';
/** Streams over the whole catalog (feeds, product sitemaps) at once; more are told to come back (429). */
export const MAX_CATALOG_STREAMS = 2;
const XML = 'application/xml; charset=utf-8';
/** The shop's icon, the one the shell's pages name (shell/index.html). */
const FAVICON_SVG =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><rect width='16' height='16' rx='3' fill='#9a3412'/></svg>";

export type SeoOptions = ApiDeps & {
  /** Addresses per sitemap file (the protocol allows 50,000; tests use fewer). */
  urlsPerFile?: number;
};

export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /checkout',
    'Disallow: /account',
    'Disallow: /ops',
    'Disallow: /search',
    'Disallow: /pdf',
    'Disallow: /generate',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

export const seoRoutes: FastifyPluginAsync<SeoOptions> = async (app, options) => {
  const origin = options.publicUrl;
  const perFile = options.urlsPerFile ?? SITEMAP_URLS_PER_FILE;
  const repo = new SeoRepository(options.db);
  // A stream reads the whole catalog: comparators fetch it now and then, so a few at once is plenty,
  // and a flood of requests gets a quick 429 instead of holding the database.
  let streaming = 0;
  const xml = (reply: FastifyReply, body: string | AsyncGenerator<string>) => {
    if (typeof body !== 'string' && reply.request.method === 'HEAD') {
      // The headers alone: the catalog is not read. Given the stream, Fastify would drain it after
      // answering, and its slot would stay taken past the answer (a request right after got a 429).
      void body.return(undefined);
      return reply.header('cache-control', CACHE).type(XML).send(Readable.from([]));
    }
    if (typeof body !== 'string' && streaming >= MAX_CATALOG_STREAMS) {
      void body.return(undefined);
      reply.header('retry-after', '60').header('cache-control', 'no-store');
      throw new ApiError(429, 'rate_limited', 'Súbor sa práve pripravuje pre iného klienta. Skúste to o minútu znova.');
    }
    reply.header('cache-control', CACHE).type(XML);
    if (typeof body === 'string') return reply.send(body);
    streaming += 1;
    const stream = Readable.from(body);
    stream.once('close', () => (streaming -= 1));
    return reply.send(stream);
  };

  // Browsers ask for it on a page without an icon of its own (an invoice PDF, an answer of the API opened in a tab).
  app.get('/favicon.ico', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(FAVICON_SVG),
  );

  app.get('/robots.txt', async (_request, reply) =>
    reply.header('cache-control', CACHE).type('text/plain; charset=utf-8').send(robotsTxt(origin)),
  );

  app.get('/sitemap.xml', async (_request, reply) =>
    xml(reply, sitemapIndex(origin, productFileCount(await repo.productCount(), perFile))),
  );
  app.get('/sitemaps/pages.xml', async (_request, reply) => xml(reply, await pagesSitemap(repo, origin)));
  app.get('/sitemaps/categories.xml', async (_request, reply) => xml(reply, await categoriesSitemap(repo, origin)));
  app.get('/sitemaps/brands.xml', async (_request, reply) => xml(reply, await brandsSitemap(repo, origin)));
  app.get<{ Params: { file: string } }>(
    '/sitemaps/products-:file.xml',
    { schema: { params: { type: 'object', required: ['file'], properties: { file: { type: 'string', pattern: '^[1-9][0-9]{0,4}$' } } } } },
    async (request, reply) => {
      const stream = await productsSitemap(repo, origin, Number(request.params.file), perFile);
      if (!stream) throw notFound('Takýto súbor mapy stránok neexistuje.');
      return xml(reply, stream);
    },
  );

  app.get('/feeds/heureka.xml', async (_request, reply) => xml(reply, heurekaFeed(repo, origin)));
  app.get('/feeds/google.xml', async (_request, reply) => xml(reply, googleFeed(repo, origin, 'Stavebniny Domov')));
};
