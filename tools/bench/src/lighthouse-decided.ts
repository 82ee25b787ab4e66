/**
 * Lighthouse (mobile, simulated throttling) for a shopper who already decided on cookies but whose
 * browser cache is cold (issue 43's "basket and category pages, cold cache, cookies decided"):
 * a fresh Chromium per run with the consent cookies set and, for the basket with lines, the basket
 * in localStorage, and nothing else of the shop in its cache. Runs the basket (empty and with
 * lines) and the first category's page, plus a first visit of each for comparison.
 *
 * `cd bench && node --import tsx src/lighthouse-decided.ts` (builds must be current).
 * Settings: BENCH_LH_RUNS (3), BENCH_DECIDED_PORT (4555; the shop uses it and the next two).
 */
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { chromium, type Cookie } from '@playwright/test';
import { BASKET_COOKIE } from '@shop/shared-kernel/rules';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM, CHROMIUM_FLAGS, decidedCookies } from './chromium.ts';
import { lcpElementOf } from './lighthouse.ts';
import { median, startShop } from './shop-server.ts';

const RUNS = Number(process.env.BENCH_LH_RUNS ?? 3);
const PORT = Number(process.env.BENCH_DECIDED_PORT ?? 4555);

type Sample = { score: number; lcpMs: number; fcpMs: number; tbtMs: number; cls: number; lcpElement: string };
type StoredBasket = { cartData: string; cookies: Cookie[] };

/**
 * The basket a shopper keeps after adding the first product of a category (read from a throw-away
 * browser): the stored lines and the cookie the kernel mirrors them into for the basket page.
 */
