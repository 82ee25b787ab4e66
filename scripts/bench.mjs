// `npm run bench`: measures, never asserts. Builds and serves the shop as
// `npm start` does (fresh data directory), then reports medians:
// - API latency per call (sequential requests on loopback),
// - JavaScript over the wire and requests on first load of key pages (Chromium).
// Writes bench/results.md. Not part of `npm test`.
import { spawn } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDependencies, log, root } from './lib.mjs';
import { buildAll, publishAll } from './build.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 4510);
const base = `http://localhost:${PORT}`;
const dataDir = join(root, '.data', 'bench');
const RUNS = 200;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];

async function waitForServer() {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await fetch(`${base}/api/site`).then((r) => r.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server did not start');
}

async function timeCall(path) {
  const times = [];
  for (let run = 0; run < RUNS; run += 1) {
    const start = performance.now();
    const response = await fetch(base + path);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    times.push(performance.now() - start);
  }
  return { path, median: median(times), p99: percentile(times, 99) };
}

async function pageWeights(paths) {
  const { chromium } = await import(join(root, 'e2e', 'node_modules', '@playwright', 'test', 'index.mjs'));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const rows = [];
  for (const path of paths) {
    const samples = [];
    for (let run = 0; run < 3; run += 1) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const scripts = [];
      page.on('requestfinished', async (request) => {
        if (request.resourceType() === 'script') scripts.push(request);
      });
      await page.goto(base + path, { waitUntil: 'networkidle' });
      let bytes = 0;
      for (const request of scripts) bytes += (await request.sizes()).responseBodySize;
      samples.push({ bytes, requests: scripts.length });
      await context.close();
    }
    rows.push({ path, kb: median(samples.map((s) => s.bytes)) / 1024, requests: median(samples.map((s) => s.requests)) });
  }
  await browser.close();
  return rows;
}

await ensureDependencies();
await buildAll();
rmSync(dataDir, { recursive: true, force: true });
await publishAll(join(dataDir, 'origin'));
const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
  cwd: join(root, 'api'),
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(PORT), ASSET_PORT: String(PORT + 1), DATABASE_URL: '' },
  stdio: 'ignore',
});
try {
  await waitForServer();
  const listing = await fetch(`${base}/api/home`).then((r) => r.json());
  const category = listing.data.categories[0].cat_url;
  const product = listing.data.newest[0].p_url;
  log(`API latency, ${RUNS} sequential requests each`);
  const api = [];
  for (const path of ['/api/home', `/api/products?category=${category}&page=2`, `/api/products?category=${category}&sort=price-asc`, `/api/product/${product}`, '/api/menu']) {
    api.push(await timeCall(path));
  }
  log('JavaScript on first load (Chromium, compressed bytes as transferred, median of 3)');
  const pages = await pageWeights(['/', `/c/${category}`, `/p/${product}`, '/checkout/cart']);

  const lines = [
    '# Benchmark results',
    '',
    `Run: ${new Date().toISOString()}, Node ${process.version}, SQLite seed catalogue. Medians.`,
    '',
    '## API latency (sequential, loopback)',
    '',
    '| call | median ms | p99 ms |',
    '|---|---:|---:|',
    ...api.map((row) => `| \`${row.path}\` | ${row.median.toFixed(2)} | ${row.p99.toFixed(2)} |`),
    '',
    '## JavaScript on first load',
    '',
    '| page | JS KB (compressed) | JS requests |',
    '|---|---:|---:|',
    ...pages.map((row) => `| \`${row.path}\` | ${row.kb.toFixed(1)} | ${row.requests} |`),
    '',
  ];
  // Catalogue listing and search latency on a generated 100,000-product catalogue (issue 4).
  log('Catalogue listing, facets and search on a generated 100,000-product catalogue (api/bench/catalogue-bench.ts)');
  const catalogue = spawnSync(process.execPath, ['--import', 'tsx', 'bench/catalogue-bench.ts'], {
    cwd: join(root, 'api'),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DATABASE_URL: '' },
  });
  lines.push(catalogue.status === 0 ? catalogue.stdout : `Catalogue benchmark failed (exit ${catalogue.status}).\n`);
  mkdirSync(join(root, 'bench'), { recursive: true });
  writeFileSync(join(root, 'bench', 'results.md'), lines.join('\n'));
  process.stdout.write(`\n${lines.join('\n')}\n`);
} finally {
  server.kill('SIGTERM');
}
