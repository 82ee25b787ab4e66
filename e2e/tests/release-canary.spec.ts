/**
 * A canary as an area team lives it, on the composed shop with a filled basket: a canary whose basket
 * page throws is aborted on its own within a minute, its most reported error named with the canary's
 * own source maps, and every shopper, in the canary's bucket or not, is back on the stable version.
 */
import { expect, expectPageErrors, test } from './fixtures.ts';
import { release } from './release-cli.ts';
import {
  brokenBasket,
  canaryBucketScript,
  changedCheckoutBuild,
  expectWorkingBasket,
  history,
  registry,
  removeTempDirs,
  resetCheckout,
  shopperContext,
  withBasket,
} from './release-helpers.ts';

test.afterAll(() => removeTempDirs());
test.afterEach(() => resetCheckout());

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
  // Three shoppers' visits are what the watchdog needs here: CANARY_MIN_VIEWS counts telemetry sessions,
  // so each load is a visit of its own (the session cookie goes first), and the next one starts only once
  // this page's view and error have been reported under its session (the batch leaves within 5 s).
  for (let load = 0; load < 3; load += 1) {
    await page.context().clearCookies({ name: 'shop_telemetry' });
    const reported = page.waitForResponse(
      (response) => response.url().endsWith('/api/telemetry') && (response.request().postData() ?? '').includes('"type":"error"'),
    );
    await page.goto('/checkout/cart');
    await brokenBasket(page);
    expect((await reported).status()).toBe(204);
  }
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
