/**
 * Pages through nginx in the cluster (issue #43): the page mix of tools/bench/src/page-load.ts (its
 * distinct URLs), asked for by anonymous visitors with a Zipf popularity (s = 1: the k-th most
 * popular URL asked for 1/k as often as the first, popularity unrelated to the kind of page), at
 * 50 connections, against two web servers and a worker behind nginx on PostgreSQL and Redis
 * (tools/scripts/topology.mjs, what `npm run start:cluster` runs). Reported per row: the share nginx
 * answered from its cache (X-Edge-Cache HIT, STALE, UPDATING or REVALIDATED), the shares by cache
 * status (HIT; STALE or UPDATING; REVALIDATED: the body from nginx after a 304 from a server, which
 * still cost that server a check; MISS or EXPIRED: a render), pages/s, p50/p99, and the CPU time
 * (user + system) of the web servers and of nginx per page view.
 * Rows: the edge starting empty, then (after a warm-up of the same load, not counted) a warm edge.
 * The load generator runs on core 1; the servers, nginx and the databases are not pinned.
 *   cd bench && node --import tsx src/edge-load.ts      (BENCH_PRODUCTS, BENCH_LOAD_SECONDS, BENCH_EDGE_WARM_UP_SECONDS)
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePostgres } from '../../scripts/ensure-postgres.mjs';
import { ensureRedis } from '../../scripts/ensure-redis.mjs';
import { startTopology } from '../../scripts/topology.mjs';
import { pageMix } from './page-load.ts';
import { growPostgresCatalog } from './scale-load.ts';
import { cpuSeconds, parentOf, processesNamed } from './processes.ts';
import { benchDataDir, benchPostgresDir, clusterLog, publishOrigin, repo } from './shop-server.ts';
import { random } from './url-sets.ts';

/** nginx's cache statuses of an answer it gave from its cache (stale ones while it fetches the page anew). */
const FROM_EDGE = ['HIT', 'STALE', 'UPDATING', 'REVALIDATED'];
/** The shares reported, by X-Edge-Cache status: what reached a server and what it cost there. */
const GROUPS = { HIT: ['HIT'], 'STALE/UPDATING': ['STALE', 'UPDATING'], REVALIDATED: ['REVALIDATED'], 'MISS/EXPIRED': ['MISS', 'EXPIRED'] };
export type EdgeGroup = keyof typeof GROUPS;
/** How many page views the load cycles through (drawn once, the same every run). */
const VIEWS = 400_000;
const CONNECTIONS = 50;
/** The warm row follows this many rows' time of the same load, not counted. */
const WARM_UP_ROWS = 3;

export type EdgeRow = {
  name: string;
  pagesPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  errors: number;
  failures: Record<string, number>;
  /** Answers by X-Edge-Cache status. */
  edge: Record<string, number>;
  edgeShare: number;
  /** Shares of the views by X-Edge-Cache group (the rest: BYPASS or no status). */
  groups: Record<EdgeGroup, number>;
  /** CPU milliseconds per page view: both web servers together, and nginx. */
  webCpuMsPerView: number;
  nginxCpuMsPerView: number;
};

export type EdgeLoad = { rows: EdgeRow[]; distinct: number; topShare: number };

/** nginx's processes (master and workers) whose command line names its directory. */
function nginxPids(dir: string): number[] {
  // Workers carry no arguments of their own: their parent (the master) names the directory.
  const named = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir);
    } catch {
      return false;
    }
  };
  return processesNamed('nginx').filter((pid) => named(pid) || named(parentOf(pid)));
}

/**
 * `views` page views over `urls` with a Zipf popularity of exponent `s`: the URLs shuffled (so
 * popularity is not the mix's order), then each view drawn by the inverse of the cumulative weights.
 */
export function zipfViews(urls: string[], views: number, s = 1, seed = 43): { paths: string[]; topShare: number } {
  const next = random(seed);
  const ranked = [...urls];
  for (let i = ranked.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [ranked[i], ranked[j]] = [ranked[j]!, ranked[i]!];
  }
  const cumulative: number[] = [];
  let sum = 0;
  for (let k = 1; k <= ranked.length; k += 1) cumulative.push((sum += 1 / k ** s));
  const paths: string[] = [];
  for (let i = 0; i < views; i += 1) {
    const target = next() * sum;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    paths.push(ranked[low]!);
  }
  return { paths, topShare: cumulative[Math.min(99, cumulative.length - 1)]! / sum };
}

