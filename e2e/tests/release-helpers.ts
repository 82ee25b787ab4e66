/**
 * What the release specs (release-*.spec.ts) share: the e2e origin's registry and history as the
 * release command leaves them, changed checkout builds, the checkout put back in force after each
 * test, a shopper's basket and visits of the order step, canary buckets, a restart of the server as `npm start` makes it, and the
 * files a page downloads. Playwright evaluates this module once per worker and runs the spec files
 * one after another in it, so hooks here would belong to the first spec alone: each spec registers
 * `test.afterEach(() => resetCheckout())` and `test.afterAll(() => removeTempDirs())` itself.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { expect } from './fixtures.ts';
import { E2E_DATA_DIR, SHOP_PORT } from '../playwright.config.ts';
import { origin, release, repo } from './release-cli.ts';
import type { Registry, ReleaseMove } from '../../shared-kernel/src/contract/index.ts';
import { fillBasket, fillContact, findVariants } from './checkout-helpers.ts';
import type { Operator } from './operator.ts';

type Move = ReleaseMove;
type OriginRegistry = Registry;

const stableCheckout = join(repo, 'mf-checkout', 'dist');
export const registry = () => JSON.parse(readFileSync(join(origin, 'builds', 'latest.json'), 'utf8')) as OriginRegistry;
export const history = () =>
  readFileSync(join(origin, 'builds', 'history.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Move);

/** Every build directory a test makes, removed after each spec file (`removeTempDirs`). */
const made: string[] = [];
export function removeTempDirs() {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
export const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};

/** The owner's audited override: a version rolled back from (marked never to be served again) may be released again. */
function liftFloor(version: string) {
  const result = spawnSync(
    process.execPath,
    ['dist/release/credentials-cli.js', 'floor', 'checkout', version, '--lift', '--reason', 'e2e reset'],
    {
      cwd: join(repo, 'server'),
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: E2E_DATA_DIR, DATABASE_URL: '' },
    },
  );
  expect(result.status, result.stderr).toBe(0);
}

/** The checkout in force again as `npm start` published it: no pin, no canary (its floor lifted when a test rolled back from it). */
export function resetCheckout() {
  const current = registry();
  if (current.canaries?.checkout) release(['abort', 'checkout']);
  const refused = /refused \(floored\): checkout (\S+) is marked/.exec(
    spawnSync(
      process.execPath,
      ['dist/release/cli.js', 'deploy', 'checkout', '--dist', stableCheckout, '--override-pin', '--origin', origin],
      {
        cwd: join(repo, 'server'),
        encoding: 'utf8',
        env: { ...process.env, RELEASE_USER: 'e2e' },
      },
    ).stderr,
  );
  if (!refused) return;
  liftFloor(refused[1]!);
  release(['deploy', 'checkout', '--dist', stableCheckout, '--override-pin']);
}

/**
 * Builds made by one run of the release specs, so each changed build is a version of its own (a
 * rolled-back one is never served again): the count goes on across the spec files of a worker, and
 * the worker's pid tells a restarted worker's builds apart.
 */
let builds = 0;

/** A real checkout build whose basket heading is changed: `label` appended, or a render that throws. */
export function changedCheckoutBuild(change: { label: string } | 'throws'): string {
  const dist = tempDir('checkout-next-');
  cpSync(stableCheckout, dist, { recursive: true });
  const assets = join(dist, 'assets');
  const page = readdirSync(assets).find(
    (file) => file.endsWith('.js') && readFileSync(join(assets, file), 'utf8').includes('Vyprázdniť košík'),
  )!;
  const source = readFileSync(join(assets, page), 'utf8');
  const heading = change === 'throws' ? '(()=>{throw new Error(`basket page broken on purpose`)})()' : `\`Košík – ${change.label}\``;
  const changed = source.replace('children:`Košík`}', `children:${heading}}`);
  expect(changed).not.toBe(source);
  writeFileSync(join(assets, page), `${changed}\n/* e2e build ${++builds} ${process.pid} */\n`);
  // The basket's frame is server-rendered: the same change in the server build, as a real build has it.
  const server = join(dist, 'server', 'entry.cjs');
  const serverSource = readFileSync(server, 'utf8');
  const serverChanged = serverSource.replace('children: "Košík" }', `children: ${heading} }`);
  expect(serverChanged).not.toBe(serverSource);
  writeFileSync(server, serverChanged);
  return dist;
}

