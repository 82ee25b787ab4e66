/**
 * Server-rendered pages under load on the generated catalog, every URL
 * distinct as shoppers and crawlers send them: the URLs come from the
 * shop's own sitemap (every category and product), mixed as
 * - 50 % product pages, a fifth of the products getting four fifths of them;
 * - 40 % category listings over every category, pages 1–20 and every sort;
 * - 10 % search result pages over a few hundred words from product names.
 * Measured with the server's caches on (the 5 s page cache and the API's
 * response cache) and off (SERVER_CACHE=off), at the same connections.
 */
import { median, startShop } from './shop-server.ts';
import { grownCatalog, runScenarios, type LoadResult } from './api-load.ts';
import { cpuWithChildren } from './processes.ts';
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
  const { name } = grownCatalog(options.products);
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

/** The render comparison's ways of rendering: the server's environment for each. */
export const RENDER_MODES = [
  { name: 'in-process (benchmark only)', env: { RENDER_IN_PROCESS_FOR_BENCH: '1' } },
  { name: 'sandbox, 1 renderer', env: { RENDERERS: '1' } },
  { name: 'sandbox, 2 renderers', env: { RENDERERS: '2' } },
] as const;

export type RenderModeRow = {
  name: string;
  pagesPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  cpuMsPerPage: number;
  runs: number[];
};

/**
 * Server-rendered pages, cache off, 50 connections, distinct URLs: today's in-process render
 * (RENDER_IN_PROCESS_FOR_BENCH, refused by `npm start`) against the sandbox with 1 and 2 renderer
 * processes. The server and its renderers may use both cores (the load generator runs on core 1);
 * the modes alternate, `rounds` runs each, and each row is the medians of its runs. CPU per page:
 * the server and its renderers (user + system, /proc), over the measured run.
 */
export async function runRenderComparison(options: {
  port: number;
  products: number;
  connections: number;
  seconds: number;
  rounds: number;
}) {
  const { name } = grownCatalog(options.products);
  const runs = new Map<string, { rps: number; p50: number; p99: number; errors: number; cpu: number }[]>();
  let mix: Awaited<ReturnType<typeof pageMix>> | null = null;
  const headers = { 'accept-encoding': 'br, gzip', accept: 'text/html' };
  for (let round = 0; round < options.rounds; round += 1) {
    for (const mode of RENDER_MODES) {
      const shop = await startShop({ port: options.port, name, keepData: true, env: { ROLE: 'web', SERVER_CACHE: 'off', ...mode.env } });
      try {
        mix ??= await pageMix(shop.base);
        runScenarios(shop, [{ name: `warm-up (not counted), ${mode.name}`, paths: [...mix.paths].reverse(), headers }], options);
        const before = cpuWithChildren(shop.pid);
        const [row] = runScenarios(shop, [{ name: `pages, cache off, ${mode.name}`, paths: mix.paths, headers }], options);
        const cpuMs = (cpuWithChildren(shop.pid) - before) * 1000;
        const list = runs.get(mode.name) ?? [];
        list.push({
          rps: row!.requestsPerSecond,
          p50: row!.p50,
          p99: row!.p99,
          errors: row!.errors,
          cpu: row!.total > 0 ? cpuMs / row!.total : 0,
        });
        runs.set(mode.name, list);
      } finally {
        await shop.stop();
      }
    }
  }
  return RENDER_MODES.map((mode): RenderModeRow => {
    const list = runs.get(mode.name) ?? [];
    return {
      name: mode.name,
      pagesPerSecond: median(list.map((run) => run.rps)),
      p50: median(list.map((run) => run.p50)),
      p99: median(list.map((run) => run.p99)),
      errors: list.reduce((sum, run) => sum + run.errors, 0),
      cpuMsPerPage: median(list.map((run) => run.cpu)),
      runs: list.map((run) => Math.round(run.rps)),
    };
  });
}

/** The comparison's table for results.md. */
export function renderComparisonSection(rows: RenderModeRow[], products: number, seconds: number, rounds: number): string[] {
  return [
    `## Server rendering: in-process against the sandbox (${products.toLocaleString('en')} products, cache off, 50 connections, ${seconds} s each)`,
    '',
    "The page mix above (distinct URLs), SERVER_CACHE=off. In-process: the parts' server builds evaluated in the server's own process, as before the sandbox " +
      '(RENDER_IN_PROCESS_FOR_BENCH=1, for this row only: `npm start` refuses it). Sandbox: RENDERERS renderer processes, each an isolate (server/src/web/ssr/sandbox/). ' +
      `The server and its renderers on both cores, the load generator on core 1; the modes alternate, ${rounds} runs each, medians. ` +
      'CPU per page: the server and its renderers together (user + system).',
    '',
    '| rendering | pages/s | p50 ms | p99 ms | errors | CPU ms per page | pages/s of each run |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${Math.round(row.pagesPerSecond)} | ${row.p50} | ${row.p99} | ${row.errors} | ${row.cpuMsPerPage.toFixed(2)} | ${row.runs.join(', ')} |`,
    ),
    '',
  ];
}
