// The shop as it runs at scale, for tests: a throwaway PostgreSQL and Redis, the current builds
// released to a fresh origin in `dataDir`, and tools/scripts/topology.mjs's processes (web servers,
// workers, nginx) on them. The multi-server tests (api/test-cluster/global-setup.mjs) and the
// end-to-end tests on the cluster (e2e/cluster/serve-cluster.mjs) both start it from here.
//
//   const cluster = await startClusterShop({ dataDir, servers: 2, workers: 1 });
//   cluster.shop.url, cluster.shop.opsUrl, cluster.metricsToken, …; await cluster.stop();   // everything, dataDir too
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { root } from './lib.mjs';
import { ensurePostgres } from './ensure-postgres.mjs';
import { ensureRedis } from './ensure-redis.mjs';
import { startTopology } from './topology.mjs';

const execFileAsync = promisify(execFile);
const apiDir = join(root, 'server');

/**
 * `prepare(cleanups)` runs once the databases are up and before the release: it may start more
 * (an SMTP sink, an S3 server), push their stop functions on `cleanups`, and answer settings for
 * the release command (`releaseEnv`, also given to every process) and for the processes (`env`).
 * The release command must have been built (api/dist/release/cli.js, tools/scripts/build.mjs buildApiServer).
 */
export async function startClusterShop({ dataDir, servers = 2, workers = 1, port, opsPort, env = {}, prepare, output, readyTimeoutMs }) {
  mkdirSync(dataDir, { recursive: true });
  const cleanups = [() => rmSync(dataDir, { recursive: true, force: true })];
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const postgres = await ensurePostgres();
    cleanups.push(() => postgres.stop());
    const redis = await ensureRedis();
    cleanups.push(() => redis.stop());
    const prepared = (await prepare?.(cleanups)) ?? {};
    const releaseEnv = { DATA_DIR: dataDir, RELEASE_USER: 'cluster-test', ...prepared.releaseEnv };
    // The owner's key, registered in the cluster's database; then the release, a request the servers apply at their start.
    // Not execFileSync: a server started by `prepare` (the S3 one) answers from this process's event loop.
    const owner = { cwd: apiDir, env: { ...process.env, ...releaseEnv, DATABASE_URL: postgres.url }, maxBuffer: 16 * 1024 * 1024 };
    await execFileAsync(process.execPath, ['dist/release/credentials-cli.js', 'shop-key-create'], owner).catch((error) => {
      throw new Error(`the owner's release key failed: ${error.stderr ?? error.message}`);
    });
    await execFileAsync(process.execPath, ['dist/release/cli.js', 'deploy', 'all', '--no-build', '--init', '--no-wait'], owner).catch(
      (error) => {
        throw new Error(`release failed: ${error.stderr ?? error.message}`);
      },
    );
    const shop = await startTopology({
      dataDir,
      databaseUrl: postgres.url,
      redisUrl: redis.url,
      servers,
      workers,
      ...(port ? { port } : {}),
      ...(opsPort ? { opsPort } : {}),
      ...(readyTimeoutMs ? { readyTimeoutMs } : {}),
      env: { ...releaseEnv, ...prepared.env, ...env },
      ...(output ? { output } : {}),
    });
    cleanups.push(() => shop.stop());
    const metricsToken = await createMetricsCredential({ ...releaseEnv, DATABASE_URL: postgres.url });
    return { shop, dataDir, databaseUrl: postgres.url, redisUrl: redis.url, releaseEnv, metricsToken, cleanups, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A metrics credential for the cluster's Prometheus and tests (`credentials metrics-create`): its secret, printed once. */
export async function createMetricsCredential(env, name = `cluster-metrics-${Date.now().toString(36)}`) {
  const { stdout } = await execFileAsync(process.execPath, ['dist/release/credentials-cli.js', 'metrics-create', name], {
    cwd: apiDir,
    env: { ...process.env, ...env },
  }).catch((error) => {
    throw new Error(`metrics-create failed: ${error.stderr ?? error.message}`);
  });
  const secret = stdout.split('\n').find((line) => line.startsWith('shopmet_'));
  if (!secret) throw new Error(`metrics-create printed no secret: ${stdout}`);
  return secret.trim();
}
