/**
 * Rollbacks as an operator and an area team live them, on the composed shop with a filled basket
 * that survives throughout: a rollback stays through a restart and a second one without a version is
 * refused; an open tab without focus events follows a rollback on its next navigation within 5 s.
 */
import { expect, expectPageErrors, test } from './fixtures.ts';
import { release } from './release-cli.ts';
import {
  brokenBasket,
  changedCheckoutBuild,
  expectWorkingBasket,
  history,
  navigateHome,
  registry,
  removeTempDirs,
  resetCheckout,
  restartServer,
  withBasket,
} from './release-helpers.ts';

test.afterAll(() => removeTempDirs());
test.afterEach(() => resetCheckout());

test('a rollback stays through a restart, and a second rollback without a version is refused', async ({ page, request }) => {
  test.setTimeout(120_000);
  await withBasket(page, request);
  const good = registry().areas.checkout!.version;

  release(['deploy', 'checkout', '--dist', changedCheckoutBuild('throws'), '--reason', 'new basket heading']);
  expectPageErrors(page, /basket page broken on purpose/, 'the released basket page throws on purpose');
  const bad = registry().areas.checkout!.version;
  await page.goto('/checkout/cart');
  await brokenBasket(page);

  expect(release(['rollback', 'checkout', '--reason', 'basket page throws'])).toContain(`pinned at ${good}`);
  expect(registry().pins?.checkout).toMatchObject({ version: good, by: 'e2e' });
  await page.goto('/checkout/cart');
  await expectWorkingBasket(page);

  // The open page's update stream and reports cannot reach the server while it restarts.
  expectPageErrors(page, /net::ERR_CONNECTION_REFUSED/, 'the server restarts under the open page on purpose');
  await restartServer();
  expect(registry().areas.checkout!.version).toBe(good);
  expect(release(['status'])).toMatch(/checkout\s+\S+.*PINNED by e2e \(basket page throws\)/);
  const moves = history().filter((move) => move.part === 'checkout');
  expect(moves.at(-1)).toMatchObject({ action: 'rollback', from: bad, to: good, reason: 'basket page throws', who: 'e2e' });
  expect(moves.at(-2)).toMatchObject({ action: 'deploy', to: bad, reason: 'new basket heading' });
  expect(moves.at(-2)!.commit).toMatch(/^[0-9a-f]{12}$/);

  expect(release(['rollback', 'checkout'], 2)).toContain('rollback_needs_version');
  expect(registry().areas.checkout!.version).toBe(good);
  await page.goto('/checkout/cart');
  await expectWorkingBasket(page);
});

test('an open tab without focus events shows a rolled-back version on its first navigation within 5 s of the rollback', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await withBasket(page, request);
  release(['deploy', 'checkout', '--dist', changedCheckoutBuild({ label: 'nová verzia' })]);
  await page.goto('/checkout/cart');
  await expectWorkingBasket(page, 'Košík – nová verzia');

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const heard: number[] = [];
  cdp.on('Network.eventSourceMessageReceived', ({ eventName }) => eventName === 'registry' && heard.push(Date.now()));

  release(['rollback', 'checkout']);
  const rolledBackAt = Date.parse(registry().updatedAt);
  // Nothing focuses the tab; the shopper navigates 4.5 s after the registry moved.
  await page.waitForTimeout(Math.max(0, rolledBackAt + 4500 - Date.now()));
  const reloaded = page.waitForEvent('load');
  await navigateHome(page);
  await reloaded;
  await page.getByRole('link', { name: /Košík:/ }).click();
  await expectWorkingBasket(page);
  expect(heard.length).toBeGreaterThan(0);
  const latency = heard[0]! - rolledBackAt;
  test.info().annotations.push({ type: 'tab heard of the rollback after', description: `${latency} ms` });
  expect(latency).toBeLessThan(5000);
});
