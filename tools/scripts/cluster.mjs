// `npm run start:cluster`: the production topology on this one machine. Installs what is missing,
// builds what changed and publishes it (as `npm start` does, into the cluster's own data directory),
// then starts PostgreSQL (data kept in .data/cluster/postgres) and Redis unless DATABASE_URL /
// REDIS_URL name them, one worker (background jobs; it migrates and seeds an empty database first),
// N web servers and nginx in front (tools/scripts/topology.mjs, the same start as the multi-server tests),
// and prints one address and what runs where. Ctrl+C (or SIGTERM) stops everything it started, in
// the reverse order, and leaves no temporary directory; the data directory stays.
//
//   npm run start:cluster                          PORT (default 3000): the shop; PORT+1: the areas; OPS_PORT (PORT+3): the operator origin
//   PORT=3300 CLUSTER_SERVERS=2 node tools/scripts/cluster.mjs [--no-build]
//
// CLUSTER_SERVERS: web servers (default: os.availableParallelism()). --no-build: run what is built.
// --prometheus (or CLUSTER_PROMETHEUS=1): Prometheus beside them on 127.0.0.1, scraping every web server
// and worker with a metrics credential of its own (made at each start) and the shop's alerting rules
// (monitoring/prometheus/alerts.yml); stopped with the cluster.
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { join, relative } from 'node:path';
import { ensureDependencies, log, refuseBenchOnlySettings, root, seconds } from './lib.mjs';
import { buildAll, publishAll } from './build.mjs';
import { ensurePostgres } from './ensure-postgres.mjs';
import { ensureRedis } from './ensure-redis.mjs';
import { startPrometheus } from './ensure-prometheus.mjs';
import { startTopology } from './topology.mjs';
import { createMetricsCredential } from './cluster-shop.mjs';

const dataDir = join(root, '.data', 'cluster');
const originDir = join(dataDir, 'origin');
const postgresDir = join(dataDir, 'postgres');
/** Connections each server process opens to PostgreSQL at most (api/src/db/connect.ts). */
const POOL_PER_PROCESS = 10;
/** What ensure-postgres configures. */
const MAX_CONNECTIONS = 200;

function settings() {
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 1 || port > 65534) throw new Error(`Invalid PORT: ${process.env.PORT}`);
  const servers = process.env.CLUSTER_SERVERS ? Number(process.env.CLUSTER_SERVERS) : os.availableParallelism();
  if (!Number.isInteger(servers) || servers < 1) throw new Error(`Invalid CLUSTER_SERVERS: ${process.env.CLUSTER_SERVERS}`);
  const opsPort = Number(process.env.OPS_PORT ?? port + 3);
  if (!Number.isInteger(opsPort) || opsPort < 1 || opsPort > 65535) throw new Error(`Invalid OPS_PORT: ${process.env.OPS_PORT}`);
  return {
    port,
    opsPort,
    servers,
    build: !process.argv.includes('--no-build'),
    prometheus: process.argv.includes('--prometheus') || process.env.CLUSTER_PROMETHEUS === '1',
  };
}

/** Fails early (not after minutes of starting) when nginx could not listen on a port. */
function assertFree(port) {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (error) =>
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `port ${port} is in use; choose another PORT (the shop takes PORT and PORT+1) or OPS_PORT (default PORT+3)`
            : error.message,
        ),
      ),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

// What was started, stopped in the reverse order: nginx and the servers, Redis, PostgreSQL.
const running = [];
let current = null;
let stopping = null;

/** Runs one start step; whatever it started is stopped on the way out even if Ctrl+C came meanwhile. */
async function starting(name, start) {
  current = start();
  try {
    const started = await current;
    running.push({ name, stop: started.stop });
    return started;
  } finally {
    current = null;
  }
}

function shutdown(code) {
  stopping ??= (async () => {
    // A step under way finishes (or fails) first, so that what it started is stopped too.
    await current?.catch(() => undefined);
    for (const { name, stop } of running.reverse()) {
      log(`Stopping ${name}…`);
      await stop().catch((error) => log(`Stopping ${name} failed: ${error instanceof Error ? error.message : String(error)}`));
    }
    log('Stopped everything the cluster started');
    process.exit(code);
  })();
  return stopping;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) return;
    log(`${signal}: stopping the cluster`);
    void shutdown(0);
  });
}

/**
 * A server the supervisor gave up on (it died too often) is reported; without any worker or web
 * server left the cluster stops. One that died and came back is only logged by the supervisor.
 */
function gaveUp(server, shop) {
  if (stopping || !shop) return;
  const left = [...shop.web, ...shop.workers].filter((s) => s.role === server.role && !s.gaveUp).length;
  log(
    `${server.name} keeps dying and is not restarted again; ${left} ${server.role === 'web' ? 'web server(s)' : 'worker(s)'} left (GET /api/ready shows which)`,
  );
  if (left === 0) {
    log(`No ${server.role} left: stopping the cluster`);
    void shutdown(1);
  }
}