/** The canary bucket the shell keeps in this browser's storage (shell/src/areas/canary-bucket.ts). */
const BUCKET_KEY = 'shop:canary-bucket';

/**
 * A real checkout build whose order button is hidden for half its shoppers (those of an odd canary
 * bucket): nothing throws and nothing is slower, shoppers just cannot order. Only the browser's build
 * is changed: the order step is rendered in the browser (the server has no contact to render it with).
 */
export function hiddenOrderButtonBuild(): string {
  const dist = tempDir('checkout-hidden-order-');
  cpSync(stableCheckout, dist, { recursive: true });
  const assets = join(dist, 'assets');
  const page = readdirSync(assets).find(
    (file) => file.endsWith('.js') && readFileSync(join(assets, file), 'utf8').includes('Objednať s povinnosťou platby'),
  )!;
  const source = readFileSync(join(assets, page), 'utf8');
  const props = '{type:`button`,className:`button button--primary chk-continue`';
  // An inline style, so no stylesheet's display can show it again.
  const hidden = `{type:\`button\`,style:Number(localStorage.getItem(\`${BUCKET_KEY}\`))%2===1?{display:\`none\`}:void 0,className:\`button button--primary chk-continue\``;
  const changed = source.replace(props, hidden);
  expect(changed).not.toBe(source);
  writeFileSync(join(assets, page), `${changed}\n/* e2e build ${++builds} ${process.pid} */\n`);
  return dist;
}

/**
 * One visit of the order step in a telemetry session of its own (the commerce guardrail counts
 * sessions that showed it): contact details, then the order step; with `order`, the order placed by
 * courier and bank transfer (the thank-you page) when the step shows its order button, as a shopper
 * would; without, the step left as it is. Then the home page, so the page hide sends the visit.
 * The shopper has a basket (withBasket); an order empties it. Answers whether an order was placed.
 */
