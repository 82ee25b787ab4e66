/**
 * Canaries judged on speed (issue 42, acceptance 1): a checkout canary whose basket page blocks the
 * main thread for 400 ms on each interaction is aborted by the watchdog on INP alone, no error
 * thrown, with the figures in the history; a canary without regression is promoted on its own.
 *
 * The shell sends field Web Vitals in its telemetry batches; the canary watch reads their p75 per
 * version (server/src/domains/ops/telemetry/vitals.repository.ts). e2e/serve.mjs sets
 * CANARY_MIN_VITALS to 3, CANARY_MIN_ORDER_VISITS to 2 and CANARY_AUTO_PROMOTE_MS to 20 s.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { SHOP_PORT } from '../playwright.config.ts';
import { origin, release, repo } from './release-cli.ts';
import type { Registry, ReleaseMove } from '../../shared-kernel/src/contract/index.ts';
import { fillBasket, findVariants } from './checkout-helpers.ts';
import { orderStepVisit, useBasket, warmUp } from './release-helpers.ts';

const stableCheckout = join(repo, 'mf-checkout', 'dist');
const registry = () => JSON.parse(readFileSync(join(origin, 'builds', 'latest.json'), 'utf8')) as Registry;
const checkoutMoves = () =>
  readFileSync(join(origin, 'builds', 'history.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ReleaseMove)
    .filter((move) => move.part === 'checkout');

/** How long one interaction on the slow canary's basket page blocks the main thread. */
const BLOCK_MS = 400;

const made: string[] = [];
test.afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};

/**
 * A real checkout build with a change to its basket page's module: `slow` adds a listener that,
 * on the basket page, keeps the main thread busy for BLOCK_MS on every pointer or key press (no
 * error, nothing else changed); `label` only changes the basket heading (a new version, as fast).
 */
function changedCheckoutBuild(change: 'slow' | { label: string }): string {
  const dist = tempDir('checkout-speed-');
  cpSync(stableCheckout, dist, { recursive: true });
  const assets = join(dist, 'assets');
  const page = readdirSync(assets).find(
    (file) => file.endsWith('.js') && readFileSync(join(assets, file), 'utf8').includes('Vyprázdniť košík'),
  )!;
  const source = readFileSync(join(assets, page), 'utf8');
  const changed =
    change === 'slow'
      ? `${source}\n;if(typeof document<"u"&&!globalThis.__slowBasket){globalThis.__slowBasket=!0;for(const t of["pointerdown","keydown"])document.addEventListener(t,()=>{if(!location.pathname.startsWith("/checkout/cart"))return;const e=performance.now()+${BLOCK_MS};for(;performance.now()<e;);},{capture:!0})}\n`
      : source.replace('children:`Košík`}', `children:\`Košík – ${change.label}\`}`);
  expect(changed).not.toBe(source);
  writeFileSync(join(assets, page), changed);
  if (change !== 'slow') {
    // The basket's frame is server-rendered: the same heading in the server build, as a real build has it.
    const server = join(dist, 'server', 'entry.cjs');
    const serverSource = readFileSync(server, 'utf8');
    const serverChanged = serverSource.replace('children: "Košík" }', `children: \`Košík – ${change.label}\` }`);
    expect(serverChanged).not.toBe(serverSource);
    writeFileSync(server, serverChanged);
  }
  return dist;
}

/** A shopper with consent answered, a basket, and a canary bucket (below the share: the canary). */
async function shopper(browser: Browser, request: APIRequestContext, bucket: number): Promise<Page> {
  const context = await browser.newContext({ locale: 'sk-SK', viewport: { width: 390, height: 844 } });
  const url = `http://localhost:${SHOP_PORT}`;
  await context.addCookies(
    ['cookie_required=true', 'cookie_ga=false', 'cookie_ads=false'].map((pair) => ({
      name: pair.split('=')[0]!,
      value: pair.split('=')[1]!,
      url,
    })),
  );
  // Only on the shop's pages: about:blank has no storage to write.
  await context.addInitScript((value) => {
    if (location.protocol.startsWith('http')) localStorage.setItem('shop:canary-bucket', String(value));
  }, bucket);
  const page = await context.newPage();
  const [variant] = await findVariants(request, 1);
  await fillBasket(page, request, [{ v_id: variant!.v_id, amount: 2 }]);
  await expect(page.getByTestId('basket-line')).toHaveCount(1);
  return page;
}

test.beforeEach(() => {
  const current = registry();
  if (current.canaries?.checkout) release(['abort', 'checkout']);
  release(['deploy', 'checkout', '--dist', stableCheckout, '--override-pin']);
});