async function storedBasket(base: string, category: string): Promise<StoredBasket> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS.filter((flag) => flag !== '--headless') });
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/c/${category}`);
    await page.getByTestId('product-card').first().getByRole('link').first().click();
    await page.getByRole('button', { name: 'Pridať do košíka' }).click();
    await page.waitForFunction(() => localStorage.getItem('cartData')?.includes('v_id'));
    const cookies = (await page.context().cookies()).filter((cookie) => cookie.name === BASKET_COOKIE);
    if (cookies.length !== 1) throw new Error('the kernel did not mirror the basket into its cookie');
    return { cartData: (await page.evaluate(() => localStorage.getItem('cartData')))!, cookies };
  } finally {
    await browser.close();
  }
}

/** Consent cookies (and the basket) into a fresh browser without loading any page of the shop. */
async function decide(port: number, base: string, basket: StoredBasket | null): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0]!;
    await context.addCookies(decidedCookies(base));
    if (basket) {
      // A JSON answer of the origin: gives localStorage its origin without caching any of the page's files.
      const page = await context.newPage();
      await page.goto(`${base}/api/site`);
      await page.evaluate((value) => localStorage.setItem('cartData', value), basket.cartData);
      await page.close();
      await context.addCookies(basket.cookies);
    }
  } finally {
    await browser.close();
  }
}

/** One run; a run Lighthouse could not trace (NO_NAVSTART, NO_LCP: seen on this busy machine) is made again, up to twice. */
async function measure(url: string, setup: ((port: number) => Promise<void>) | null): Promise<Sample> {
  for (let attempt = 0; ; attempt += 1) {
    const sample = await measureOnce(url, setup);
    if (!Number.isNaN(sample.lcpMs) || attempt >= 2) return sample;
  }
}

async function measureOnce(url: string, setup: ((port: number) => Promise<void>) | null): Promise<Sample> {
  const tmp = mkdtempSync(join(tmpdir(), 'bench-chromium-'));
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: CHROMIUM_FLAGS,
    envVars: { ...process.env, TMPDIR: tmp },
  });
  try {
    if (setup) await setup(chrome.port);
    const answer = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      disableStorageReset: setup !== null,
    });
    const audits = answer!.lhr.audits;
    if (process.env.BENCH_DECIDED_DEBUG) {
      const shifts = (audits['layout-shifts']?.details as { items?: { node?: { selector?: string }; score?: number }[] } | undefined)
        ?.items;
      console.error(url, answer!.lhr.runtimeError?.code ?? 'ok', JSON.stringify(shifts?.map((item) => [item.node?.selector, item.score])));
    }
    return {
      score: Math.round((answer!.lhr.categories.performance?.score ?? 0) * 100),
      lcpMs: audits['largest-contentful-paint']?.numericValue ?? NaN,
      fcpMs: audits['first-contentful-paint']?.numericValue ?? NaN,
      tbtMs: audits['total-blocking-time']?.numericValue ?? NaN,
      cls: audits['cumulative-layout-shift']?.numericValue ?? NaN,
      lcpElement: lcpElementOf(audits['largest-contentful-paint-element']?.details),
    };
  } finally {
    await chrome.kill();
    rmSync(tmp, { recursive: true, force: true });
  }
}

export type DecidedResult = Sample & { name: string; runs: number[] };

/**
 * The decided-shopper cases on a running shop: the basket (empty and with lines) and a category,
 * cold cache, cookies decided; with `firstVisits`, a first visit of each beside them.
 */
export async function runDecidedLighthouse(base: string, runs: number, firstVisits = false): Promise<DecidedResult[]> {
  const home = (await (await fetch(`${base}/api/home`)).json()) as { data: { categories: { cat_url: string }[] } };
  const category = home.data.categories[0]!.cat_url;
  const basket = await storedBasket(base, category);
  const decided = (withBasket: boolean) => (port: number) => decide(port, base, withBasket ? basket : null);
  const cases: { name: string; path: string; setup: ((port: number) => Promise<void>) | null }[] = [
    { name: 'basket, empty, decided', path: '/checkout/cart', setup: decided(false) },
    { name: 'basket, lines, decided', path: '/checkout/cart', setup: decided(true) },
    { name: 'category, decided', path: `/c/${category}`, setup: decided(false) },
    ...(firstVisits
      ? [
          { name: 'basket, first visit', path: '/checkout/cart', setup: null },
          { name: 'category, first visit', path: `/c/${category}`, setup: null },
        ]
      : []),
  ];
  const only = process.env.BENCH_DECIDED_ONLY;
  const results: DecidedResult[] = [];
  for (const { name, path, setup } of cases) {
    if (only && !name.includes(only)) continue;
    // The first run is not counted: it warms the server (pictures drawn, code compiled).
    await measure(`${base}${path}`, setup);
    const samples: Sample[] = [];
    for (let run = 0; run < runs; run += 1) samples.push(await measure(`${base}${path}`, setup));
    results.push({
      name,
      score: median(samples.map((s) => s.score)),
      fcpMs: median(samples.map((s) => s.fcpMs)),
      lcpMs: median(samples.map((s) => s.lcpMs)),
      tbtMs: median(samples.map((s) => s.tbtMs)),
      cls: median(samples.map((s) => s.cls)),
      lcpElement: [...new Set(samples.map((s) => s.lcpElement))].join(' / '),
      runs: samples.map((s) => s.lcpMs),
    });
  }
  return results;
}

async function main() {
  const shop = await startShop({ port: PORT, name: `decided-${PORT}` });
  try {
    console.log('| page | score | FCP ms | LCP ms (runs) | TBT ms | CLS | LCP element |');
    console.log('|---|---:|---:|---:|---:|---:|---|');
    for (const r of await runDecidedLighthouse(shop.base, RUNS, true)) {
      console.log(
        `| ${r.name} | ${r.score} | ${r.fcpMs.toFixed(0)} | ${r.lcpMs.toFixed(0)} (${r.runs.map((ms) => ms.toFixed(0)).join(', ')}) | ` +
          `${r.tbtMs.toFixed(0)} | ${r.cls.toFixed(3)} | \`${r.lcpElement}\` |`,
      );
    }
  } finally {
    await shop.stop();
  }
}

// Run alone (`node --import tsx src/lighthouse-decided.ts`), or imported by run.ts.
if (import.meta.url === `file://${process.argv[1]}`) await main();
