/**
 * The commerce guardrail (issue 52, acceptance 1): a canary checkout build that hides the order
 * button for half its shoppers (nothing thrown, nothing slower) is aborted by the canary watch on
 * orders per order-step visit, in Chromium-driven traffic, the measure and both sides' figures named
 * in the history and on /ops. The orders are the server's own (each records the checkout version
 * its browser was served); the visits are the shoppers' telemetry sessions. e2e/serve.mjs sets
 * CANARY_MIN_ORDER_VISITS to 2.
 *
 * No timing is assumed: the canary is one stage held for 30 minutes, so it can only be aborted while
 * the test runs, whenever the watch sees enough visits; a shopper orders when the step shows the
 * order button, as a shopper would (after an abort, every shopper has it again).
 */
import { expect, test } from './fixtures.ts';
import { release } from './release-cli.ts';
import {
  hiddenOrderButtonBuild,
  history,
  orderStepVisit,
  registry,
  removeTempDirs,
  resetCheckout,
  shopperContext,
  withBasket,
} from './release-helpers.ts';
import { createOperator, OPS_URL, signInFirstTime } from './operator.ts';

test.afterAll(() => removeTempDirs());
test.afterEach(() => resetCheckout());

const MEASURE = 'objednávky na návštevu kroku objednávky';

test('a checkout canary hiding its order button from half its shoppers is aborted on orders per order-step visit', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const stable = registry().areas.checkout!.version;
  release(['deploy', 'checkout', '--dist', hiddenOrderButtonBuild(), '--stages', '50', '--stage-min', '30']);
  const canary = registry().canaries!.checkout!.version;

  await signInFirstTime(page, createOperator());
  await expect(page.getByTestId('canary-checkout').getByTestId('canary-judged')).toContainText(`${MEASURE} (pokladňa)`);
  await page.goto('about:blank');

  // Buckets under 50 get the canary, and its odd ones no order button; the others the stable checkout.
  const placed: Record<number, boolean> = {};
  for (const bucket of [60, 61, 62, 63, 10, 11, 12, 13]) {
    const context = await shopperContext(() => browser.newContext({ locale: 'sk-SK', viewport: { width: 390, height: 844 } }), bucket);
    const shopper = await context.newPage();
    await withBasket(shopper, request);
    placed[bucket] = await orderStepVisit(shopper, true);
    await context.close();
  }
  // Every shopper of the stable checkout ordered; of the canary's, at least one could not.
  expect([60, 61, 62, 63].map((bucket) => placed[bucket])).toEqual([true, true, true, true]);
  expect([11, 13].some((bucket) => !placed[bucket])).toBe(true);

  await expect.poll(() => registry().canaries?.checkout ?? null, { timeout: 90_000, intervals: [500] }).toBeNull();
  expect(registry().areas.checkout!.version).toBe(stable);
  const abort = history()
    .filter((move) => move.part === 'checkout' && move.from === canary)
    .at(-1)!;
  expect(abort).toMatchObject({ action: 'abort', who: 'canary-watch', to: stable });
  expect(abort.reason).toMatch(
    new RegExp(
      `^automatické zrušenie \\(${MEASURE} \\(pokladňa\\)\\): ${MEASURE}: kanárik \\d+/\\d+ \\(\\d+ %\\), stabilná \\d+/\\d+ \\(\\d+ %\\); menej o \\d+ %`,
    ),
  );

  await page.goto(`${OPS_URL}/ops`);
  await expect(
    page
      .locator('.ops__history li')
      .filter({ hasText: `${MEASURE}: kanárik` })
      .first(),
  ).toBeVisible();
});