function load(name: string, base: string, paths: string[], seconds: number, cpu: () => { web: number; nginx: number }): EdgeRow {
  const before = cpu();
  const run = spawnSync('taskset', ['-c', '1', process.execPath, '--import', 'tsx', 'src/load-worker.ts'], {
    cwd: join(repo, 'tools', 'bench'),
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    // Anonymous visitors' browsers: compressed HTML, no cookies.
    input: JSON.stringify({
      url: base,
      paths,
      connections: CONNECTIONS,
      seconds,
      headers: { 'accept-encoding': 'br, gzip', accept: 'text/html' },
    }),
  });
  if (run.status !== 0) throw new Error(`edge load ${name} failed: ${run.stderr}`);
  const after = cpu();
  const measured = JSON.parse(run.stdout) as {
    requestsPerSecond: number;
    p50: number;
    p99: number;
    errors: number;
    total: number;
    failures: Record<string, number>;
    edge: Record<string, number>;
  };
  const views = Math.max(1, measured.total);
  const fromEdge = FROM_EDGE.reduce((sum, status) => sum + (measured.edge[status] ?? 0), 0);
  const groups = Object.fromEntries(
    Object.entries(GROUPS).map(([group, statuses]) => [
      group,
      statuses.reduce((sum, status) => sum + (measured.edge[status] ?? 0), 0) / views,
    ]),
  ) as Record<EdgeGroup, number>;
  const row: EdgeRow = {
    name,
    pagesPerSecond: measured.requestsPerSecond,
    p50: measured.p50,
    p99: measured.p99,
    total: measured.total,
    errors: measured.errors,
    failures: measured.failures,
    edge: measured.edge,
    edgeShare: fromEdge / views,
    groups,
    webCpuMsPerView: ((after.web - before.web) * 1000) / views,
    nginxCpuMsPerView: ((after.nginx - before.nginx) * 1000) / views,
  };
  process.stderr.write(
    `[edge] ${name}: ${Math.round(row.pagesPerSecond)} pages/s, p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.errors} errors, ` +
      `${(row.edgeShare * 100).toFixed(1)} % from the edge (${shares(row)}), CPU ms per view: web servers ${row.webCpuMsPerView.toFixed(2)}, nginx ${row.nginxCpuMsPerView.toFixed(2)}\n`,
  );
  return row;
}

/**
 * `warmUpSeconds` (default three rows' time): the load before the warm row. A page's ETag is
 * confirmed for minutes (server/src/web/page-validator.ts), so the tail's share settles only after
 * a warm-up longer than that; the default shows the edge a minute into the load.
 */
