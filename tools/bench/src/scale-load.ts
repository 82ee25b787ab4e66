/**
 * The shop at scale, side by side in one run (issue #18): the realistic mix of distinct catalog
 * URLs (tools/bench/src/api-mix.ts) with 5 % orders of in-stock items (each takes stock, so each drops
 * the cached answers that show its product on every server), at 50 and 200 connections, for
 *   1. one server on the embedded SQLite,
 *   2. one server on PostgreSQL,
 *   3. two web servers and a worker behind nginx on PostgreSQL and Redis (tools/scripts/topology.mjs,
 *      what `npm run start:cluster` runs).
 * The same 100,000-product catalog in both databases (PostgreSQL's is generated once and kept
 * in .data/bench/postgres-<n>). The load generator runs on core 1; the servers and the
 * databases are not pinned (with several processes they share both cores with it).
 * Memory: each process's peak resident set (VmHWM) for the Node processes and Redis, and the
 * proportional set (Pss) summed over PostgreSQL's processes (they share their buffers).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensurePostgres } from '../../scripts/ensure-postgres.mjs';
import { ensureRedis } from '../../scripts/ensure-redis.mjs';
import { startTopology } from '../../scripts/topology.mjs';
import { apiUrlSets } from './api-mix.ts';
import { grownCatalog } from './api-load.ts';
import { benchDataDir, benchPostgresDir, clusterLog, publishOrigin, repo, startShop } from './shop-server.ts';
import { cpuOf, cpuSeconds, processesNamed, procStatusMb, pssMb } from './processes.ts';

const LOOPBACK = '127.0.0.1,::1,::ffff:127.0.0.1';
/** One request in 20 places an order. */
const ORDER_EVERY = 20;
export const SCALE_CONNECTIONS = [50, 200];

export type ScaleRow = {
  topology: string;
  connections: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  total: number;
  cacheHitRatio: number;
  /** MB per process (or group of processes), measured after the run. */
  memory: Record<string, number>;
  /** Error answers by HTTP status. */
  failures: Record<string, number>;
  /** CPU milliseconds per request of each process (or group), over the run. */
  cpuMsPerRequest: Record<string, number>;
};

type Target = { name: string; base: string; memory: () => Record<string, number>; cpu: () => Record<string, number> };

/** In-stock variants with 100 pieces or more and at most 2 kg (up to 400), from listing pages: what the load's orders buy. */
async function orderableVariants(base: string, listing: string[]): Promise<number[]> {
  const found = new Set<number>();
  // Light goods are few among building materials: read listing pages until 400 are found (each page a few ms).
  for (const path of listing) {
    const page = (await (await fetch(`${base}${path}`)).json()) as {
      data?: { variant: { v_id: number; v_availability: string; v_stock: number; v_weight: number } }[];
    };
    for (const { variant } of page.data ?? []) {
      // A parcel the courier takes (heavier goods go by freight, which these orders do not choose).
      if (variant.v_availability === 'in_stock' && variant.v_stock >= 100 && variant.v_weight > 0 && variant.v_weight <= 2_000)
        found.add(variant.v_id);
    }
    if (found.size >= 400) break;
  }
  if (found.size === 0) throw new Error('no in-stock variant with 100 pieces found for the orders');
  return [...found];
}

function orderBodies(variants: number[]) {
  return variants.map((v_id) => ({
    lines: [{ v_id, amount: 1 }],
    contact: {
      email: 'zataz@example.sk',
      phone: '+421905123456',
      name: 'Záťažový Test',
      billing: { street: 'Hlavná 1', city: 'Žilina', zip: '01001' },
      company: null,
      delivery: null,
    },
    shippingCode: 'courier',
    paymentCode: 'transfer',
    couponCode: null,
    note: '',
    termsAccepted: true,
  }));
}

