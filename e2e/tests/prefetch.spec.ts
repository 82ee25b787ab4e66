import type { Page, Request } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/**
 * Prefetch on intent: a product link hovered, focused or scrolled into view loads the catalog's
 * product page module and asks for the product's data (its route data) before the click, within a
 * budget per page, and never when the browser asks to save data. The page's policy and the import
 * map's integrity hold for all of it (every e2e test fails on a policy violation).
 */
const productData = /\/api\/product\/[^/?]+$/;
const productChunk = /\/remotes\/catalog\/[^/]+\/assets\/product-page-[^/]*\.js$/;

function watch(page: Page) {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return {
    data: () => requests.filter((request) => productData.test(new URL(request.url()).pathname)).map((request) => request.url()),
    chunk: () => requests.some((request) => productChunk.test(request.url())),
  };
}

const productLinks = (page: Page) => page.getByRole('list', { name: /Produkty v kategórii/ }).locator('a[href^="/p/"]');

async function openCategory(page: Page) {
  await page.goto('/c/hruba-stavba');
  await expect(page.getByRole('heading', { level: 1, name: 'Hrubá stavba' })).toBeVisible();
  await expect(productLinks(page).first()).toBeVisible();
}

test('hovering a product link loads its page module and data before the click; the page then uses them', async ({ page }) => {
  const seen = watch(page);
  await openCategory(page);
  const link = productLinks(page).first();
  const href = (await link.getAttribute('href'))!;
  await link.hover();
  await expect.poll(() => seen.data().some((url) => new URL(url).pathname === `/api/product${href.slice(2)}`)).toBe(true);
  await expect.poll(() => seen.chunk()).toBe(true);

  await link.click();
  await expect(page).toHaveURL(href);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The page's own request for the product was answered by the browser's cache (no bytes fetched).
  const fetched = await page.evaluate(
    (path) =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname === path)
        .map((entry) => (entry as PerformanceResourceTiming).transferSize),
    `/api/product${href.slice(2)}`,
  );
  expect(fetched.length).toBeGreaterThanOrEqual(2);
  expect(fetched.slice(1).every((size) => size === 0)).toBe(true);
});

/** The page a catalog data call warms (its route data): `/c/<category>`, `/p/<product>`, `/`; null for anything else. */
function targetOf(url: string): string | null {
  const { pathname, searchParams } = new URL(url);
  if (pathname === '/api/home' || pathname === '/api/blog') return '/';
  const product = /^\/api\/product\/([^/]+)$/.exec(pathname);
  if (product) return `/p/${product[1]}`;
  const category =
    /^\/api\/category\/([^/]+)$/.exec(pathname)?.[1] ?? (pathname.startsWith('/api/products') ? searchParams.get('category') : null);
  return category ? `/c/${category}` : null;
}

test('links in view are prefetched when idle, within the page’s budget; hovering more stays within its own', async ({ page }) => {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'GET' && new URL(request.url()).pathname.startsWith('/api/')) calls.push(request.url());
  });
  await openCategory(page);
  // The page's own data came with its server render; anything else of the catalog is warmed ahead.
  const own = '/c/hruba-stavba';
  const inView = () => new Set(calls.map(targetOf).filter((target): target is string => target !== null && target !== own));
  // The links of the page in view (not the header's), once the browser is idle: a few, each once.
  await expect.poll(() => inView().size).toBeGreaterThan(0);
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
  const fromView = inView();
  expect(fromView.size).toBeLessThanOrEqual(4);

  // Hovering every product of the listing warms at most 8 of them.
  const links = productLinks(page);
  const count = await links.count();
  expect(count).toBeGreaterThan(8);
  for (let index = 0; index < count; index += 1) await links.nth(index).hover();
  const hovered = () => [...inView()].filter((target) => !fromView.has(target) && target.startsWith('/p/'));
  await expect.poll(() => hovered().length).toBeGreaterThan(0);
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
  expect(hovered().length).toBeLessThanOrEqual(8);
  // Each product's data asked for once.
  const productCalls = calls.filter((url) => /\/api\/product\/[^/?]+$/.test(new URL(url).pathname));
  expect(new Set(productCalls).size).toBe(productCalls.length);
});

test('a browser that asks to save data prefetches nothing', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => ({ saveData: true, effectiveType: '4g' }) });
  });
  const seen = watch(page);
  await openCategory(page);
  const link = productLinks(page).first();
  await link.hover();
  await link.focus();
  await page.waitForTimeout(1000);
  expect(seen.data()).toEqual([]);
  expect(seen.chunk()).toBe(false);
  await link.click();
  // The category's own heading is visible until the product page replaces it: wait for the product's data.
  await expect.poll(() => seen.data()).toHaveLength(1);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});
