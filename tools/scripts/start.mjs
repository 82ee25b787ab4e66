// `npm start`: install what is missing, build what changed (the server too,
// into JavaScript: production runs api/dist/server.js, not TypeScript), publish,
// then serve the whole shop (the database is created and seeded on first run)
// under a supervisor that restarts the server when it dies, with the card gateway
// simulator beside it (GATEWAY_URL; unless GATEWAY_URL names a gateway already).
// The server prints the shop's address and the operator console's (its own origin,
// OPS_PORT, default PORT+3).
import { join, resolve } from 'node:path';
import { ensureDependencies, log, refuseBenchOnlySettings, root, seconds } from './lib.mjs';
import { buildAll, publishAll } from './build.mjs';
import { startGatewaySimulator } from './gateway-simulator.mjs';
import { supervise } from './supervise.mjs';
import { serverEnvironment } from './owner-key.mjs';

refuseBenchOnlySettings();
const since = performance.now();
await ensureDependencies();
await buildAll();
await publishAll();
log(`Prepared in ${seconds(since)}; starting the server (restarted by a supervisor if it dies)`);

// React (server rendering) runs its production build unless told otherwise.
process.env.NODE_ENV ??= 'production';
const apiDir = join(root, 'server');
// The server's data directory and the gateway's port as the server reads them (it runs in server/).
const dataDir = resolve(apiDir, process.env.DATA_DIR ?? join(root, '.data'));
const port = Number(process.env.PORT ?? 3000);
const gateway = process.env.GATEWAY_URL
  ? null
  : await startGatewaySimulator({ dataDir, port: Number(process.env.GATEWAY_PORT ?? (port === 0 ? 0 : port + 2)) });
if (gateway) process.env.GATEWAY_URL = gateway.url;
// The server never gets the owner's private key (nor where it lies): it verifies with public keys only.
const code = await supervise({
  command: process.execPath,
  args: ['--enable-source-maps', 'dist/server.js'],
  cwd: apiDir,
  env: serverEnvironment(process.env),
});
await gateway?.stop();
process.exit(code);