export async function orderStepVisit(page: Page, order: boolean): Promise<boolean> {
  await page.context().clearCookies({ name: TELEMETRY_SESSION_COOKIE });
  await page.goto('/checkout/contact');
  await fillContact(page, 'kanarik@example.sk');
  await page.getByRole('button', { name: 'Pokračovať k doprave a platbe' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Doprava a platba' })).toBeVisible();
  // The button comes with the step's heading, in the same render: shown or not, it is there now.
  const button = page.locator('.chk-continue');
  await expect(button).toBeAttached();
  const placed = order && (await button.isVisible());
  if (placed) {
    await page.getByRole('radio', { name: /Kuriér/ }).check();
    await page.getByRole('radio', { name: /Bankovým prevodom/ }).check();
    await page.getByLabel(/Súhlasím s/).check();
    await page.getByRole('button', { name: 'Objednať s povinnosťou platby' }).click();
    await expect(page).toHaveURL(/\/checkout\/thankyou\/[A-Za-z0-9]{32}$/);
  }
  await page.goto('/');
  return placed;
}

/** The operator account `npm start` creates on a new shop, its password in the data directory. */
export const firstOperator = (): Operator => ({
  name: 'spravca',
  password: readFileSync(join(E2E_DATA_DIR, 'operator-password'), 'utf8').trim(),
});

/** A shopper's basket with one line (two pieces of a variant in stock), shown on the basket page. */
export async function withBasket(page: Page, request: APIRequestContext) {
  const [variant] = await findVariants(request, 1);
  await fillBasket(page, request, [{ v_id: variant!.v_id, amount: 2 }]);
  await expect(page.getByTestId('basket-line')).toHaveCount(1);
}

/** The basket page renders (`heading`: its heading) with the shopper's line. */
export async function expectWorkingBasket(page: Page, heading = 'Košík') {
  await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
  await expect(page.getByTestId('basket-line')).toHaveCount(1);
}

/** The basket page's area failed to load: the shell's error heading. */
export const brokenBasket = (page: Page) =>
  expect(page.getByRole('heading', { level: 1, name: 'Košík a objednávka sa nepodarilo načítať' })).toBeVisible();

/** Puts a shopper in a canary bucket before the shop's scripts run (a new page's about:blank has no storage to write). */
export const canaryBucketScript = (bucket: number) => {
  if (location.protocol.startsWith('http')) localStorage.setItem('shop:canary-bucket', String(bucket));
};

export async function shopperContext(newContext: () => Promise<BrowserContext>, bucket: number): Promise<BrowserContext> {
  const context = await newContext();
  const url = `http://localhost:${SHOP_PORT}`;
  await context.addCookies(
    ['cookie_required=true', 'cookie_ga=false', 'cookie_ads=false'].map((pair) => ({
      name: pair.split('=')[0]!,
      value: pair.split('=')[1]!,
      url,
    })),
  );
  await context.addInitScript(canaryBucketScript, bucket);
  return context;
}

/** Restarts the e2e server as `npm start` would (serve.mjs: release what is new, then serve). */
export async function restartServer() {
  const pid = Number(readFileSync(join(E2E_DATA_DIR, 'serve.pid'), 'utf8'));
  const up = () =>
    fetch(`http://localhost:${SHOP_PORT}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
  process.kill(pid, 'SIGUSR2');
  await expect.poll(up, { timeout: 10_000, intervals: [100] }).toBe(false);
  await expect.poll(up, { timeout: 60_000, intervals: [250] }).toBe(true);
}

/** URLs the browser downloaded from the network (not from its cache, not a 304). */
export async function watchDownloads(page: Page) {
  const responses = new Map<string, string>();
  const fromCache = new Set<string>();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  cdp.on('Network.requestServedFromCache', ({ requestId }) => fromCache.add(requestId));
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    if (!response.fromDiskCache && !response.fromPrefetchCache && !response.fromServiceWorker && response.status === 200)
      responses.set(requestId, response.url);
  });
  return () => [...responses].filter(([id]) => !fromCache.has(id)).map(([, url]) => url);
}

/** Goes home through the logo: after a release the shell makes this navigation a full page load. */
export async function navigateHome(page: Page) {
  await page.getByRole('link', { name: 'Stavebniny Domov – úvodná stránka' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Všetko pre vašu stavbu na jednom mieste' })).toBeVisible();
}

/** Page loads with interactions per shopper: above CANARY_MIN_VITALS (3 in e2e/serve.mjs) on each side. */
const LOADS = 4;
/** The telemetry session's cookie over http (server/src/domains/ops/telemetry/telemetry-session.ts). */
const TELEMETRY_SESSION_COOKIE = 'shop_telemetry';

/**
 * A version's first pages cost the server once: its server build compiled in the renderers, its files
 * checked against their signed manifest. Paid here, for the canary's side and the stable one's alike,
 * so the watch compares the two versions as shoppers meet them after the first few, not the canary's
 * first render against a stable version long warm.
 */
export async function warmUp(...buckets: number[]) {
  for (const bucket of buckets)
    for (const path of ['/checkout/cart', '/checkout/cart', '/'])
      expect((await fetch(`http://localhost:${SHOP_PORT}${path}`, { headers: { cookie: `shop_canary=${bucket}` } })).status).toBe(200);
}

/**
 * Loads the basket page and interacts with it as a shopper reading it does (clicks on the heading:
 * nothing in the basket changes), then leaves: the page hide sends its vitals. Each load is a visit of
 * its own (the watch counts telemetry sessions, one sample each).
 */
export async function useBasket(page: Page, heading: string | RegExp = 'Košík') {
  for (let load = 0; load < LOADS; load += 1) {
    await page.context().clearCookies({ name: TELEMETRY_SESSION_COOKIE });
    await page.goto('/checkout/cart');
    const title = page.getByRole('heading', { level: 1, name: heading });
    await expect(title).toBeVisible();
    for (let click = 0; click < 3; click += 1) await title.click();
    await page.goto('/');
  }
}
