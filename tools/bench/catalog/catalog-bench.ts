/**
 * Catalog benchmark: median latency of listing pages, facets, search and product detail on a
 * generated catalog of 100,000 products, against issue #19's targets. Measures, never asserts;
 * not a test. With BENCH_SUMMARY=<file> it also writes each kind's medians there as JSON, with the floor of a call (/api/health, /api/ready).
 *
 *   node --import tsx tools/bench/catalog/catalog-bench.ts            # SQLite in <repo>/.data/bench-catalog
 *   BENCH_DATABASE_URL=postgres://… node --import tsx tools/bench/catalog/catalog-bench.ts   # an empty PostgreSQL database
 *
 * The generated database is kept and reused (generation takes a while). Requests go over HTTP on
 * loopback, one after another, from a client on a thread of its own: its work (HTTP, decompressing)
 * is neither timed as the server's nor holds the server's event loop (with fetch on the server's
 * thread, every median carried about 1.3 ms of the client's own work). Prints a Markdown table on stdout
 * (progress on stderr). The API's response cache is off here: every request runs its queries
 * (what a cache miss costs).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { buildApi, createDatabase } from '../../../server/src/app.ts';
import { generateCatalog } from './generate-catalog.ts';
import { defaultCheckoutOptions } from '../../../server/src/infra/checkout-options.ts';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
/** Calls before the timed ones, so that the server's code is compiled as a running server's is. */
const WARMUP = 20;
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const log = (message: string) => process.stderr.write(`[catalog-bench] ${message}\n`);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))]!;

