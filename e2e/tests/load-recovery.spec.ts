import type { Page, Request, Response } from '@playwright/test';
import { expect, expectPageErrors, test } from './fixtures.ts';
import type { Registry } from './helpers.ts';
import { ASSET_PORT, SHOP_PORT } from '../playwright.config.ts';

/**
 * The asset origin (a CDN in production, the static origin's port here) stops answering while a
 * shopper has the shop open; the shop's own server keeps answering. The CDN is stopped by aborting
 * every request to it, so what the browser falls back to are the real server's bytes.
 */
const assetOrigin = `http://localhost:${ASSET_PORT}`;
const shopOrigin = `http://localhost:${SHOP_PORT}`;
const basketLink = (page: Page) => page.getByRole('link', { name: /Košík:/ });
const emptyBasket = (page: Page) => page.getByRole('heading', { level: 1, name: 'Košík je prázdny' });
const checkoutFailed = (page: Page) => page.getByRole('alert').filter({ hasText: 'Košík a objednávka sa nepodarilo načítať' });

// These tests count the loads a click makes; a link in view prefetched meanwhile would add its own
// attempts (a failed prefetch is forgotten and the click tries again), so prefetch is off here, with
// the switch the bench uses for its "before" column.
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('shop:prefetch', 'off'));
});

async function stopAssetOrigin(page: Page) {
  await page.route(`${assetOrigin}/**`, (route) => route.abort('connectionrefused'));
}

async function checkoutVersion(page: Page): Promise<string> {
  const registry = (await (await page.request.get('/builds/latest.json')).json()) as Registry;
  return registry.areas.checkout!.version;
}

/** The page's import map integrity, keyed by absolute address. */
async function importMapIntegrity(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const map = JSON.parse(document.querySelector('script[type="importmap"]')!.textContent!) as { integrity: Record<string, string> };
    return Object.fromEntries(Object.entries(map.integrity).map(([key, digest]) => [new URL(key, document.baseURI).href, digest]));
  });
}

test('with the asset origin stopped mid-session, the next area loads from the shop’s origin, checked, and is counted as recovered', async ({
  page,
}) => {
  const version = await checkoutVersion(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Všetko pre vašu stavbu na jednom mieste' })).toBeVisible();
  expectPageErrors(page, /net::ERR_CONNECTION_REFUSED/, 'the asset origin is stopped on purpose: its requests fail');

  await stopAssetOrigin(page);
  const fromShop: Response[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(`${shopOrigin}/remotes/checkout/${version}/`)) fromShop.push(response);
  });
  const recovered = page.waitForRequest(
    (request: Request) => request.url().endsWith('/api/telemetry') && /"kind":"recovered"/.test(request.postData() ?? ''),
    { timeout: 20_000 },
  );
  await basketLink(page).click();
  await expect(emptyBasket(page)).toBeVisible();
  await expect(checkoutFailed(page)).toHaveCount(0);

  // The checkout's entry and page chunk came from the shop's own origin, each named in the import
  // map with the same digest as its asset-origin address (so Chromium checked those bytes too).
  const integrity = await importMapIntegrity(page);
  const scripts = fromShop.filter((response) => response.url().endsWith('.js') && response.request().resourceType() === 'script');
  expect(scripts.map((response) => response.url())).toContain(`${shopOrigin}/remotes/checkout/${version}/remoteEntry.js`);
  for (const response of scripts) {
    expect(response.status(), response.url()).toBe(200);
    const digest = integrity[response.url()];
    expect(digest, `${response.url()} is named in the import map`).toMatch(/^sha384-/);
    expect(integrity[response.url().replace(shopOrigin, assetOrigin)]).toBe(digest);
  }
  // Reported as recovered, not as a failure (in the next telemetry batch).
  const report = JSON.parse((await recovered).postData()!) as { events: { type: string; area: string; kind?: string; message?: string }[] };
  const kinds = report.events.filter((event) => event.type === 'error').map((event) => event.kind);
  expect(kinds).toContain('recovered');
  expect(kinds).not.toContain('load-failed');
});

test('a changed file from the shop’s origin is refused by the browser and contained, not tried again', async ({ page }) => {
  const version = await checkoutVersion(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Všetko pre vašu stavbu na jednom mieste' })).toBeVisible();
  const why = 'the asset origin is stopped and the fallback entry is changed on purpose';
  expectPageErrors(page, /net::ERR_CONNECTION_REFUSED/, why);
  expectPageErrors(page, /Failed to find a valid digest in the 'integrity' attribute/, why);
  expectPageErrors(page, /AreaLoadError: Area checkout could not load \.\/CartPage: unavailable \(tampered\)/, why);
  await stopAssetOrigin(page);
  const entry = `${shopOrigin}/remotes/checkout/${version}/remoteEntry.js`;
  let asked = 0;
  await page.route(entry, async (route) => {
    asked += 1;
    const real = await route.fetch();
    await route.fulfill({ response: real, body: `${await real.text()}\n;window.__changed = true;` });
  });
  await basketLink(page).click();
  await expect(checkoutFailed(page)).toBeVisible();
  expect(await page.evaluate(() => (window as { __changed?: boolean }).__changed)).toBeUndefined();
  // The load and the loader's one look at the bytes: no attempt after the change was seen.
  expect(asked).toBe(2);
});

test('with both origins failing, the Slovak message comes after the last attempt, and its retry works', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Všetko pre vašu stavbu na jednom mieste' })).toBeVisible();
  const why = 'both origins of the checkout files are stopped on purpose';
  expectPageErrors(page, /net::ERR_CONNECTION_REFUSED/, why);
  expectPageErrors(page, /status of 503 .*\/remotes\/checkout\//, why);
  expectPageErrors(page, /AreaLoadError: Area checkout could not load \.\/CartPage: unavailable \(network\)/, why);
  await stopAssetOrigin(page);
  const fallback = `${shopOrigin}/remotes/checkout/**`;
  let attempts = 0;
  await page.route(fallback, (route) => {
    if (route.request().resourceType() === 'script') attempts += 1;
    return route.fulfill({ status: 503, body: '' });
  });
  await basketLink(page).click();
  await expect(checkoutFailed(page)).toBeVisible();
  // Two attempts from the shop's origin after two from the asset origin.
  expect(attempts).toBe(2);

  await page.unroute(`${assetOrigin}/**`);
  await page.unroute(fallback);
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  await checkoutFailed(page).getByRole('button', { name: 'Skúsiť znova' }).click();
  await expect(emptyBasket(page)).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
});