test('a canary that blocks the basket page for 400 ms on each interaction is aborted on its INP with no error counted, the figures in the history', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const canaryShopper = await shopper(browser, request, 10);
  const stableShopper = await shopper(browser, request, 90);
  const stable = registry().areas.checkout!.version;
  const movesBefore = checkoutMoves().length;

  const started = Date.now();
  release(['deploy', 'checkout', '--dist', changedCheckoutBuild('slow'), '--canary', '50']);
  const canary = registry().canaries!.checkout!.version;
  await useBasket(stableShopper);
  await useBasket(canaryShopper);

  await expect.poll(() => registry().canaries?.checkout ?? null, { timeout: 90_000, intervals: [500] }).toBeNull();
  test.info().annotations.push({ type: 'canary aborted after', description: `${((Date.now() - started) / 1000).toFixed(1)} s` });
  expect(registry().areas.checkout!.version).toBe(stable);
  const moves = checkoutMoves().slice(movesBefore);
  const abort = moves.at(-1)!;
  expect(abort).toMatchObject({ action: 'abort', who: 'canary-watch', from: canary, to: stable });
  // On its INP: no error thrown, the error-rate rule did not fire. (The canary's LCP may be named too when the
  // machine was busier while its pages loaded than while the stable version's did: the build does not change it.)
  expect(abort.reason).toMatch(
    /^automatické zrušenie pre rýchlosť: INP p75 (\d+) ms proti (\d+) ms \(stabilná verzia\), \d+\/\d+ meraní; /,
  );
  expect(abort.reason).not.toContain('client error rate');
  const [, canaryInp, stableInp] = /INP p75 (\d+) ms proti (\d+) ms/.exec(abort.reason!)!;
  expect(Number(canaryInp)).toBeGreaterThanOrEqual(BLOCK_MS);
  expect(Number(canaryInp)).toBeGreaterThan(Number(stableInp) + 50);
  expect(release(['history', 'checkout'])).toContain('automatické zrušenie pre rýchlosť');

  // The canary shopper's next basket is the stable version again.
  await canaryShopper.goto('/checkout/cart');
  await expect(canaryShopper.getByTestId('basket-line')).toHaveCount(1);
  await canaryShopper.context().close();
  await stableShopper.context().close();
});

test('a canary without regression is promoted by the watchdog after CANARY_AUTO_PROMOTE_MS', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const canaryShopper = await shopper(browser, request, 10);
  const stableShopper = await shopper(browser, request, 90);
  const stable = registry().areas.checkout!.version;

  release(['deploy', 'checkout', '--dist', changedCheckoutBuild({ label: 'rovnako rýchly' }), '--canary', '50']);
  const canary = registry().canaries!.checkout!.version;
  await warmUp(10, 90);
  await useBasket(stableShopper);
  await useBasket(canaryShopper, 'Košík – rovnako rýchly');
  // And visits of the order step (CANARY_MIN_ORDER_VISITS each side), no order on either: the commerce guardrail holds.
  for (const shopper of [stableShopper, canaryShopper, stableShopper, canaryShopper]) await orderStepVisit(shopper, false);

  await expect.poll(() => registry().areas.checkout!.version, { timeout: 90_000, intervals: [500] }).toBe(canary);
  expect(registry().canaries?.checkout).toBeUndefined();
  const promote = checkoutMoves().at(-1)!;
  expect(promote).toMatchObject({ action: 'promote', who: 'canary-watch', from: stable, to: canary });
  expect(promote.reason).toMatch(/^automatické povýšenie po \d+ s bez regresie: chybovosť 0\.0 % z \d+ zobrazení/);
  expect(promote.reason).toMatch(/INP p75 \d+ ms proti \d+ ms \(stabilná verzia\)/);
  expect(promote.reason).toMatch(/LCP p75 \d+ ms proti \d+ ms \(stabilná verzia\)/);

  // Every shopper is on the promoted version now.
  await stableShopper.goto('/checkout/cart');
  await expect(stableShopper.getByRole('heading', { level: 1, name: 'Košík – rovnako rýchly' })).toBeVisible();
  await canaryShopper.context().close();
  await stableShopper.context().close();
});

test.afterAll(() => {
  // The checkout in force again as `npm start` published it, for the files after this one.
  if (registry().canaries?.checkout) release(['abort', 'checkout']);
  release(['deploy', 'checkout', '--dist', stableCheckout, '--override-pin']);
});