export async function runEdgeLoad(options: {
  port?: number;
  products: number;
  seconds: number;
  warmUpSeconds?: number;
}): Promise<EdgeLoad> {
  const pgData = benchDataDir(`api-pg-${options.products}`);
  const postgres = await ensurePostgres({ dir: benchPostgresDir(options.products) });
  try {
    growPostgresCatalog(pgData, postgres.url, options.products);
    const redis = await ensureRedis();
    try {
      publishOrigin(pgData);
      const shop = await startTopology({
        dataDir: pgData,
        databaseUrl: postgres.url,
        redisUrl: redis.url,
        servers: 2,
        workers: 1,
        ...(options.port ? { port: options.port } : {}),
        output: clusterLog(pgData, 'edge'),
      });
      try {
        const mix = await pageMix(shop.url);
        const distinct = [...new Set(mix.paths)];
        const { paths, topShare } = zipfViews(distinct, VIEWS);
        // A web server's pid changes when its standby takes over: read at each measurement.
        const cpu = () => ({
          web: shop.web.reduce((sum, server) => sum + cpuSeconds(server.child.pid!), 0),
          nginx: nginxPids(shop.nginxDir).reduce((sum, pid) => sum + cpuSeconds(pid), 0),
        });
        // Each row goes on with the views where the one before stopped: replaying the same first views
        // would ask the warm edge only for pages it has already seen, and flatter it.
        let viewed = 0;
        const row = (name: string, seconds: number) => {
          const from = viewed % paths.length;
          const measured = load(name, shop.url, [...paths.slice(from), ...paths.slice(0, from)], seconds, cpu);
          viewed += measured.total;
          return measured;
        };
        const cold = row('edge empty at the start', options.seconds);
        // Then as a shop runs: the popular pages kept and refreshed, only the tail's first views reach a server.
        const warmUp = options.warmUpSeconds ?? WARM_UP_ROWS * options.seconds;
        row(`warm-up (not counted), ${warmUp} s`, warmUp);
        const rows = [cold, row(`edge warm (after ${warmUp + options.seconds} s of this load)`, options.seconds)];
        return { rows, distinct: distinct.length, topShare };
      } finally {
        await shop.stop();
      }
    } finally {
      await redis.stop();
    }
  } finally {
    await postgres.stop();
  }
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
const shares = (row: EdgeRow) =>
  Object.entries(row.groups)
    .map(([group, share]) => `${group} ${percent(share)}`)
    .join(', ');

const statuses = (edge: Record<string, number>) =>
  Object.entries(edge)
    .sort(([, a], [, b]) => b - a)
    .map(([status, n]) => `${status} ${n}`)
    .join(', ');

/** The section of tools/bench/results.md. */
export function edgeSection(result: EdgeLoad, products: number, seconds: number): string[] {
  return [
    `## Pages through nginx in the cluster, Zipf popularity (${products.toLocaleString('en')} products)`,
    '',
    `Anonymous page views (no cookies, compressed HTML) over the ${result.distinct.toLocaleString('en')} distinct URLs of the server-rendered page mix, ` +
      `with a Zipf popularity (s = 1; the 100 most popular URLs get ${(result.topShare * 100).toFixed(0)} % of the views), ${CONNECTIONS} connections, ` +
      `${seconds} s per row, against two web servers and a worker behind nginx on PostgreSQL and Redis. nginx keeps a page for its s-maxage and answers it ` +
      'stale for its stale-while-revalidate while it fetches it anew, an expired one asked for with its ETag (docs/operations.md). ' +
      '"From the edge": X-Edge-Cache HIT, STALE, UPDATING or REVALIDATED; REVALIDATED is the body from nginx after a 304 from a server ' +
      "(a check there, no render), MISS or EXPIRED a render (or the server's page cache). " +
      'CPU: milliseconds of CPU time (user + system) per page view, both web servers together, and nginx; the load generator on core 1 (tools/bench/src/edge-load.ts).',
    '',
    '| edge | pages/s | p50 ms | p99 ms | errors | from the edge | HIT | STALE/UPDATING | REVALIDATED | MISS/EXPIRED | X-Edge-Cache | web servers CPU ms per view | nginx CPU ms per view |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|',
    ...result.rows.map(
      (row) =>
        `| ${row.name} | ${Math.round(row.pagesPerSecond)} | ${row.p50} | ${row.p99} | ${row.errors} | ${percent(row.edgeShare)} | ` +
        `${percent(row.groups.HIT)} | ${percent(row.groups['STALE/UPDATING'])} | ${percent(row.groups.REVALIDATED)} | ${percent(row.groups['MISS/EXPIRED'])} | ${statuses(row.edge)} | ${row.webCpuMsPerView.toFixed(2)} | ${row.nginxCpuMsPerView.toFixed(2)} |`,
    ),
    '',
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const products = Number(process.env.BENCH_PRODUCTS ?? 100_000);
  const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
  const warmUpSeconds = process.env.BENCH_EDGE_WARM_UP_SECONDS ? Number(process.env.BENCH_EDGE_WARM_UP_SECONDS) : undefined;
  const result = await runEdgeLoad({ products, seconds, ...(warmUpSeconds ? { warmUpSeconds } : {}) });
  process.stdout.write(`${edgeSection(result, products, seconds).join('\n')}\n`);
}
