/**
 * The server-rendered pages row alone, cache off, for working on server rendering (the same mix,
 * warm-up and connections as page-load.ts), with the server's CPU time per page over the measured
 * row (user + system, from /proc: on a shared machine steadier than pages per second), and the
 * mean bytes of a page as sent with brotli and as HTML (the first 100 pages of the mix; not while profiling). Optionally
 * a CPU profile of the measured row (cpu-profile-preload.mjs); HOLD=1 only serves the shop until
 * interrupted (Ctrl-C), to look at pages by hand.
 *   BENCH_PRODUCTS=100000 BENCH_LOAD_SECONDS=10 PORT=4650 [CPU_PROF_OUT=/abs/file.cpuprofile] [HOLD=1] node --import tsx src/page-load-alone.ts
 */
import { get } from 'node:http';
import { join } from 'node:path';
import { startShop } from './shop-server.ts';
import { grownCatalog, runScenarios } from './api-load.ts';
import { pageMix } from './page-load.ts';
import { cpuSeconds } from './processes.ts';

const products = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const port = Number(process.env.PORT ?? 4650);
const { name } = grownCatalog(products);
const profile = process.env.CPU_PROF_OUT;
const shop = await startShop({
  port,
  name,
  cpu: '0',
  keepData: true,
  env: {
    ROLE: 'web',
    SERVER_CACHE: 'off',
    // RENDER_MODE=in-process: the benchmark's in-process render; RENDERERS=n: the sandbox's renderers.
    ...(process.env.RENDER_MODE === 'in-process' ? { RENDER_IN_PROCESS_FOR_BENCH: '1' } : {}),
    ...(process.env.RENDERERS ? { RENDERERS: process.env.RENDERERS } : {}),
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
  console.log(
    JSON.stringify({ ...row, cpuMsPerPage: row ? cpuMs / row.total : null, ...(profile ? {} : await pageBytes(mix.paths.slice(0, 100))) }),
  );
}

/**
 * What a shopper's line carries: the mean size of the first pages of the mix as sent with brotli
 * and as HTML, one at a time after the measured row (CPU per page buys bytes, see compression.ts).
 */
async function pageBytes(paths: string[]): Promise<{ brKb: number; htmlKb: number }> {
  const size = (path: string, encoding: string) =>
    new Promise<number>((resolve, reject) => {
      const req = get(`${shop.base}${path}`, { headers: { 'accept-encoding': encoding, accept: 'text/html' } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  let br = 0;
  let html = 0;
  for (const path of paths) {
    br += await size(path, 'br');
    html += await size(path, 'identity');
  }
  const kb = (bytes: number) => Math.round(bytes / paths.length / 102.4) / 10;
  return { brKb: kb(br), htmlKb: kb(html) };
}