function load(target: Target, paths: string[], orders: ReturnType<typeof orderBodies>, connections: number, seconds: number): ScaleRow {
  const cpuBefore = target.cpu();
  const run = spawnSync('taskset', ['-c', '1', process.execPath, '--import', 'tsx', 'src/load-worker.ts'], {
    cwd: join(repo, 'tools', 'bench'),
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    input: JSON.stringify({ url: target.base, paths, connections, seconds, orderEvery: ORDER_EVERY, orders }),
  });
  if (run.status !== 0) throw new Error(`load on ${target.name} failed: ${run.stderr}`);
  const cpuAfter = target.cpu();
  const measured = JSON.parse(run.stdout) as {
    requestsPerSecond: number;
    p50: number;
    p99: number;
    errors: number;
    total: number;
    cacheHits: number;
    failures: Record<string, number>;
  };
  const row: ScaleRow = {
    topology: target.name,
    connections,
    requestsPerSecond: measured.requestsPerSecond,
    p50: measured.p50,
    p99: measured.p99,
    errors: measured.errors,
    total: measured.total,
    cacheHitRatio: measured.total > 0 ? measured.cacheHits / measured.total : 0,
    memory: target.memory(),
    failures: measured.failures,
    cpuMsPerRequest: Object.fromEntries(
      Object.entries(cpuAfter).map(([name, seconds]) => [name, ((seconds - (cpuBefore[name] ?? 0)) * 1000) / Math.max(1, measured.total)]),
    ),
  };
  process.stderr.write(
    `[scale] ${row.topology}, ${connections} connections: ${Math.round(row.requestsPerSecond)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, ` +
      `${row.errors} errors ${JSON.stringify(row.failures)}, ${(row.cacheHitRatio * 100).toFixed(1)} % from a cache, CPU ms/request ${cpuText(row.cpuMsPerRequest)}\n`,
  );
  return row;
}