function table(rows) {
  const width = Math.max(...rows.map(([what]) => what.length));
  return rows.map(([what, where]) => `    ${what.padEnd(width)}  ${where}`).join('\n');
}

async function main() {
  refuseBenchOnlySettings();
  const since = performance.now();
  const { port, opsPort, servers, build, prometheus: withPrometheus } = settings();
  await assertFree(port);
  await assertFree(port + 1);
  await assertFree(opsPort);

  await ensureDependencies();
  if (build) await buildAll();
  else log('--no-build: running what is built');
  mkdirSync(dataDir, { recursive: true });
  const database = process.env.DATABASE_URL
    ? { url: process.env.DATABASE_URL, dir: null }
    : await starting('PostgreSQL', () => ensurePostgres({ dir: postgresDir }));
  // The same release as `npm start`, into the origin every server of the cluster reads: the owner's
  // key registered in the cluster's database, then a request the servers apply when they start.
  await publishAll(originDir, { ...process.env, DATA_DIR: dataDir, DATABASE_URL: database.url });
  const redis = process.env.REDIS_URL ? { url: process.env.REDIS_URL, dir: null } : await starting('Redis', () => ensureRedis());
  if (!process.env.DATABASE_URL && (servers + 1) * POOL_PER_PROCESS > MAX_CONNECTIONS - 10) {
    log(
      `Warning: ${servers + 1} server processes may open ${(servers + 1) * POOL_PER_PROCESS} connections, PostgreSQL allows ${MAX_CONNECTIONS}`,
    );
  }

  log(`Starting the worker, then ${servers} web server(s), then nginx`);
  let shop = null;
  shop = await starting('nginx, the web servers and the worker', () =>
    startTopology({
      dataDir,
      databaseUrl: database.url,
      redisUrl: redis.url,
      servers,
      workers: 1,
      port,
      opsPort,
      // Every server reads the releases from the one origin published above.
      env: { ORIGIN_DIR: originDir },
      onGiveUp: (server) => gaveUp(server, shop),
    }),
  );
  if (stopping) return;
  // Every process's /api/metrics, with a metrics credential made for it (it can read the metrics and nothing else).
  const prometheus = withPrometheus
    ? await starting('Prometheus', async () =>
        startPrometheus({
          targets: [
            ...shop.web.map((w) => ({ job: 'shop-web', address: `127.0.0.1:${w.port}` })),
            ...shop.workers.map((w) => ({ job: 'shop-worker', address: `127.0.0.1:${w.port}` })),
          ],
          token: await createMetricsCredential({ DATA_DIR: dataDir, DATABASE_URL: database.url }, `prometheus-${Date.now().toString(36)}`),
        }),
      )
    : null;
  if (stopping) return;

  const shown = (path) => relative(root, path) || '.';
  const rows = [
    ['shop (nginx)', `${shop.url}/  → ${shop.web.map((w) => w.name).join(', ')}; X-Edge-Cache tells cache hits`],
    ['areas (nginx)', `${shop.assetUrl}/  → the web servers' area ports`],
    ['operator console (nginx)', `${shop.opsUrl}/ops  → the web servers' operator ports (its own origin)`],
    ['readiness', `${shop.url}/api/ready  → every process, counted; a dead one is restarted within a second`],
    ['nginx dir', `${shop.nginxDir} (config, error log and both caches; removed on stop)`],
    ...shop.web.map((w) => [w.name, `http://127.0.0.1:${w.port} (areas :${w.assetPort}, operator :${w.opsPort}), pid ${w.child.pid}`]),
    ...shop.workers.map((w) => [w.name, `http://127.0.0.1:${w.port}/api/health (background jobs), pid ${w.child.pid}`]),
    ['card gateway', process.env.GATEWAY_URL ? shop.gatewayUrl : `${shop.gatewayUrl} (the simulator, tools/gateway-simulator)`],
    ['PostgreSQL', database.dir ? `${database.url} (data kept in ${shown(database.dir)})` : `${database.url} (DATABASE_URL)`],
    ['Redis', redis.dir ? `${redis.url} (throwaway, ${redis.dir})` : `${redis.url} (REDIS_URL)`],
    ...(prometheus
      ? [['Prometheus', `${prometheus.url}/alerts  (every server and worker scraped, rules: monitoring/prometheus/alerts.yml)`]]
      : []),
    ['data dir', `${shown(dataDir)} (releases in ${shown(originDir)}, secrets, outbox)`],
  ];
  log(`Cluster ready in ${seconds(since)}`);
  process.stdout.write(
    `\n  The shop: ${shop.url}/\n  The operator console: ${shop.opsUrl}/ops\n\n${table(rows)}\n\n  Ctrl+C stops everything.\n\n`,
  );
}

main().catch((error) => {
  log(`Cluster failed to start: ${error instanceof Error ? error.message : String(error)}`);
  void shutdown(1);
});