const dataDir = join(root, '.data', 'bench-catalog');
mkdirSync(dataDir, { recursive: true });
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
const database = await createDatabase({ dataDir, databaseUrl });
const started = performance.now();
const added = await generateCatalog(database.db, { total: PRODUCTS, log });
if (added > 0) {
  log(`generated ${added} products in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await sql`analyze`.execute(database.db);
}
const count = async (table: 'products' | 'variants' | 'attribute_values') =>
  Number(
    (
      await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const sizes = { products: await count('products'), variants: await count('variants'), values: await count('attribute_values') };

// Mail and invoice files (none are written here) inside the bench's own directory, not in /tmp.
const checkout = defaultCheckoutOptions(join(dataDir, 'checkout'));
const app = buildApi({
  db: database.db,
  dialect: database.dialect,
  jwtSecret: 'catalog-bench-secret-0123456789',
  responseCache: false,
  logger: false,
  checkout,
});
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

/**
 * The client's thread: asked for `runs` calls of a URL, it answers their times (ms) and the last
 * answer's meta.total. It asks for brotli as browsers do and times the bytes' arrival (server and
 * loopback), not its own decompression; one kept-alive connection.
 */
const client = new Worker(
  `const { parentPort } = require('node:worker_threads');
  const { performance } = require('node:perf_hooks');
  const http = require('node:http');
  const { brotliDecompressSync } = require('node:zlib');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (url) => new Promise((resolve, reject) => {
    http.get(url, { agent, headers: { 'accept-encoding': 'br' } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, encoding: response.headers['content-encoding'], body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
  parentPort.on('message', async ({ url, runs }) => {
    let last;
    const times = [];
    for (let run = 0; run < runs; run++) {
      const t0 = performance.now();
      last = await get(url);
      times.push(performance.now() - t0);
      if (last.status !== 200) return parentPort.postMessage({ error: url + ' answered ' + last.status });
    }
    const body = last.encoding === 'br' ? brotliDecompressSync(last.body) : last.body;
    parentPort.postMessage({ times, total: JSON.parse(body.toString()).meta?.total });
  });`,
  { eval: true },
);
type Calls = { times: number[]; total?: number };
function calls(path: string, runs: number): Promise<Calls> {
  return new Promise((resolve, reject) => {
    client.once('message', (answer: Calls & { error?: string }) => (answer.error ? reject(new Error(answer.error)) : resolve(answer)));
    client.postMessage({ url: base + path, runs });
  });
}

async function time(path: string) {
  await calls(path, WARMUP);
  // The longest stretch the server's event loop was held (SQLite answers synchronously): what every other shopper waits.
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const { times, total } = await calls(path, RUNS);
  loop.disable();
  return { path, median: median(times), p95: p95(times), total, loopMaxMs: loop.max / 1e6 };
}

const enc = encodeURIComponent;
/** Product details: the first listed products of a large category, and one deep in a small one. */
const listed = async (path: string) =>
  ((await (await fetch(base + path)).json()) as { data: { p_url: string }[] }).data.map((product) => `/api/product/${product.p_url}`);
const productPaths = [
  ...(await listed('/api/products?category=hruba-stavba')).slice(0, 3),
  ...(await listed('/api/products?category=tehly&page=10')).slice(0, 1),
];
/** Issue #19's targets: medians one at a time, cache bypassed, 100,000 products. */
const groups: { name: 'listing' | 'search' | 'facets' | 'product'; target: string; limitMs: number; paths: string[] }[] = [
  {
    name: 'listing',
    target: '≤ 2 ms',
    limitMs: 2,
    paths: [
      '/api/products?category=hruba-stavba',
      '/api/products?category=hruba-stavba&page=40',
      '/api/products?category=hruba-stavba&sort=price-asc',
      '/api/products?category=izolacie&sort=price-desc&page=20',
      '/api/products?category=tehly&sort=name&page=10',
      '/api/products?category=tehly&sort=newest',
      '/api/products?brand=knauf',
      '/api/products?sale=1&sort=price-asc',
      '/api/products?sale=1&avail=in_stock&sort=price-asc&page=3',
      '/api/products',
      `/api/products?category=hruba-stavba&f14=${enc('pálená hlina')}&price=1-20&sort=price-asc`,
      `/api/products?category=izolacie&brands=${enc('isover|rockwool')}&avail=in_stock&r1=100-200`,
    ],
  },
  {
    name: 'search',
    target: '≤ 5 ms',
    limitMs: 5,
    paths: [
      '/api/search?q=tehla',
      '/api/search?q=izolacia',
      `/api/search?q=${enc('sadrokartónová doska')}`,
      `/api/search?q=${enc('tehla porotherm 30')}`,
      '/api/search?q=porot',
      '/api/search?q=xyzzy',
      '/api/search/suggest?q=sadrok',
    ],
  },
  {
    name: 'facets',
    target: '≤ 2 ms',
    limitMs: 2,
    paths: [
      '/api/products/facets?category=tehly',
      '/api/products/facets?category=izolacie',
      '/api/products/facets?category=hruba-stavba',
      `/api/products/facets?category=hruba-stavba&f14=${enc('pálená hlina')}&price=1-20`,
      // The sale page's and a brand page's filters: listings without a category; the sale narrowed by a price too.
      '/api/products/facets?sale=1',
      '/api/products/facets?brand=knauf',
      '/api/products/facets?sale=1&price=10-200',
    ],
  },
  { name: 'product', target: '≤ 1 ms', limitMs: 1, paths: productPaths },
];

const results: { group: string; target: string; limitMs: number; rows: Awaited<ReturnType<typeof time>>[] }[] = [];
for (const group of groups) {
  log(`${group.name}: ${group.paths.length} calls × ${RUNS}`);
  const rows = [];
  for (const path of group.paths) rows.push(await time(path));
  results.push({ group: group.name, target: group.target, limitMs: group.limitMs, rows });
}
/** What every call costs before its own work: one that reads nothing, and one that runs a single trivial query (the readiness check). */
const floor = { noQuery: await time('/api/health'), oneQuery: await time('/api/ready') };
await client.terminate();
await app.close();
await database.close();

const lines = [
  `## Catalog on ${sizes.products.toLocaleString('en')} products (${database.dialect})`,
  '',
  `${sizes.variants.toLocaleString('en')} variants, ${sizes.values.toLocaleString('en')} attribute values; ${RUNS} sequential HTTP requests per call after ${WARMUP} warm-up ones, loopback, from a client on its own thread.`,
  '',
  '| kind | call | results | median ms | p95 ms | longest event-loop block ms |',
  '|---|---|---:|---:|---:|---:|',
  ...results.flatMap((group) =>
    group.rows.map(
      (row) =>
        `| ${group.group} | \`${decodeURIComponent(row.path).slice(0, 160)}\` | ${row.total ?? ''} | ${row.median.toFixed(2)} | ${row.p95.toFixed(2)} | ${row.loopMaxMs.toFixed(1)} |`,
    ),
  ),
  '',
  '| kind | target | median of the medians ms | worst median ms |',
  '|---|---|---:|---:|',
  ...results.map((group) => {
    const medians = group.rows.map((row) => row.median);
    return `| ${group.group} | ${group.target} | ${median(medians).toFixed(2)} | ${Math.max(...medians).toFixed(2)} |`;
  }),
  '',
  `The floor of a call on this server, same method: one that reads nothing (\`/api/health\`) ${floor.noQuery.median.toFixed(2)} ms, ` +
    `one that runs a single trivial query (\`/api/ready\`) ${floor.oneQuery.median.toFixed(2)} ms (medians).`,
  '',
];
process.stdout.write(lines.join('\n'));
// For `npm run bench`'s budgets: per kind, the median of the calls' medians and the worst one.
if (process.env.BENCH_SUMMARY) {
  const summary = results.map((group) => {
    const medians = group.rows.map((row) => row.median);
    return { kind: group.group, limitMs: group.limitMs, median: median(medians), worst: Math.max(...medians) };
  });
  writeFileSync(
    process.env.BENCH_SUMMARY,
    JSON.stringify({ kinds: summary, floor: { noQueryMs: floor.noQuery.median, oneQueryMs: floor.oneQuery.median } }),
  );
}