/** The catalog of the at-scale rows in PostgreSQL: the same generator as SQLite's, run once and kept with the database. */
export function growPostgresCatalog(pgData: string, databaseUrl: string, products: number): void {
  const grown = spawnSync(process.execPath, ['--import', 'tsx', 'catalog/grow-catalog.ts', pgData, String(products)], {
    cwd: join(repo, 'tools', 'bench'),
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  if (grown.status !== 0) throw new Error('could not generate the catalog in PostgreSQL');
}

/** Waits until the answers a previous run left in the caches have expired (their max-age), so each run starts empty. */
const drainCaches = () => new Promise((resolve) => setTimeout(resolve, 11_000));

export async function runScaleLoad(options: {
  port: number;
  products: number;
  seconds: number;
}): Promise<{ rows: ScaleRow[]; distinct: number; orderVariants: number }> {
  const sqlite = grownCatalog(options.products);
  const pgData = benchDataDir(`api-pg-${options.products}`);
  const postgres = await ensurePostgres({ dir: benchPostgresDir(options.products) });
  const rows: ScaleRow[] = [];
  let distinct = 0;
  let orderVariants = 0;
  try {
    growPostgresCatalog(pgData, postgres.url, options.products);

    const allow = { CHECKOUT_RATE_LIMIT_ALLOWLIST: LOOPBACK };
    const single = async (name: string, shopName: string, env: Record<string, string>) => {
      const shop = await startShop({ port: options.port, name: shopName, keepData: true, env: { ...allow, ...env } });
      const target: Target = {
        name,
        base: shop.base,
        memory: () => ({
          server: procStatusMb(shop.pid, 'VmHWM'),
          ...(env.DATABASE_URL ? { postgresql: pssMb(processesNamed('postgres')) } : {}),
        }),
        cpu: () => ({ server: cpuSeconds(shop.pid), ...(env.DATABASE_URL ? { postgresql: cpuOf(processesNamed('postgres')) } : {}) }),
      };
      return { target, stop: shop.stop };
    };
    const cluster = async () => {
      const redis = await ensureRedis();
      publishOrigin(pgData);
      const shop = await startTopology({
        dataDir: pgData,
        databaseUrl: postgres.url,
        redisUrl: redis.url,
        servers: 2,
        workers: 1,
        port: options.port,
        env: allow,
        output: clusterLog(pgData, 'scale'),
      });
      const target: Target = {
        name: '2 servers behind nginx, PostgreSQL + Redis',
        base: shop.url,
        memory: () => ({
          ...Object.fromEntries([...shop.web, ...shop.workers].map((p) => [p.name, procStatusMb(p.child.pid!, 'VmHWM')])),
          postgresql: pssMb(processesNamed('postgres')),
          redis: pssMb(processesNamed('redis-server')),
          nginx: pssMb(processesNamed('nginx')),
        }),
        cpu: () => ({
          'web servers': cpuOf(shop.web.map((p) => p.child.pid!)),
          worker: cpuOf(shop.workers.map((p) => p.child.pid!)),
          postgresql: cpuOf(processesNamed('postgres')),
          redis: cpuOf(processesNamed('redis-server')),
          nginx: cpuOf(processesNamed('nginx')),
        }),
      };
      return {
        target,
        stop: async () => {
          await shop.stop();
          await redis.stop();
        },
      };
    };

    const setups = [
      () => single('1 server, SQLite', sqlite.name, { DATABASE_URL: '' }),
      () => single('1 server, PostgreSQL', `api-pg-${options.products}`, { DATABASE_URL: postgres.url }),
      cluster,
    ];
    for (const setup of setups) {
      const { target, stop } = await setup();
      try {
        // Each topology measures the same catalog: a database left smaller (a failed generation) stops the bench.
        const listed = (await (await fetch(`${target.base}/api/products`)).json()) as { meta?: { total?: number } };
        if ((listed.meta?.total ?? 0) < options.products)
          throw new Error(`${target.name} lists ${listed.meta?.total} products, not ${options.products}`);
        const sets = await apiUrlSets(target.base);
        distinct = new Set([...sets.mix, ...sets.listing, ...sets.facets, ...sets.product, ...sets.search]).size;
        const variants = await orderableVariants(target.base, sets.listing);
        orderVariants = variants.length;
        const orders = orderBodies(variants);
        for (const connections of SCALE_CONNECTIONS) {
          await drainCaches();
          rows.push(load(target, sets.mix, orders, connections, options.seconds));
        }
      } finally {
        await stop();
      }
    }
  } finally {
    await postgres.stop();
  }
  return { rows, distinct, orderVariants };
}

const mb = (memory: Record<string, number>) =>
  Object.entries(memory)
    .map(([name, value]) => `${name} ${Math.round(value)}`)
    .join(', ');

const cpuText = (cpu: Record<string, number>) =>
  Object.entries(cpu)
    .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
    .join(', ');

const failuresText = (failures: Record<string, number>) => {
  const parts = Object.entries(failures).map(([status, n]) => `${n}× ${status}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
};

/** The section of tools/bench/results.md. */
export function scaleSection(
  result: { rows: ScaleRow[]; distinct: number; orderVariants: number },
  products: number,
  seconds: number,
): string[] {
  return [
    `## At scale: one server on SQLite, one on PostgreSQL, two behind nginx on PostgreSQL + Redis (${products.toLocaleString('en')} products)`,
    '',
    `The mix (drawn from ${result.distinct.toLocaleString('en')} distinct URLs: 40 % product, 25 % listing, 20 % facets, 15 % search) with one request in ${ORDER_EVERY} ` +
      `an order of one piece of an in-stock item (${result.orderVariants} items in turn; each order takes stock and drops, on every server, the cached answers ` +
      `that show its product). ${seconds} s per row, each starting with empty caches; the load generator on core 1, the servers and databases unpinned. ` +
      'CPU: milliseconds of CPU time (user + system) each process or group used per request answered, over the run. ' +
      'Memory: peak resident MB of each Node process, proportional MB of PostgreSQL, Redis and nginx (tools/bench/src/scale-load.ts).',
    '',
    '| topology | connections | requests/s | p50 ms | p99 ms | errors (by status) | from a cache | CPU ms per request | memory MB |',
    '|---|---:|---:|---:|---:|---|---:|---|---|',
    ...result.rows.map(
      (row) =>
        `| ${row.topology} | ${row.connections} | ${Math.round(row.requestsPerSecond)} | ${row.p50} | ${row.p99} | ${row.errors}${failuresText(row.failures)} | ${(row.cacheHitRatio * 100).toFixed(1)} % | ${cpuText(row.cpuMsPerRequest)} | ${mb(row.memory)} |`,
    ),
    '',
  ];
}
