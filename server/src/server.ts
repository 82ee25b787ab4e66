/**
 * The production server of `npm start` (and of each process of a cluster): reads its settings once,
 * builds the shop for its role (shop.ts), starts its work, listens, and stops on a signal.
 * ROLE=all (default): the API and the shell on one origin, the areas' static origin on a second port,
 * the operator console and the operator's calls on a third (the operator origin), and the background
 * work. Creates, migrates and seeds the database on the first start.
 */
import { performance } from 'node:perf_hooks';
import { buildShop, type Shop } from './shop.ts';
import { readShopSettings, serverLog, StartRefused } from './shop-settings.ts';

async function main() {
  const settings = readShopSettings(process.env);
  const started = performance.now();
  const shop = await buildShop(settings, settings.server.role);
  await shop.startWork();
  await shop.listen();
  for (const line of shop.startLines()) serverLog(line);
  serverLog(`ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (shop.banner) process.stdout.write(shop.banner);
  stopOnSignal(shop);
}

/**
 * How long a stop waits for running requests and jobs: below the supervisors' SIGKILL (the cluster's
 * after 15 s, `npm start`'s after 60 s: tools/scripts/supervise.mjs), so the log says what held the
 * stop. Nothing is lost by ending sooner: a request's transaction rolls back, and the outbox carries
 * out its jobs on the next start.
 */
const STOP_WAIT_MS = 10_000;

/** Stops taking requests, lets the running ones and the outbox's running jobs finish (for a while), then ends the process. */
function stopOnSignal(shop: Shop) {
  const stop = async () => {
    const asked = performance.now();
    setTimeout(() => {
      shop.api.log.error({ waitingFor: shop.closing() }, `the stop did not finish within ${STOP_WAIT_MS / 1000} s: ending the process`);
      process.exit(1);
    }, STOP_WAIT_MS).unref();
    await shop.close();
    serverLog(`stopped in ${((performance.now() - asked) / 1000).toFixed(1)} s`);
    process.exit(0);
  };
  // Nothing a request does may end the process unnoticed: a stray rejection is logged with its cause.
  process.on('unhandledRejection', (reason) => shop.api.log.error({ err: reason }, 'unhandled promise rejection'));
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  if (error instanceof StartRefused) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const code = (error as NodeJS.ErrnoException).code;
  process.stderr.write(
    code === 'EADDRINUSE'
      ? `[server] port already in use: ${(error as Error).message}. Set PORT (and ASSET_PORT, OPS_PORT) to free ports.\n`
      : `[server] failed to start: ${(error as Error).stack ?? String(error)}\n`,
  );
  process.exit(1);
});
