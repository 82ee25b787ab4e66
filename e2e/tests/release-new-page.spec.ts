/**
 * A page shipped by one area alone: the checkout deploys itself with a new page, an open tab hears of
 * the release and shows the page on its next navigation with the basket intact, and no shell file or
 * other area's file is fetched again; the area's next release without the page takes it away.
 */
import { spawnSync } from 'node:child_process';
import { expect, expectPageErrors, failedLoad, test } from './fixtures.ts';
import { ASSET_PORT, SHOP_PORT } from '../playwright.config.ts';
import { release, repo } from './release-cli.ts';
import {
  expectWorkingBasket,
  navigateHome,
  registry,
  removeTempDirs,
  resetCheckout,
  tempDir,
  watchDownloads,
  withBasket,
} from './release-helpers.ts';

test.afterAll(() => removeTempDirs());
test.afterEach(() => resetCheckout());

test('an area ships a new page by deploying itself alone: it appears on the next navigation, no shell file is fetched again', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // Every download of the tab from its start: a file first fetched after the release (a link's area
  // preloaded on intent, say) is no waste; one fetched before and again after it would be.
  const downloadedSince = await watchDownloads(page);
  await withBasket(page, request);
  expectPageErrors(page, failedLoad(404, '/darcekove-poukazky'), 'the page does not exist before the area ships it: a 404');
  await page.goto('/darcekove-poukazky');
  await expect(page.getByRole('heading', { level: 1, name: 'Ospravedlňujeme sa, táto stránka neexistuje' })).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Všetko pre vašu stavbu na jednom mieste' })).toBeVisible();

  const dist = tempDir('checkout-new-page-');
  const built = spawnSync(
    'pnpm',
    [
      '--filter',
      './mf-checkout',
      'exec',
      'vite',
      'build',
      '--config',
      'test-fixtures/vite.new-page.config.ts',
      '--outDir',
      dist,
      '--emptyOutDir',
    ],
    {
      cwd: repo,
      encoding: 'utf8',
    },
  );
  expect(built.status, built.stderr).toBe(0);
  const before = registry();
  release(['deploy', 'checkout', '--dist', dist, '--reason', 'gift cards page']);
  const after = registry();
  expect(after.shell).toEqual(before.shell);
  for (const area of ['catalog', 'account', 'content'] as const) expect(after.areas[area]).toEqual(before.areas[area]);
  expect(after.areas.checkout!.routes.map((route) => route.path)).toContain('/darcekove-poukazky');

  // The open tab hears of the release, so its next navigation is a full load with the new route table.
  await page.waitForTimeout(1500);
  const reloaded = page.waitForEvent('load');
  await navigateHome(page);
  await reloaded;
  await page.goto('/darcekove-poukazky');
  await expect(page.getByRole('heading', { level: 1, name: 'Darčekové poukážky' })).toBeVisible();
  await expect(page.getByTestId('gift-basket-lines')).toHaveText('Položky v košíku: 1');
  await page.getByRole('link', { name: 'Späť do košíka' }).click();
  await expectWorkingBasket(page);

  const downloaded = downloadedSince();
  expect(downloaded).toContain(`http://localhost:${ASSET_PORT}/${after.areas.checkout!.entry}`);
  const fetchedAgain = downloaded.filter((url, index) => downloaded.indexOf(url) !== index);
  expect(
    fetchedAgain.filter(
      (url) => url.startsWith(`http://localhost:${SHOP_PORT}/assets/`) || /\/remotes\/(catalog|account|content)\//.test(url),
    ),
  ).toEqual([]);

  // Taken away the same way: the area's next release without the page.
  resetCheckout();
  await page.goto('/darcekove-poukazky');
  await expect(page.getByRole('heading', { level: 1, name: 'Ospravedlňujeme sa, táto stránka neexistuje' })).toBeVisible();
});
