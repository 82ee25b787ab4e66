/**
 * The API under load on a generated catalogue of 100,000 products:
 * requests per second, p50 and p99 latency, errors, and the server's
 * resident memory, with the server and the load generator on separate cores.
 *
 * Anonymous catalogue calls are answered from the API's response cache once
 * warm (api/src/lib/response-cache.ts); the share of cached answers is logged
 * and returned (cacheHitRatio). The same listing and search calls with an
 * Authorization header are never cached (the shop's client sends none on
 * catalogue calls): those two scenarios measure every request going to the
 * database, under the same load.
 *
 * The load generator places hundreds of orders a second from loopback: the
 * server is started with CHECKOUT_RATE_LIMIT_ALLOWLIST naming the loopback
 * addresses, so the per-address order and quote limits do not refuse it
 * (they stay on for every other address, and in production).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDataDir, median, repo, startShop, type Shop } from './shop-server.ts';

export type LoadResult = {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  total: number;
  rssMb: number;
  /** Share of the answers served from the API's response cache (0–1). */
  cacheHitRatio: number;
};

const LOOPBACK = '127.0.0.1,::1,::ffff:127.0.0.1';
/** Any token: the catalogue does not check it, and a request with credentials is never answered from the cache. */
/** An Authorization header bypasses the response cache. */
const UNCACHED = { authorization: 'Bearer load-test-shopper' };

const tsx = ['--import', 'tsx'];

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** The data directory with a catalogue of `products` products, generated once (api/bench/grow-catalogue.ts). */
export function grownCatalogue(products: number): { name: string; dataDir: string } {
  const name = `api-${products}`;
  const dataDir = benchDataDir(name);
  const grown = spawnSync(process.execPath, [...tsx, 'bench/grow-catalogue.ts', dataDir, String(products)], { cwd: join(repo, 'api'), stdio: 'inherit' });
  if (grown.status !== 0) throw new Error('could not generate the catalogue');
  return { name, dataDir };
}

export type Scenario = { name: string; paths: string[]; method?: 'POST'; body?: Record<string, unknown>; headers?: Record<string, string> };

/** Runs each scenario for `seconds` with `connections`, the load generator on core 1. */
export function runScenarios(shop: Shop, scenarios: Scenario[], options: { connections: number; seconds: number }): LoadResult[] {
  const results: LoadResult[] = [];
  for (const scenario of scenarios) {
    const samples: number[] = [];
    const timer = setInterval(() => samples.push(rssMb(shop.pid)), 250);
    const run = spawnSync(
      'taskset',
      ['-c', '1', process.execPath, ...tsx, 'src/load-worker.ts'],
      // Options on stdin: a list of tens of thousands of URLs is longer than one argument may be.
      { cwd: join(repo, 'bench'), encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, input: JSON.stringify({ url: shop.base, connections: options.connections, seconds: options.seconds, ...scenario }) },
    );
    clearInterval(timer);
    if (run.status !== 0) throw new Error(`load ${scenario.name} failed: ${run.stderr}`);
    const { cacheHits, ...measured } = JSON.parse(run.stdout) as Omit<LoadResult, 'name' | 'rssMb' | 'cacheHitRatio'> & { cacheHits: number };
    const cacheHitRatio = measured.total > 0 ? cacheHits / measured.total : 0;
    process.stderr.write(
      `[load] ${scenario.name}: ${Math.round(measured.requestsPerSecond)} req/s, p50 ${measured.p50} ms, p99 ${measured.p99} ms, ` +
        `${measured.errors} errors, ${(cacheHitRatio * 100).toFixed(1)} % from a cache\n`,
    );
    results.push({ name: scenario.name, ...measured, rssMb: samples.length ? Math.max(...samples) : rssMb(shop.pid), cacheHitRatio });
  }
  return results;
}

export async function runApiLoad(options: { port: number; products: number; connections: number; seconds: number }): Promise<LoadResult[]> {
  const { name } = grownCatalogue(options.products);

  const allowList = process.env.CHECKOUT_RATE_LIMIT_ALLOWLIST;
  process.env.CHECKOUT_RATE_LIMIT_ALLOWLIST = LOOPBACK;
  let shop: Shop;
  try {
    shop = await startShop({ port: options.port, name, cpu: '0', keepData: true });
  } finally {
    if (allowList === undefined) delete process.env.CHECKOUT_RATE_LIMIT_ALLOWLIST;
    else process.env.CHECKOUT_RATE_LIMIT_ALLOWLIST = allowList;
  }
  try {
    const base = shop.base;
    const home = (await (await fetch(`${base}/api/home`)).json()) as { data: { categories: { cat_url: string }[]; newest: { p_url: string }[] } };
    const categories = home.data.categories.map((category) => category.cat_url);
    const listing = categories.flatMap((url) => [1, 2, 5].map((page) => `/api/products?category=${url}&page=${page}`));
    const products: string[] = [];
    for (const url of categories.slice(0, 6)) {
      const page = (await (await fetch(`${base}/api/products?category=${url}&page=3`)).json()) as { data: { p_url: string }[] };
      products.push(...page.data.map((product) => `/api/product/${product.p_url}`));
    }
    const words = ['tehla', 'izolacia', 'sadrokarton', 'farba biela', 'lepidlo', 'skrutky', 'omietka', 'dlazba', 'makita', 'cement'];
    const search = words.map((word) => `/api/search?q=${encodeURIComponent(word)}`);
    const orderable = (await (await fetch(`${base}/api/products?category=${categories[0]}&page=1`)).json()) as { data: { variant: { v_id: number; v_availability: string } }[] };
    const toOrder = orderable.data.map((product) => product.variant).find((variant) => variant.v_availability === 'to_order') ?? orderable.data[0]!.variant;
    const order = {
      lines: [{ v_id: toOrder.v_id, amount: 1 }],
      contact: {
        email: 'zataz@example.sk', phone: '+421905123456', name: 'Záťažový Test',
        billing: { street: 'Hlavná 1', city: 'Žilina', zip: '01001' }, company: null, delivery: null,
      },
      shippingCode: 'courier', paymentCode: 'transfer', couponCode: null, note: '', termsAccepted: true,
    };

    const scenarios: Scenario[] = [
      { name: 'category listing', paths: listing },
      { name: 'product detail', paths: products },
      { name: 'search', paths: search },
      { name: 'category listing, every request to the database', paths: listing, headers: UNCACHED },
      { name: 'search, every request to the database', paths: search, headers: UNCACHED },
      { name: 'place order', paths: ['/api/orders'], method: 'POST', body: order },
    ];
    return runScenarios(shop, scenarios, options);
  } finally {
    await shop.stop();
  }
}

export { median };
