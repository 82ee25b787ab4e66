/**
 * Server-rendered pages under load on the generated catalogue, every URL
 * distinct as shoppers and crawlers send them: the URLs come from the
 * shop's own sitemap (every category and product), mixed as
 * - 50 % product pages, a fifth of the products getting four fifths of them;
 * - 40 % category listings over every category, pages 1–20 and every sort;
 * - 10 % search result pages over a few hundred words from product names.
 * Measured with the server's caches on (the 5 s page cache and the API's
 * response cache) and off (SERVER_CACHE=off), at the same connections.
 */
import { startShop } from './shop-server.ts';
import { grownCatalogue, runScenarios, type LoadResult } from './api-load.ts';
import { listingQuery, picker, random, sitemapPaths, SORTS } from './url-sets.ts';

const MIX_SIZE = 40_000;

/** The page mix: distinct URLs in the proportions above, in a shuffled order. */
export async function pageMix(base: string): Promise<{ paths: string[]; products: number; categories: number; words: number }> {
  const all = await sitemapPaths(base);
  const products = all.filter((path) => path.startsWith('/p/'));
  const categories = all.filter((path) => path.startsWith('/c/'));
  const words = [
    ...new Set(
      products.flatMap((path) =>
        path
          .slice(3)
          .split('-')
          .filter((word) => /^[a-z]{4,}$/.test(word)),
      ),
    ),
  ].slice(0, 400);
  if (products.length === 0 || categories.length === 0) throw new Error('the sitemap lists no products or categories');
  const next = random(2026);
  const { pick, skewed } = picker(next);
  const paths: string[] = [];
  for (let i = 0; i < MIX_SIZE; i += 1) {
    const roll = next();
    if (roll < 0.5) paths.push(skewed(products));
    else if (roll < 0.9) {
      const query = listingQuery(1 + Math.floor(next() * 20), pick(SORTS));
      paths.push(`${pick(categories)}${query ? `?${query}` : ''}`);
    } else paths.push(`/search/${encodeURIComponent(next() < 0.5 ? pick(words) : `${pick(words)} ${pick(words)}`)}`);
  }
  return { paths, products: products.length, categories: categories.length, words: words.length };
}

export type PageLoad = { rows: LoadResult[]; distinct: number; products: number; categories: number; words: number };

export async function runPageLoad(options: { port: number; products: number; connections: number; seconds: number }): Promise<PageLoad> {
  const { name } = grownCatalogue(options.products);
  const rows: LoadResult[] = [];
  let mix: Awaited<ReturnType<typeof pageMix>> | null = null;
  for (const cache of ['on', 'off'] as const) {
    // A web server (ROLE=web): the jobs of the orders placed by the API rows before are a worker's.
    const shop = await startShop({
      port: options.port,
      name,
      cpu: '0',
      keepData: true,
      env: { ROLE: 'web', ...(cache === 'off' ? { SERVER_CACHE: 'off' } : {}) },
    });
    try {
      mix ??= await pageMix(shop.base);
      // Accept-Encoding as a browser sends it: the pages leave compressed, as they do for shoppers.
      const headers = { 'accept-encoding': 'br, gzip', accept: 'text/html' };
      // Warmed up first (as long as one row, not counted): a just-started server is slower to compile and read.
      runScenarios(shop, [{ name: `warm-up (not counted), cache ${cache}`, paths: [...mix.paths].reverse(), headers }], options);
      rows.push(...runScenarios(shop, [{ name: `server-rendered pages, cache ${cache}`, paths: mix.paths, headers }], options));
    } finally {
      await shop.stop();
    }
  }
  return { rows, distinct: new Set(mix!.paths).size, products: mix!.products, categories: mix!.categories, words: mix!.words };
}
