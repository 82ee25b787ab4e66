/**
 * The server-rendered pages row alone, cache off, for working on server rendering (the same mix,
 * warm-up and connections as page-load.ts), with the server's CPU time per page over the measured
 * row (user + system, from /proc: on a shared machine steadier than pages per second). Optionally
 * a CPU profile of the measured row (cpu-profile-preload.mjs); HOLD=1 only serves the shop until
 * interrupted (Ctrl-C), to look at pages by hand.
 *   BENCH_PRODUCTS=100000 BENCH_LOAD_SECONDS=10 PORT=4650 [CPU_PROF_OUT=/abs/file.cpuprofile] [HOLD=1] node --import tsx src/page-load-alone.ts
 */
import { join } from 'node:path';
import { startShop } from './shop-server.ts';
import { grownCatalogue, runScenarios } from './api-load.ts';
import { pageMix } from './page-load.ts';
import { cpuSeconds } from './processes.ts';

const products = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const port = Number(process.env.PORT ?? 4650);
const { name } = grownCatalogue(products);
const profile = process.env.CPU_PROF_OUT;
const shop = await startShop({
  port,
  name,
  cpu: '0',
  keepData: true,
  env: {
    ROLE: 'web',
    SERVER_CACHE: 'off',
    ...(profile ? { NODE_OPTIONS: `--import ${join(import.meta.dirname, 'cpu-profile-preload.mjs')}`, PROF_OUT: profile } : {}),
  },
});
try {
  if (process.env.HOLD) {
    // Serves until interrupted (for looking at pages by hand).
    process.stderr.write(`serving on ${shop.base}\n`);
    await new Promise((resolve) => process.once('SIGINT', resolve));
    process.exitCode = 0;
  } else await measure();
} finally {
  await shop.stop();
}

async function measure() {
  const mix = await pageMix(shop.base);
  const headers = { 'accept-encoding': 'br, gzip', accept: 'text/html' };
  const options = { connections: 50, seconds };
  runScenarios(shop, [{ name: 'warm-up', paths: [...mix.paths].reverse(), headers }], options);
  // The server's CPU time (user + system) over the measured row: CPU per page under shared load.
  const cpu = () => cpuSeconds(shop.pid) * 1000;
  if (profile) process.kill(shop.pid, 'SIGUSR2');
  const before = cpu();
  const [row] = runScenarios(shop, [{ name: 'pages, cache off', paths: mix.paths, headers }], options);
  const cpuMs = cpu() - before;
  console.log(JSON.stringify({ ...row, cpuMsPerPage: row ? cpuMs / row.total : null }));
}
