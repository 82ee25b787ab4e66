/**
 * First-load JavaScript of a first visitor (no cookies, empty cache) on the
 * home page, a category, a product page and the basket, against a shop that is
 * already running, plus the kernel's shared chunk in the built shell. For each
 * page: the script requests, their bytes as served (CDP encodedDataLength), and
 * their bodies raw, gzip -9 and brotli (q 11), fetched again from Node, and how
 * much of it is the federation's own code (federation-code.ts).
 * FIRST_LOAD_FILES=1 lists every script, the federation's marked `mf`.
 *
 *   cd e2e && E2E_PORT=4380 node serve.mjs          # in another terminal
 *   cd bench && node --import tsx src/first-load-js.ts http://127.0.0.1:4380
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium.ts';
import { isFederationCode } from './federation-code.ts';
import { repo } from './shop-server.ts';

type Sizes = { raw: number; gzip: number; brotli: number };
type Row = { name: string; requests: number; wire: number; files: string[]; federation: { requests: number; wire: number } } & Sizes;

const base = (process.argv[2] ?? 'http://127.0.0.1:4380').replace(/\/$/, '');

function sizes(body: Buffer): Sizes {
  return {
    raw: body.length,
    gzip: gzipSync(body, { level: 9 }).length,
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const add = (a: Sizes, b: Sizes): Sizes => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli });

/**
 * The chunk of the built shell that carries the kernel (it registers its instance id), and with
 * the shell's own chunks it imports (pure modules the shell's code shares with it); the shared
 * React, zustand and mitt it imports are not counted.
 */
function kernelChunk(): { file: string; own: Sizes; withImports: Sizes; imports: string[] } {
  const dir = join(repo, 'shell', 'dist', 'assets');
  const file = readdirSync(dir).find(
    (name) => name.endsWith('.js') && readFileSync(join(dir, name), 'utf8').includes('__SHOP_KERNEL_INSTANCES__'),
  );
  if (!file) throw new Error('no chunk of shell/dist registers a kernel instance');
  const code = readFileSync(join(dir, file), 'utf8');
  const imports = [...code.matchAll(/from"\.\/([^"]+\.js)"/g)].map((match) => match[1]!).filter((name) => !name.startsWith('_virtual_mf'));
  const own = sizes(Buffer.from(code));
  const withImports = imports.reduce((total, name) => add(total, sizes(readFileSync(join(dir, name)))), own);
  return { file, own, withImports, imports };
}

async function measure(name: string, path: string, ready: (page: Page) => Promise<unknown>): Promise<Row> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const scripts = new Map<string, { url: string; wire: number }>();
    cdp.on('Network.responseReceived', (event) => {
      if (event.type === 'Script' && !event.response.url.startsWith('data:'))
        scripts.set(event.requestId, { url: event.response.url, wire: 0 });
    });
    cdp.on('Network.loadingFinished', (event) => {
      const script = scripts.get(event.requestId);
      if (script) script.wire = event.encodedDataLength;
    });
    await page.goto(base + path);
    await ready(page);
    await page.waitForLoadState('networkidle');
    let total: Sizes = { raw: 0, gzip: 0, brotli: 0 };
    let wire = 0;
    const federation = { requests: 0, wire: 0 };
    const files: string[] = [];
    for (const script of [...scripts.values()].sort((a, b) => b.wire - a.wire)) {
      const body = Buffer.from(await (await fetch(script.url, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer());
      const each = sizes(body);
      const ours = await isFederationCode(script.url);
      total = add(total, each);
      wire += script.wire;
      if (ours) Object.assign(federation, { requests: federation.requests + 1, wire: federation.wire + script.wire });
      files.push(
        `${kb(each.raw).padStart(7)} KB raw ${kb(each.brotli).padStart(6)} KB br ${kb(script.wire).padStart(6)} KB served ${ours ? 'mf' : '  '}  ${script.url.replace(base, '')}`,
      );
    }
    return { name, requests: scripts.size, wire, files, federation, ...total };
  } finally {
    await browser.close();
  }
}

const home = (await (await fetch(`${base}/api/home`)).json()) as {
  data: { categories: { cat_url: string }[]; newest: { p_url: string }[] };
};
const category = home.data.categories[0]!.cat_url;
const product = home.data.newest[0]!.p_url;
const rows = [
  await measure('home', '/', (page) => page.getByRole('region', { name: 'Kategórie' }).getByRole('link').first().waitFor()),
  await measure('category', `/c/${category}`, (page) => page.getByTestId('product-card').first().waitFor()),
  await measure('product', `/p/${product}`, (page) => page.getByRole('button', { name: 'Pridať do košíka' }).waitFor()),
  await measure('basket', '/checkout/cart', (page) => page.getByRole('heading', { level: 1, name: 'Košík je prázdny' }).waitFor()),
];
const kernel = kernelChunk();

const line = (what: string, size: Sizes) =>
  console.log(`${what}: raw ${kb(size.raw)} KB, gzip ${kb(size.gzip)} KB, brotli ${kb(size.brotli)} KB`);
line(`kernel shared chunk (shell/dist/assets/${kernel.file})`, kernel.own);
if (kernel.imports.length > 0) line(`  with the shell chunks it imports (${kernel.imports.join(', ')})`, kernel.withImports);
console.log('');
console.log("| page | JS requests | raw KB | gzip KB | brotli KB | as served KB | federation's own: requests / as served KB |");
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const row of rows)
  console.log(
    `| ${row.name} | ${row.requests} | ${kb(row.raw)} | ${kb(row.gzip)} | ${kb(row.brotli)} | ${kb(row.wire)} | ${row.federation.requests} / ${kb(row.federation.wire)} |`,
  );
if (process.env.FIRST_LOAD_FILES) for (const row of rows) console.log(`\n${row.name}\n${row.files.join('\n')}`);
