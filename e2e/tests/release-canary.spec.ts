/**
 * A canary as an area team lives it, on the composed shop with a filled basket: a canary whose basket
 * page throws is aborted on its own within a minute, its most reported error named with the canary's
 * own source maps, and every shopper, in the canary's bucket or not, is back on the stable version.
 * A staged canary (`--stages 5,25,50 --auto-promote`) of a good build moves 5 → 25 → 50 → 100 % on its
 * own, /ops showing its stage and what is judged; a bad one stops at its first stage. e2e/serve.mjs
 * makes a stage last CANARY_STAGE_MS = 3 s.
 */
import type { Page } from '@playwright/test';
import { expect, expectPageErrors, test } from './fixtures.ts';
import { release } from './release-cli.ts';
import {
  brokenBasket,
  canaryBucketScript,
  changedCheckoutBuild,
  expectWorkingBasket,
  history,
  orderStepVisit,
  registry,
  removeTempDirs,
  resetCheckout,
  shopperContext,
  useBasket,
  warmUp,
  withBasket,
} from './release-helpers.ts';
import { createOperator, OPS_URL, signInFirstTime } from './operator.ts';

test.afterAll(() => removeTempDirs());
test.afterEach(() => resetCheckout());

/**
 * `count` visits of the canary's broken basket, each a telemetry session of its own (CANARY_MIN_VIEWS
 * counts sessions, so the session cookie goes first), the next starting once this one's view and
 * error have been reported (the batch leaves within 5 s).
 */
async function brokenBasketVisits(page: Page, count: number) {
  for (let load = 0; load < count; load += 1) {
    await page.context().clearCookies({ name: 'shop_telemetry' });
    const reported = page.waitForResponse(
      (response) => response.url().endsWith('/api/telemetry') && (response.request().postData() ?? '').includes('"type":"error"'),
    );
    await page.goto('/checkout/cart');
    await brokenBasket(page);
    expect((await reported).status()).toBe(204);
  }
}
test('a canary that throws is aborted on its own within a minute, and every shopper is back on the stable version', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const stableShopper = await (
    await shopperContext(() => browser.newContext({ locale: 'sk-SK', viewport: { width: 1280, height: 900 } }), 90)
  ).newPage();
  await page.context().addInitScript(canaryBucketScript, 10);
  await withBasket(page, request);
  await withBasket(stableShopper, request);
  const stable = registry().areas.checkout!.version;

  const started = Date.now();
  release(['deploy', 'checkout', '--dist', changedCheckoutBuild('throws'), '--canary', '50']);
  expectPageErrors(page, /basket page broken on purpose/, "the canary's basket page throws on purpose");
  const canary = registry().canaries!.checkout!.version;
  // While a canary runs, a page depends on the browser's side of it: no shared cache may keep it.
  expect((await request.get('/')).headers()['cache-control']).toBe('private, no-cache');
  // Bucket 10 < 50: the canary, which throws on the basket page; bucket 90: the stable version.
  // Three shoppers' visits are what the watchdog needs here.
  await brokenBasketVisits(page, 3);
  await page.goto('/');
  for (let load = 0; load < 2; load += 1) {
    await stableShopper.goto('/checkout/cart');
    await expectWorkingBasket(stableShopper);
  }

  await expect.poll(() => registry().canaries?.checkout ?? null, { timeout: 60_000, intervals: [500] }).toBeNull();
  const abortedAfter = Date.now() - started;
  test.info().annotations.push({ type: 'canary aborted after', description: `${(abortedAfter / 1000).toFixed(1)} s` });
  expect(abortedAfter).toBeLessThan(60_000);
  expect(registry().areas.checkout!.version).toBe(stable);
  const abort = history()
    .filter((move) => move.part === 'checkout')
    .at(-1)!;
  expect(abort).toMatchObject({ action: 'abort', who: 'canary-watch', from: canary, to: stable });
  expect(abort.reason).toMatch(/automatic abort: client error rate 100\.0 % over \d+ page views/);
  // It names the canary's most reported error, its stack mapped with the canary's own source maps.
  expect(abort.reason).toMatch(
    /; most reported: "Error: basket page broken on purpose" at CartPage \(src\/pages\/cart-page\.tsx:\d+:\d+\) on checkout-cart, \d+ reports$/,
  );
  expect(release(['history', 'checkout'])).toContain('automatic abort');

  // The next page load of every shopper is the stable version, basket intact.
  await page.goto('/checkout/cart');
  await expectWorkingBasket(page);
  await stableShopper.goto('/checkout/cart');
  await expectWorkingBasket(stableShopper);
  await stableShopper.context().close();
});

