import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { ASSET_PORT, E2E_DATA_DIR, SHOP_PORT } from '../playwright.config.ts';
import type { Registry } from './helpers.ts';

const repo = join(import.meta.dirname, '..', '..');
const origin = join(E2E_DATA_DIR, 'origin');
const registry = () => JSON.parse(readFileSync(join(origin, 'builds', 'latest.json'), 'utf8')) as Registry & { shell: { version: string } };

function release(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/release/cli.ts', ...args, '--origin', origin], {
    cwd: join(repo, 'api'),
    encoding: 'utf8',
    env: { ...process.env, RELEASE_USER: 'e2e' },
  });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

/** A real checkout build whose basket heading reads differently: a visibly changed release. */
function changedCheckoutBuild(label = 'nová verzia'): string {
  const dist = mkdtempSync(join(tmpdir(), 'checkout-next-'));
  cpSync(join(repo, 'mf-checkout', 'dist'), dist, { recursive: true });
  const assets = join(dist, 'assets');
  const page = readdirSync(assets).find((file) => file.endsWith('.js') && readFileSync(join(assets, file), 'utf8').includes('Vyprázdniť košík'))!;
  const source = readFileSync(join(assets, page), 'utf8');
  writeFileSync(join(assets, page), source.replace('children:`Košík`}', `children:\`Košík – ${label}\`}`));
  return dist;
}

/** URLs the browser downloaded from the network (not from its cache, not a 304). */
async function watchDownloads(page: Page) {
  const responses = new Map<string, string>();
  const fromCache = new Set<string>();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  cdp.on('Network.requestServedFromCache', ({ requestId }) => fromCache.add(requestId));
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    if (!response.fromDiskCache && !response.fromPrefetchCache && !response.fromServiceWorker && response.status === 200) responses.set(requestId, response.url);
  });
  return () => [...responses].filter(([id]) => !fromCache.has(id)).map(([, url]) => url);
}

/** The shell notices the moved pointer (it polls every second here), then a navigation loads the page fully. */
async function nextNavigation(page: Page, revision: string) {
  await expect.poll(() => registry().revision).toBe(revision);
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await page.waitForTimeout(1500);
  // The navigation becomes a full page load: wait for the new document before going on.
  const reloaded = page.waitForEvent('load');
  await page.getByRole('link', { name: 'Stavebniny Domov – úvodná stránka' }).click();
  await reloaded;
  await expect(page.getByRole('heading', { level: 1, name: 'Všetko pre vašu stavbu na jednom mieste' })).toBeVisible();
  await page.getByRole('link', { name: /Košík:/ }).click();
}

test('a deployed checkout is served on the next navigation while the rest stays; a rollback brings the old one back; the basket survives', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/vypredaj');
  await page.getByTestId('product-card').first().getByRole('link').click();
  await page.getByRole('button', { name: 'Pridať do košíka' }).click();
  await page.getByRole('link', { name: /Košík:/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Košík', exact: true })).toBeVisible();
  await expect(page.getByTestId('basket-line')).toHaveCount(1);
  // Warm the browser cache with the home page's parts too.
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 2, name: 'Kategórie' })).toBeVisible();
  await page.goto('/checkout/cart');
  await expect(page.getByTestId('basket-line')).toHaveCount(1);
  const before = registry();

  release('deploy', 'checkout', '--dist', changedCheckoutBuild());
  const after = registry();
  expect(after.areas.checkout!.version).not.toBe(before.areas.checkout!.version);
  for (const area of ['catalog', 'account', 'content'] as const) expect(after.areas[area]).toEqual(before.areas[area]);
  expect(after.shell).toEqual(before.shell);

  const downloadedSince = await watchDownloads(page);
  await nextNavigation(page, after.revision);
  await expect(page.getByRole('heading', { level: 1, name: 'Košík – nová verzia' })).toBeVisible();
  await expect(page.getByTestId('basket-line')).toHaveCount(1);

  const assetOrigin = `http://localhost:${ASSET_PORT}`;
  const downloaded = downloadedSince();
  expect(downloaded).toContain(`${assetOrigin}/${after.areas.checkout!.entry}`);
  const unchangedFiles = downloaded.filter(
    (url) => url.startsWith(`http://localhost:${SHOP_PORT}/assets/`) || /\/remotes\/(catalog|account|content)\//.test(url),
  );
  expect(unchangedFiles).toEqual([]);

  release('rollback', 'checkout');
  const rolledBack = registry();
  expect(rolledBack.areas.checkout!.version).toBe(before.areas.checkout!.version);
  await nextNavigation(page, rolledBack.revision);
  await expect(page.getByRole('heading', { level: 1, name: 'Košík', exact: true })).toBeVisible();
  await expect(page.getByTestId('basket-line')).toHaveCount(1);
  expect(release('history', 'checkout')).toMatch(/rollback\s+checkout/);
});

test('the operator page shows the versions in force and rolls an area back with the same code', async ({ page }) => {
  const token = readFileSync(join(E2E_DATA_DIR, 'operator-token'), 'utf8').trim();
  const current = registry();
  release('deploy', 'checkout', '--dist', changedCheckoutBuild(`verzia ${Date.now()}`));
  const deployed = registry().areas.checkout!.version;

  await page.goto('/ops');
  await page.getByLabel('Operátorský token').fill('zlý token');
  await page.getByRole('button', { name: 'Pokračovať' }).click();
  await expect(page.getByRole('alert')).toHaveText('Chýba platný operátorský token.');
  await page.getByLabel('Operátorský token').fill(token);
  await page.getByRole('button', { name: 'Pokračovať' }).click();
  const row = page.locator('tr[data-part="checkout"]');
  await expect(row).toContainText(deployed);
  await expect(page.locator('tr[data-part="catalog"]')).toContainText(current.areas.catalog!.version);

  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: /Vrátiť späť/ }).click();
  await expect(page.getByRole('status')).toContainText(`${deployed} → ${current.areas.checkout!.version}`);
  await expect(row).toContainText(current.areas.checkout!.version);
  expect(registry().areas.checkout!.version).toBe(current.areas.checkout!.version);
  await expect(page.locator('.ops__history li').first()).toContainText('návrat');
  // Payments the shop refunds are listed for the operator too (none in this run).
  await expect(page.getByRole('heading', { name: 'Vrátené platby' })).toBeVisible();
  await expect(page.getByText('Žiadna platba nebola zaplatená dvakrát.')).toBeVisible();
});
