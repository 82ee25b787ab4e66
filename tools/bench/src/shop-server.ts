/**
 * Serves the production shop for measurements exactly as `npm start` does:
 * fresh data directory, builds deployed with the release tooling, areas on
 * their own origin, pre-compressed files, immutable caching.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRequestName, REQUESTS_PREFIX } from '@shop/release';
import { AREAS } from '@shop/shared-kernel/contract';
import { startGatewaySimulator } from '../../scripts/gateway-simulator.mjs';

export const repo = join(import.meta.dirname, '..', '..', '..');
const api = join(repo, 'server');

export type Shop = { base: string; pid: number; dataDir: string; stop: () => Promise<void> };

function release(args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(process.execPath, ['dist/release/cli.js', ...args], { cwd: api, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`release ${args.join(' ')} failed: ${result.stderr}`);
}

export const benchDataDir = (name: string) => join(repo, '.data', 'bench', name);
/**
 * Where a cluster's processes write their lines in a bench (started empty): kept beside its data,
 * so that errors in a row can be traced to what the servers and nginx said at the time.
 */
export function clusterLog(dataDir: string, tag: string): (line: string) => void {
  const file = join(dataDir, 'cluster.log');
  writeFileSync(file, '');
  process.stdout.write(`[${tag}] the cluster's processes log to ${file}\n`);
  return (line) => appendFileSync(file, line);
}

/**
 * The kept PostgreSQL of the benches with `products` products: beside the shops' data directories,
 * never inside one (a shop makes its data directory private to its own user, and PostgreSQL runs
 * as another).
 */
export const benchPostgresDir = (products: number) => benchDataDir(`postgres-${products}`);

/**
 * Releases the built areas and shell into `<dataDir>/origin` as `npm start` does: the owner's key
 * registered in the shop's database, then signed requests the server applies when it starts.
 */
export function publishOrigin(dataDir: string, shellDist?: string, env: NodeJS.ProcessEnv = process.env) {
  const owner = spawnSync(process.execPath, ['dist/release/credentials-cli.js', 'shop-key-create'], { cwd: api, env, encoding: 'utf8' });
  if (owner.status !== 0) throw new Error(`credentials shop-key-create failed: ${owner.stderr}`);
  const origin = ['--origin', join(dataDir, 'origin'), '--init', '--no-wait'];
  for (const area of AREAS) release(['deploy', area, '--no-build', ...origin], env);
  release(['deploy', 'shell', ...(shellDist ? ['--dist', shellDist] : ['--no-build']), ...origin], env);
}

/**
 * A web server (ROLE=web) leaves the release requests to a worker, so a shop of web servers alone
 * answers every page 503 ("being deployed") until one runs. A worker applies them, then goes
 * (left running, it would also carry out the orders' jobs during the measurements).
 */
async function applyReleases(dataDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const requests = join(dataDir, 'origin', REQUESTS_PREFIX);
  const pending = () => readdirSync(requests).filter(isRequestName).length;
  const worker = spawn(process.execPath, ['dist/server.js'], { cwd: api, env: { ...env, ROLE: 'worker' }, stdio: 'ignore' });
  try {
    for (let attempt = 0; pending() > 0 || !existsSync(join(dataDir, 'origin', 'builds', 'latest.json')); attempt += 1) {
      if (attempt > 300 || worker.exitCode !== null) throw new Error(`${dataDir}: the worker did not apply the release requests`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await new Promise<void>((resolve) => {
      if (worker.exitCode !== null) return resolve();
      worker.once('exit', () => resolve());
      worker.kill('SIGTERM');
    });
  }
}

export async function startShop(options: {
  port: number;
  name: string;
  shellDist?: string;
  cpu?: string;
  /** Keep the data directory (a prepared database); otherwise it starts empty. */
  keepData?: boolean;
  /** More environment for the server (e.g. SERVER_RENDER=off). */
  env?: Record<string, string>;
}): Promise<Shop> {
  const dataDir = benchDataDir(options.name);
  if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PORT: String(options.port),
    ASSET_PORT: String(options.port + 1),
    DATABASE_URL: '',
    // No scheduled backup copies the database in the middle of a measurement.
    BACKUP_INTERVAL_MS: '0',
    ...options.env,
  };
  publishOrigin(dataDir, options.shellDist, env);
  // The card gateway beside the server, as `npm start` starts it.
  const gateway = await startGatewaySimulator({ dataDir, port: options.port + 2, env, output: () => {} });
  env.GATEWAY_URL = gateway.url;
  if (env.ROLE === 'web') await applyReleases(dataDir, env);

  const command = options.cpu ? 'taskset' : process.execPath;
  // The compiled server, as `npm start` runs it (tools/scripts/build.mjs builds api/dist).
  const args = ['--enable-source-maps', 'dist/server.js'];
  const child: ChildProcess = spawn(command, options.cpu ? ['-c', options.cpu, process.execPath, ...args] : args, {
    cwd: api,
    env,
    stdio: 'ignore',
  });
  const base = `http://localhost:${options.port}`;
  for (let attempt = 0; ; attempt += 1) {
    if (
      await fetch(`${base}/api/site`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (attempt > 300) throw new Error(`${options.name}: server did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // The shop's pages are served (the releases applied): a row of 503s measures nothing.
  for (let attempt = 0; (await fetch(`${base}/`).then((r) => r.status)) !== 200; attempt += 1) {
    if (attempt > 100) throw new Error(`${options.name}: its pages are not served (no release in force)`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    base,
    pid: child.pid!,
    dataDir,
    stop: async () => {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      await gateway.stop();
    },
  };
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((sorted.length * p) / 100) - 1)]!;
};
