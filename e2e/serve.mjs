// Serves the built shop for the end-to-end tests exactly as `npm start`
// does, on a fresh data directory: areas on their own origin (another port).
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const api = join(here, '..', 'api');
const port = Number(process.env.E2E_PORT ?? 4310);
const dataDir = process.env.E2E_DATA_DIR ?? join(here, `.data-${port}`);
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: String(port),
  ASSET_PORT: String(port + 1),
  DATABASE_URL: '',
  GTM_ID: 'GTM-E2ETEST',
  REGISTRY_POLL_MS: '1000',
  // Warnings and failures only: a line per request would drown the test report.
  LOG_LEVEL: 'warn',
};

rmSync(dataDir, { recursive: true, force: true });
const publish = spawnSync(process.execPath, ['--import', 'tsx', 'src/release/cli.ts', 'deploy', 'all', '--no-build'], { cwd: api, env, stdio: 'inherit' });
if (publish.status !== 0) process.exit(publish.status ?? 1);
const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: api, env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
