/**
 * `npm run bench`: builds the production shop and a monolith build of the
 * same code, serves both as in production, measures (Lighthouse, bytes and
 * round trips, the API under load on 100,000 products) and writes
 * tools/bench/results.md with every budget marked met or missed. Medians throughout.
 * Settings: BENCH_LH_RUNS (5), BENCH_PRODUCTS (100000), BENCH_LOAD_SECONDS (10), BENCH_EDGE_WARM_UP_SECONDS (360).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { OPEN_LOOP_RATES, runApiLoad, type ApiLoad } from './api-load.ts';
import { runScaleLoad, scaleSection } from './scale-load.ts';
import { edgeSection, runEdgeLoad } from './edge-load.ts';
import { runCatalogOneAtATime } from './catalog-one-at-a-time.ts';
import { missedTargetsSection, type Budget } from './missed-targets.ts';
import { runLighthouse, type LighthouseResult } from './lighthouse.ts';
import { runDecidedLighthouse, type DecidedResult } from './lighthouse-decided.ts';
import { renderComparisonSection, runPageLoad, runRenderComparison, type PageLoad } from './page-load.ts';
import { measurePageWeights, type PageCase, type PageWeight } from './page-weights.ts';
import { repo, startShop } from './shop-server.ts';
import { measureShopperWaits, shopperWaitsInputs, shopperWaitsSection, type ShopperWaits } from './shopper-waits.ts';

const LH_RUNS = Number(process.env.BENCH_LH_RUNS ?? 5);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
/** Alternating runs of each way of server rendering (in-process, sandbox with 1 and 2 renderers). */
const RENDER_ROUNDS = Number(process.env.BENCH_RENDER_ROUNDS ?? 3);
/** The edge row's warm-up: longer than a page validator's lifetime, so the edge is as a running shop's. */
const EDGE_WARM_UP_SECONDS = Number(process.env.BENCH_EDGE_WARM_UP_SECONDS ?? 360);
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

function step(title: string, command: string, args: string[], cwd = repo) {
  log(title);
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`${title} failed`);
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();

function cases(category: string, product: string): PageCase[] {
  const list: PageCase[] = [
    {
      name: 'home',
      path: '/',
      ready: (page) => page.getByRole('region', { name: 'Kategórie' }).getByRole('link').first().waitFor(),
      next: async (page) => {
        await page.getByRole('region', { name: 'Kategórie' }).getByRole('link').first().click();
        await page.getByTestId('product-card').first().waitFor();
      },
    },
    {
      name: 'category',
      path: `/c/${category}`,
      ready: (page) => page.getByTestId('product-card').first().waitFor(),
      next: async (page) => {
        await page.getByTestId('product-card').first().getByRole('link').first().click();
        await page.getByRole('button', { name: 'Pridať do košíka' }).waitFor();
      },
    },
    {
      name: 'product',
      path: `/p/${product}`,
      ready: (page) => page.getByRole('button', { name: 'Pridať do košíka' }).waitFor(),
      next: async (page) => {
        await page.getByRole('link', { name: /Košík:/ }).click();
        await heading(page, 'Košík je prázdny');
      },
    },
    {
      name: 'basket',
      path: '/checkout/cart',
      ready: (page) => heading(page, 'Košík je prázdny'),
      next: async (page) => {
        await page.getByRole('link', { name: 'Pokračovať v nákupe' }).click();
        await heading(page, 'Všetko pre vašu stavbu na jednom mieste');
      },
    },
  ];
  return list;
}

const mark = (met: boolean) => (met ? 'met' : '**missed**');
const kb = (value: number) => value.toFixed(1);