test('a staged canary of a good build moves 5 → 25 → 50 → 100 % on its own, /ops showing its stage and what is judged', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const shopperAt = async (bucket: number) =>
    (await shopperContext(() => browser.newContext({ locale: 'sk-SK', viewport: { width: 390, height: 844 } }), bucket)).newPage();
  const canaryShopper = await shopperAt(1);
  const stableShopper = await shopperAt(90);
  await withBasket(canaryShopper, request);
  await withBasket(stableShopper, request);
  const stable = registry().areas.checkout!.version;

  release(['deploy', 'checkout', '--dist', changedCheckoutBuild({ label: 'po fázach' }), '--stages', '5,25,50', '--auto-promote']);
  const canary = registry().canaries!.checkout!;
  expect(canary).toMatchObject({ share: 5, stages: { shares: [5, 25, 50], index: 0, stageMs: 3000, autoPromote: true } });
  // No shopper has seen it yet: it cannot move on, so the console shows its first stage.
  await signInFirstTime(page, createOperator());
  const stage = page.getByTestId('canary-checkout');
  await expect(stage.getByTestId('canary-stage')).toContainText(/^Fáza 1 z 3: 5 %, od \d\d:\d\d UTC, ďalšia najskôr \d\d:\d\d UTC/);
  await expect(stage.getByTestId('canary-stage')).toContainText('(postup 5 → 25 → 50 % → 100 %)');
  await expect(stage.getByTestId('canary-judged')).toHaveText(
    'Posudzuje sa: chybovosť (chyby v prehliadači), rýchlosť (INP, LCP), pokračovanie z košíka na kontaktné údaje (pokladňa), ' +
      'pokračovanie z kontaktných údajov na krok objednávky (pokladňa), objednávky na návštevu kroku objednávky (pokladňa), ' +
      'neúspešné platby kartou (pokladňa).',
  );

  // Shoppers on both sides, with interactions: errors and speed are judged on their telemetry (the
  // console left meanwhile, so it takes no time from their pages).
  await page.goto('about:blank');
  await warmUp(1, 90);
  await useBasket(stableShopper);
  await useBasket(canaryShopper, 'Košík – po fázach');
  // And visits of the contact and order steps (CANARY_MIN_ORDER_VISITS, CANARY_MIN_STEP_VISITS each side), no order on
  // either: the commerce guardrails hold (the basket loads above are the basket step's sessions).
  for (const shopper of [stableShopper, canaryShopper, stableShopper, canaryShopper]) await orderStepVisit(shopper, false);

  await expect.poll(() => registry().areas.checkout!.version, { timeout: 90_000, intervals: [500] }).toBe(canary.version);
  expect(registry().canaries?.checkout).toBeUndefined();
  const moves = history().filter((move) => move.part === 'checkout' && move.to === canary.version);
  expect(moves.map((move) => [move.action, move.share, move.who])).toEqual([
    ['canary', 5, 'e2e'],
    ['advance', 25, 'canary-watch'],
    ['advance', 50, 'canary-watch'],
    ['promote', 100, 'canary-watch'],
  ]);
  expect(moves[1]!.from).toBe(stable);
  expect(moves[1]!.reason).toMatch(/^automatický postup: fáza 1 z 3 \(5 %\) → fáza 2 z 3 \(25 %\) po \d+ s bez regresie: chybovosť 0\.0 %/);
  expect(moves[1]!.reason).toMatch(/INP p75 \d+ ms proti \d+ ms \(stabilná verzia\)/);
  // Each stage held its time before the next (it starts when its move is made, a moment before the move's commit time).
  for (let index = 1; index < moves.length; index += 1)
    expect(Date.parse(moves[index]!.at) - Date.parse(moves[index - 1]!.at)).toBeGreaterThanOrEqual(2_900);

  // The console's history names each step; every shopper is on the promoted version.
  await page.goto(`${OPS_URL}/ops`);
  await expect(page.locator('.ops__history li').filter({ hasText: 'ďalšia fáza kanárika' }).first()).toContainText('(50 %)');
  await stableShopper.goto('/checkout/cart');
  await expectWorkingBasket(stableShopper, 'Košík – po fázach');
  await canaryShopper.context().close();
  await stableShopper.context().close();
});

test('a staged canary of a bad build stops at its first stage: aborted there, never moved on', async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.context().addInitScript(canaryBucketScript, 1);
  await withBasket(page, request);
  const stable = registry().areas.checkout!.version;

  release(['deploy', 'checkout', '--dist', changedCheckoutBuild('throws'), '--stages', '5,25,50', '--auto-promote']);
  expectPageErrors(page, /basket page broken on purpose/, "the canary's basket page throws on purpose");
  const canary = registry().canaries!.checkout!.version;
  await brokenBasketVisits(page, 3);
  await page.goto('/');

  await expect.poll(() => registry().canaries?.checkout ?? null, { timeout: 60_000, intervals: [500] }).toBeNull();
  expect(registry().areas.checkout!.version).toBe(stable);
  const moves = history().filter((move) => move.part === 'checkout' && (move.to === canary || move.from === canary));
  expect(moves.map((move) => [move.action, move.share ?? null])).toEqual([
    ['canary', 5],
    ['abort', null],
  ]);
  expect(moves[1]!.reason).toMatch(/^automatic abort: client error rate 100\.0 %/);
  await page.goto('/checkout/cart');
  await expectWorkingBasket(page);
});
