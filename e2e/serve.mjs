// Serves the built shop for the end-to-end tests exactly as `npm start`
// does, on a fresh data directory: areas on their own origin (another port),
// the card gateway simulator beside it (the port after that), the operator
// console on its own origin (the port after that), the server and
// the release command compiled (api/dist/, rebuilt here first when the API's
// sources changed since the last build).
// SIGUSR2 restarts it as `npm start` would: release what is new (pinned parts
// stay), then start the server again on the same data.
import { spawn, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApiServer, buildConsole } from '../tools/scripts/build.mjs';
import { startGatewaySimulator } from '../tools/scripts/gateway-simulator.mjs';
import { serverEnvironment } from '../tools/scripts/owner-key.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const api = join(here, '..', 'server');
const port = Number(process.env.E2E_PORT ?? 4310);
const dataDir = process.env.E2E_DATA_DIR ?? join(here, `.data-${port}`);
const env = {
  ...process.env,
  // As `npm start` runs it: React's production build for server rendering.
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  PORT: String(port),
  ASSET_PORT: String(port + 1),
  // The operator origin: the console and every operator call (its own port; the shop's answers 404 for them).
  OPS_PORT: String(port + 3),
  DATABASE_URL: '',
  GTM_ID: 'GTM-E2ETEST',
  // The server tells open tabs of a release at once (/builds/events); the poll is only the fallback.
  REGISTRY_POLL_MS: '60000',
  // The integrity watch checks after each release and on a browser's report; its schedule (tested in
  // the API tests) would otherwise race a test's tampering.
  INTEGRITY_CHECK_MS: '3600000',
  // Every test page load comes from one address; a canary is judged after a few page views, checked every second.
  TELEMETRY_RATE_LIMIT: '100000',
  // Each browser context is a shopper with its own telemetry session, all from this one address.
  TELEMETRY_SESSIONS_PER_ADDRESS: '100000',
  CANARY_MIN_VIEWS: '3',
  // Speed is judged on a few field samples, and a healthy canary is promoted after 20 s (canary-speed.spec.ts).
  CANARY_MIN_VITALS: '3',
  // Lab INP and LCP on this shared machine vary by tens (INP) and hundreds (LCP) of milliseconds between
  // two pages of one build when the machine is busier for one: a regression is what clears that (the
  // slow canary blocks for 400 ms on each interaction), not the production floors of 50 and 300 ms.
  CANARY_INP_FLOOR_MS: '150',
  CANARY_LCP_FLOOR_MS: '1000',
  CANARY_AUTO_PROMOTE_MS: '20000',
  // A checkout canary is judged on orders after two order-step visits each side (canary-commerce.spec.ts).
  CANARY_MIN_ORDER_VISITS: '2',
  // And on going on from the basket and contact steps after two sessions at each step each side: the
  // promoted canaries' traffic (useBasket: basket only; orderStepVisit: contact, then the order step)
  // gives 4 and 2. A catalog canary on add-to-basket after two product-page sessions each side.
  CANARY_MIN_STEP_VISITS: '2',
  CANARY_MIN_PRODUCT_VIEWS: '2',
  // A session that stopped at a step counts once quiet this long: well above the time between a visit's
  // contact-step report and its order-step report on this machine, below the promotion's wait.
  CANARY_FUNNEL_SETTLE_MS: '15000',
  // A staged canary's stage lasts a few seconds when its command names no time (release-canary.spec.ts).
  CANARY_STAGE_MS: '3000',
  CANARY_CHECK_MS: '1000',
  RELEASE_USER: 'e2e',
  // Warnings and failures only: a line per request would drown the test report.
  LOG_LEVEL: 'warn',
};

function release(args) {
  const result = spawnSync(process.execPath, ['dist/release/cli.js', ...args], { cwd: api, env, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await buildApiServer({ quiet: true });
await buildConsole({ quiet: true });
rmSync(dataDir, { recursive: true, force: true });
// As `npm start`: the owner's key (outside the data directory) registered, then a request the server applies at its start.
const owner = spawnSync(process.execPath, ['dist/release/credentials-cli.js', 'shop-key-create'], { cwd: api, env, stdio: 'inherit' });
if (owner.status !== 0) process.exit(owner.status ?? 1);
release(['deploy', 'all', '--no-build', '--init', '--no-wait']);
// The server never starts the simulator; it lives beside the server, across SIGUSR2 restarts too.
const gateway = await startGatewaySimulator({ dataDir, port: port + 2, env });
env.GATEWAY_URL = gateway.url;

let server = null;
let stopping = false;
function start() {
  server = spawn(process.execPath, ['--enable-source-maps', 'dist/server.js'], { cwd: api, env: serverEnvironment(env), stdio: 'inherit' });
  server.on('exit', (code) => {
    if (!stopping) process.exit(code ?? 0);
  });
}
start();
writeFileSync(join(dataDir, 'serve.pid'), String(process.pid));

process.on('SIGUSR2', () => {
  stopping = true;
  const asked = performance.now();
  const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
  // As the cluster's supervisor does (tools/scripts/topology.mjs): a server that does not stop is killed.
  const kill = setTimeout(() => server.kill('SIGKILL'), 15_000);
  server.once('exit', () => {
    clearTimeout(kill);
    const stopped = performance.now();
    // What `npm start` runs before serving (tools/scripts/build.mjs publishAll).
    release(['deploy', 'all', '--no-build', '--only-new', '--init', '--no-wait', '--reason', 'npm start']);
    // A restart that outlasts a test's wait says which step took the time.
    console.log(`[serve] restart: the server stopped in ${seconds(asked)}, the release took ${seconds(stopped)}; starting it again`);
    stopping = false;
    start();
  });
  server.kill('SIGTERM');
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopping = true;
    server.once('exit', () => void gateway.stop().then(() => process.exit(0)));
    server.kill(signal);
  });
}