async function main() {
  step('building the shell and the areas (only what changed)', process.execPath, [
    '-e',
    "import('./tools/scripts/build.mjs').then((m) => m.buildAll())",
  ]);
  step(
    'building the monolith (same code, no federation)',
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--config', 'monolith/vite.config.ts'],
    join(repo, 'tools', 'bench'),
  );

  const composed = await startShop({ port: 4610, name: 'composed' });
  const monolith = await startShop({ port: 4620, name: 'monolith', shellDist: join(repo, 'tools', 'bench', 'monolith', 'dist') });
  // The same composed build with every page rendered in the browser: what server rendering changes.
  const clientOnly = await startShop({ port: 4640, name: 'client-rendered', env: { SERVER_RENDER: 'off' } });
  let weights: { composed: PageWeight[]; monolith: PageWeight[] };
  let lighthouse: {
    composed: LighthouseResult[];
    monolith: LighthouseResult[];
    clientOnly: LighthouseResult[];
    composedReturning: LighthouseResult[];
    clientOnlyReturning: LighthouseResult[];
    decided: DecidedResult[];
  };
  let shopperWaits: ShopperWaits;
  try {
    const home = (await (await fetch(`${composed.base}/api/home`)).json()) as {
      data: { categories: { cat_url: string }[]; newest: { p_url: string }[] };
    };
    const pageCases = cases(home.data.categories[0]!.cat_url, home.data.newest[0]!.p_url);
    log('bytes, requests and round trips (median of 3)');
    weights = {
      composed: await measurePageWeights(composed.base, pageCases),
      monolith: await measurePageWeights(monolith.base, pageCases),
    };
    log(`Lighthouse, mobile, median of ${LH_RUNS}`);
    const pages = pageCases.map(({ name, path }) => ({ name, path }));
    lighthouse = {
      composed: await runLighthouse(composed.base, pages, LH_RUNS),
      monolith: await runLighthouse(monolith.base, pages, LH_RUNS),
      clientOnly: await runLighthouse(clientOnly.base, pages, LH_RUNS),
      composedReturning: await runLighthouse(composed.base, pages, LH_RUNS, 'returning'),
      clientOnlyReturning: await runLighthouse(clientOnly.base, pages, LH_RUNS, 'returning'),
      decided: await runDecidedLighthouse(composed.base, LH_RUNS),
    };
    log('what the shopper waits for: route changes with and without prefetch, usable basket and product');
    const inputs = await shopperWaitsInputs(composed.base);
    shopperWaits = await measureShopperWaits(composed.base, inputs.paths, inputs.line);
  } finally {
    await composed.stop();
    await monolith.stop();
    await clientOnly.stop();
  }
  log(`API under load on ${PRODUCTS} products`);
  const load: ApiLoad = await runApiLoad({ port: 4630, products: PRODUCTS, connections: 50, seconds: LOAD_SECONDS });
  log(`server-rendered pages under load on ${PRODUCTS} products, distinct URLs, caches on and off`);
  const pageLoad: PageLoad = await runPageLoad({ port: 4650, products: PRODUCTS, connections: 50, seconds: LOAD_SECONDS });
  log('server rendering in-process against the sandbox with 1 and 2 renderers, cache off (3 alternating runs each)');
  const renderModes = await runRenderComparison({
    port: 4680,
    products: PRODUCTS,
    connections: 50,
    seconds: LOAD_SECONDS,
    rounds: RENDER_ROUNDS,
  });
  log('at scale: one server on SQLite, one on PostgreSQL, two behind nginx on PostgreSQL + Redis');
  const scale = await runScaleLoad({ port: 4660, products: PRODUCTS, seconds: LOAD_SECONDS });
  log('pages through nginx in the cluster, Zipf popularity');
  // A shop's edge runs for days: the warm row follows EDGE_WARM_UP_SECONDS of the same load.
  const edge = await runEdgeLoad({ port: 4670, products: PRODUCTS, seconds: LOAD_SECONDS, warmUpSeconds: EDGE_WARM_UP_SECONDS });
  log('catalog queries one by one (tools/bench/catalog/catalog-bench.ts), on SQLite and on PostgreSQL');
  const catalog = await runCatalogOneAtATime(PRODUCTS);

  const budgets: Budget[] = [];
  // Lighthouse's budgets for a page: issue #17's (LCP within 1.5 s), #43's for a decided shopper's cold first view (1.2 s).
  const lighthouseBudgets = (
    page: string,
    result: Pick<LighthouseResult, 'score' | 'lcpMs' | 'tbtMs' | 'cls' | 'lcpElement'>,
    lcpLimitMs: number,
  ) =>
    budgets.push(
      { what: `Lighthouse performance, ${page}`, value: String(result.score), limit: '≥ 98', met: result.score >= 98, group: 'lighthouse' },
      {
        what: `LCP, ${page} (${result.lcpElement})`,
        value: `${Math.round(result.lcpMs)} ms`,
        limit: `≤ ${lcpLimitMs} ms`,
        met: result.lcpMs <= lcpLimitMs,
        group: 'lighthouse',
      },
      { what: `TBT, ${page}`, value: `${Math.round(result.tbtMs)} ms`, limit: '≤ 50 ms', met: result.tbtMs <= 50, group: 'lighthouse' },
      { what: `CLS, ${page}`, value: result.cls.toFixed(3), limit: '≤ 0.02', met: result.cls <= 0.02, group: 'lighthouse' },
    );
  for (const [visitor, results] of [
    ['first visit', lighthouse.composed],
    ['returning visitor', lighthouse.composedReturning],
  ] as const) {
    for (const result of results) lighthouseBudgets(`${result.name}, ${visitor}`, result, 1500);
  }
  for (const result of lighthouse.decided) lighthouseBudgets(`${result.name}, cold cache`, result, 1200);
  // Issue #43's targets for the price of composition (first-load JS and script requests), on every measured page;
  // issue #19's for the serial round trips.
  for (const page of weights.composed) {
    const mono = weights.monolith.find((row) => row.name === page.name)!;
    budgets.push({
      what: `first-load JS, ${page.name}`,
      value: `${kb(page.firstJsKb)} KB`,
      limit: '≤ 130 KB',
      met: page.firstJsKb <= 130,
      group: 'javascript',
    });
    const ratio = page.firstJsKb / mono.firstJsKb;
    budgets.push({
      what: `composed / monolith JS, ${page.name}`,
      value: ratio.toFixed(2),
      limit: '≤ 1.30',
      met: ratio <= 1.3,
      group: 'javascript',
    });
    budgets.push({
      what: `script requests, ${page.name} (monolith ${mono.firstScripts})`,
      value: String(page.firstScripts),
      limit: `≤ ${mono.firstScripts + 12}`,
      met: page.firstScripts <= mono.firstScripts + 12,
      group: 'script-requests',
    });
    const extra = page.roundTrips - mono.roundTrips;
    budgets.push({
      what: `extra serial round trips, ${page.name}`,
      value: String(extra),
      limit: '≤ 1',
      met: extra <= 1,
      group: 'round-trips',
    });
  }
  // Issue #19's waterfall target: the product picture asked for soon after the HTML arrives (unthrottled).
  const productWeight = weights.composed.find((row) => row.name === 'product');
  if (productWeight) {
    const ms = productWeight.firstPictureMs;
    budgets.push({
      what: 'product picture requested after the HTML arrives (unthrottled)',
      value: ms === null ? 'not requested' : `${Math.round(ms)} ms`,
      limit: '≤ 200 ms',
      met: ms !== null && ms <= 200,
      group: 'picture',
    });
  }
  // Issue #19's targets for the catalog API, cache bypassed, on one server, on SQLite and on PostgreSQL alike.
  // Judged by the slowest call's median: a filtered category's facets are a call shoppers make too.
  for (const { dialect, kinds } of catalog) {
    const on = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    for (const kind of kinds) {
      budgets.push({
        what: `API ${kind.kind} on ${on}, one at a time, slowest call's median (median of the calls ${kind.median.toFixed(1)} ms)`,
        value: `${kind.worst.toFixed(1)} ms`,
        limit: `≤ ${kind.limitMs} ms`,
        met: kind.worst <= kind.limitMs,
        group: `api-${dialect}`,
      });
    }
  }
  const mixBypassed = load.closed.find((row) => row.name === 'the mix, cache bypassed')!;
  budgets.push({
    what: 'API mix, cache bypassed, 50 connections',
    value: `${Math.round(mixBypassed.requestsPerSecond)} requests/s`,
    limit: '≥ 1000 requests/s',
    met: mixBypassed.requestsPerSecond >= 1000,
    group: 'api-load',
  });
  const offered500 = load.open.find((row) => row.name === 'the mix, cache bypassed' && row.offered === 500)!;
  budgets.push({
    what: 'API mix, cache bypassed, p99 at 500 requests/s offered',
    value: `${offered500.p99} ms`,
    limit: '≤ 25 ms',
    met: offered500.p99 <= 25,
    group: 'api-load',
  });
  budgets.push({
    what: 'API errors under load (50 connections)',
    value: String(load.closed.reduce((sum, row) => sum + row.errors, 0)),
    limit: '0',
    met: load.closed.every((row) => row.errors === 0),
    group: 'api-load',
  });
  const pagesOff = pageLoad.rows.find((row) => row.name === 'server-rendered pages, cache off')!;
  budgets.push({
    what: 'server-rendered pages on distinct URLs, cache off (50 connections)',
    value: `${Math.round(pagesOff.requestsPerSecond)} pages/s, p99 ${pagesOff.p99} ms`,
    limit: '≥ 400 pages/s, p99 ≤ 100 ms',
    // Answers that are errors (a 503 comes fast) are no pages.
    met: pagesOff.errors === 0 && pagesOff.requestsPerSecond >= 400 && pagesOff.p99 <= 100,
    group: 'pages',
  });
  // Issue #49: the sandbox must not be slower than rendering in the server's process, on this machine's cores.
  const inProcessRow = renderModes.find((row) => row.name.startsWith('in-process'))!;
  const sandboxRow = renderModes.find((row) => row.name === 'sandbox, 2 renderers')!;
  budgets.push({
    what: 'server-rendered pages in the sandbox (2 renderers) against in-process, cache off (50 connections)',
    value: `${Math.round(sandboxRow.pagesPerSecond)} against ${Math.round(inProcessRow.pagesPerSecond)} pages/s`,
    limit: '≥ in-process',
    met: sandboxRow.errors === 0 && inProcessRow.errors === 0 && sandboxRow.pagesPerSecond >= inProcessRow.pagesPerSecond,
    group: 'pages',
  });
  budgets.push({
    what: 'server-rendered page errors under load',
    value: String(pageLoad.rows.reduce((sum, row) => sum + row.errors, 0)),
    limit: '0',
    met: pageLoad.rows.every((row) => row.errors === 0),
    group: 'api-load',
  });

  // Issue #43: anonymous page views through the cluster's nginx, the edge warm.
  const warmEdge = edge.rows.at(-1)!;
  budgets.push({
    what: 'page views answered by the edge (nginx, Zipf popularity, warm)',
    value:
      `${(warmEdge.edgeShare * 100).toFixed(1)} % (${((warmEdge.groups.HIT + warmEdge.groups['STALE/UPDATING']) * 100).toFixed(1)} % without a server, ` +
      `${(warmEdge.groups.REVALIDATED * 100).toFixed(1)} % revalidated by a 304; web servers ${warmEdge.webCpuMsPerView.toFixed(2)} CPU ms per view)`,
    limit: '≥ 90 %',
    met: warmEdge.edgeShare >= 0.9,
    group: 'edge',
  });

  const lines = [
    '# Benchmark results',
    '',
    `Run ${new Date().toISOString()} on ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}, Debian's Chromium. ` +
      `Medians: Lighthouse ${LH_RUNS} runs per page after one not counted (mobile, simulated throttling; the server warm), bytes 3 runs per page, API ${LOAD_SECONDS} s per call with 50 connections or at a fixed rate ` +
      `(server on core 0, load generator on core 1) on ${PRODUCTS.toLocaleString('en')} products (SQLite; the at-scale rows and the catalog's calls one at a time on PostgreSQL as well).`,
    '',
    '## Budgets',
    '',
    '| budget | measured | limit | |',
    '|---|---:|---:|---|',
    ...budgets.map((b) => `| ${b.what} | ${b.value} | ${b.limit} | ${mark(b.met)} |`),
    '',
    ...missedTargetsSection(budgets, { weights, catalog }),
    '## Lighthouse (mobile)',
    '',
    '| page | composed score | LCP ms | TBT ms | CLS | monolith score | LCP ms | TBT ms | CLS |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...lighthouse.composed.map((c) => {
      const m = lighthouse.monolith.find((row) => row.name === c.name)!;
      return `| ${c.name} | ${c.score} | ${Math.round(c.lcpMs)} | ${Math.round(c.tbtMs)} | ${c.cls.toFixed(3)} | ${m.score} | ${Math.round(m.lcpMs)} | ${Math.round(m.tbtMs)} | ${m.cls.toFixed(3)} |`;
    }),
    '',
    '## Server-rendered first view against client rendering (same build)',
    '',
    'First visit: a fresh browser, the consent notice shows. Returning visitor: the same page visited before in that browser (its cache warm) and cookies decided, so no notice. ' +
      "LCP element: the most frequent over the runs. Machine: Lighthouse's benchmark index during the runs (higher is faster) and the share of a core the page's main " +
      'thread had while running its tasks (thread time over wall time in the trace): Lighthouse times tasks by the wall clock, so TBT grows as that share falls.',
    '',
    "| page | visitor | server-rendered score | FCP ms | LCP ms | TBT ms | CLS | LCP element | machine: index / main thread's share | client-rendered score | FCP ms | LCP ms | TBT ms | LCP element |",
    '|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|',
    ...(
      [
        ['first visit', lighthouse.composed, lighthouse.clientOnly],
        ['returning', lighthouse.composedReturning, lighthouse.clientOnlyReturning],
      ] as const
    ).flatMap(([visitor, server, client]) =>
      server.map((c) => {
        const o = client.find((row) => row.name === c.name)!;
        return (
          `| ${c.name} | ${visitor} | ${c.score} | ${Math.round(c.fcpMs)} | ${Math.round(c.lcpMs)} | ${Math.round(c.tbtMs)} | ${c.cls.toFixed(3)} | \`${c.lcpElement}\` ` +
          `| ${Math.round(c.benchmarkIndex)} / ${Math.round(c.mainThreadShare * 100)} % ` +
          `| ${o.score} | ${Math.round(o.fcpMs)} | ${Math.round(o.lcpMs)} | ${Math.round(o.tbtMs)} | \`${o.lcpElement}\` |`
        );
      }),
    ),
    '',
    ...shopperWaitsSection(shopperWaits),
    '## JavaScript over the wire (compressed) and requests',
    '',
    "Unthrottled, a 390 × 844 window, cookies decided. First picture: from the HTML's arrival (its response headers) to the request of the page's first product picture. " +
      "Federation's own: of the composed first load, the scripts that are the federation's runtime and generated code (tools/bench/src/federation-code.ts).",
    '',
    "| page | composed first load KB / requests (scripts) | federation's own KB (scripts) | next navigation KB / requests | serial round trips | first picture ms | monolith first load KB / requests (scripts) | next navigation KB / requests | serial round trips | first picture ms | composed / monolith JS |",
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...weights.composed.map((c) => {
      const m = weights.monolith.find((row) => row.name === c.name)!;
      const picture = (ms: number | null) => (ms === null ? '–' : String(Math.round(ms)));
      return (
        `| ${c.name} | ${kb(c.firstJsKb)} / ${c.firstRequests} (${c.firstScripts}) | ${kb(c.firstFederationKb)} (${c.firstFederationScripts}) | ${kb(c.nextJsKb)} / ${c.nextRequests} | ${c.roundTrips} | ${picture(c.firstPictureMs)} ` +
        `| ${kb(m.firstJsKb)} / ${m.firstRequests} (${m.firstScripts}) | ${kb(m.nextJsKb)} / ${m.nextRequests} | ${m.roundTrips} | ${picture(m.firstPictureMs)} | ${(c.firstJsKb / m.firstJsKb).toFixed(2)} |`
      );
    }),
    '',
    `## API under load (${PRODUCTS.toLocaleString('en')} products)`,
    '',
    `${load.sets.distinct.toLocaleString('en')} distinct URLs (tools/bench/src/api-mix.ts): listings over all ${load.sets.categories} categories, every page up to 20 and every sort, ` +
      'a sixth narrowed to a brand; the facets every category page asks for, over the same; product details over all ' +
      `${load.sets.products.toLocaleString('en')} products, a fifth of them getting four fifths of the calls; ${load.sets.terms} search terms from product names, ` +
      'with and without diacritics. The mix: 40 % product, 25 % listing, 20 % facets, 15 % search. Anonymous catalog calls are answered from the ' +
      'response cache when they repeat within its 10 s (emptied by any catalog write; api/src/infra/cache/response-cache.ts); the "cache bypassed" rows send an ' +
      'Authorization header, so every request runs its queries. Every request asks for a compressed answer (Accept-Encoding: br, gzip), as a browser does. One server, on one core; the load generator on the other. The server is a web server ' +
      "(ROLE=web: the jobs orders queue, the confirmation e-mail with its invoice, are a worker's and not in these figures), warmed up first with the mix, cache bypassed, for as long as four rows (not counted).",
    '',
    `### Saturated: 50 connections, ${LOAD_SECONDS} s each`,
    '',
    '| call | requests/s | p50 ms | p99 ms | errors | from the cache | server RSS MB (max) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...load.closed.map(
      (row) =>
        `| ${row.name} | ${Math.round(row.requestsPerSecond)} | ${row.p50} | ${row.p99} | ${row.errors} | ${(row.cacheHitRatio * 100).toFixed(1)} % | ${Math.round(row.rssMb)} |`,
    ),
    '',
    `### At fixed offered rates (open loop): ${OPEN_LOOP_RATES.join(', ')} requests/s of the mix, ${LOAD_SECONDS} s each`,
    '',
    'Requests leave on schedule whatever the server answers; each latency counts from when its request was due (tools/bench/src/open-loop-worker.ts). ' +
      'Errors: answers with a 4xx/5xx status, failed connections, and requests not answered within 5 s of being due.',
    '',
    '| the mix | offered requests/s | answered requests/s | p50 ms | p99 ms | errors | from the cache |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...load.open.map(
      (row) =>
        `| ${row.name} | ${row.offered} | ${Math.round(row.answered)} | ${row.p50} | ${row.p99} | ${row.errors} | ${(row.cacheHitRatio * 100).toFixed(1)} % |`,
    ),
    '',
    `## Server-rendered pages under load (${PRODUCTS.toLocaleString('en')} products, 50 connections, ${LOAD_SECONDS} s each)`,
    '',
    `${pageLoad.distinct.toLocaleString('en')} distinct URLs from the shop's sitemap (${pageLoad.products.toLocaleString('en')} products, ${pageLoad.categories} categories, ` +
      `${pageLoad.words} search words): 50 % product pages (a fifth of the products get four fifths of them), 40 % category listings (pages 1–20, every sort), ` +
      '10 % search results. "Cache on": the 5 s page cache and the API\'s response cache; "off": SERVER_CACHE=off. "From a cache": answers the page cache gave whole. ' +
      'A web server (ROLE=web), warmed up first with other URLs of the same mix for as long as one row (not counted).',
    '',
    '| pages | pages/s | p50 ms | p99 ms | errors | from a cache | server RSS MB (max) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...pageLoad.rows.map(
      (row) =>
        `| ${row.name} | ${Math.round(row.requestsPerSecond)} | ${row.p50} | ${row.p99} | ${row.errors} | ${(row.cacheHitRatio * 100).toFixed(1)} % | ${Math.round(row.rssMb)} |`,
    ),
    '',
    ...renderComparisonSection(renderModes, PRODUCTS, LOAD_SECONDS, RENDER_ROUNDS),
    ...scaleSection(scale, PRODUCTS, LOAD_SECONDS),
    ...edgeSection(edge, PRODUCTS, LOAD_SECONDS),
    '## Catalog queries, one at a time (tools/bench/catalog/catalog-bench.ts)',
    '',
    ...catalog.flatMap((run) => [run.table, '']),
  ];
  writeFileSync(resultsFile, [...lines, keptByHand()].join('\n'));
  process.stdout.write(`${lines.join('\n')}\n`);
}

const resultsFile = join(repo, 'tools', 'bench', 'results.md');
const NOTEBOOK = '## Notebook: figures behind the design (kept by hand)';

/** The hand-kept notebook at the end of results.md survives a new run (figures live only there). */
function keptByHand(): string {
  const text = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '';
  const at = text.indexOf(NOTEBOOK);
  return at === -1 ? '' : `\n${text.slice(at)}`;
}

await main();
