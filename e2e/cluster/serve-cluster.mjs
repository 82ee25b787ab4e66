// Serves the built shop as it runs at scale for the end-to-end tests on the cluster: nginx on
// E2E_PORT (the areas on the port after it, the operator origin on E2E_PORT+3) in front of two web servers and a worker, on a
// throwaway PostgreSQL and Redis, the current builds released to a fresh origin in
// E2E_CLUSTER_DATA_DIR (tools/scripts/cluster-shop.mjs, as the multi-server tests start it). Writes
// cluster.json there for the tests once everything answers; on SIGTERM or SIGINT (Playwright's
// graceful shutdown) stops every process and removes its directories.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApiServer, buildConsole } from '../../tools/scripts/build.mjs';
import { startClusterShop } from '../../tools/scripts/cluster-shop.mjs';

const port = Number(process.env.E2E_PORT ?? 4310);
const dataDir = process.env.E2E_CLUSTER_DATA_DIR;
if (!dataDir) throw new Error('E2E_CLUSTER_DATA_DIR is not set');

let cluster = null;
let stopping = null;
const stop = () => {
  stopping ??= (async () => {
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  })();
  return stopping;
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop());

await buildApiServer({ quiet: true });
await buildConsole({ quiet: true });
rmSync(dataDir, { recursive: true, force: true });
cluster = await startClusterShop({
  dataDir,
  servers: 2,
  workers: 1,
  port,
  opsPort: port + 3,
  env: {
    GTM_ID: 'GTM-E2ETEST',
    // Every test page load comes from one address (reports, and a telemetry session per browser context).
    TELEMETRY_RATE_LIMIT: '100000',
    TELEMETRY_SESSIONS_PER_ADDRESS: '100000',
    REGISTRY_POLL_MS: '60000',
    // The integrity watch checks after each release and on a browser's report; its schedule (tested in
    // the API tests) would otherwise race a test's tampering.
    INTEGRITY_CHECK_MS: '3600000',
    RELEASE_USER: 'e2e-cluster',
    LOG_LEVEL: 'warn',
  },
  output: (line) => process.stdout.write(line),
});
if (stopping) await stopping;
const { shop } = cluster;
writeFileSync(
  join(dataDir, 'cluster.json'),
  JSON.stringify({
    url: shop.url,
    assetUrl: shop.assetUrl,
    gatewayUrl: shop.gatewayUrl,
    web: shop.web.map((s) => s.url),
    opsUrl: shop.opsUrl,
    metricsToken: cluster.metricsToken,
    databaseUrl: cluster.databaseUrl,
  }),
);
process.stdout.write(`[e2e cluster] nginx on ${shop.url}, web servers ${shop.web.map((s) => s.url).join(', ')}\n`);
