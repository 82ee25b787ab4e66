/**
 * Field Web Vitals from a real browser to the operator console: a shopper lands on a server-rendered category page,
 * taps a product (the shop's own navigation), then leaves for another page; the shell's vitals go
 * in the telemetry batches, and the operator sees p75 LCP, INP and CLS of the catalog's version.
 */
import { expect, test } from './fixtures.ts';
import { createOperator, signInFirstTime } from './operator.ts';

test("a shopper's vitals reach the console as p75 LCP, INP and CLS of the catalog's version", async ({ page }) => {
  const library = page.waitForResponse((response) => /\/assets\/vitals-library-[^/]+\.js$/.test(response.url()));
  await page.goto('/c/hruba-stavba');
  // The library comes after the page's load (a few seconds later, or at the first tap).
  await library;
  await page.locator('a[href^="/p/"]').first().click();
  await expect(page).toHaveURL(/\/p\//);
  await expect(page.locator('html[data-interactive]')).toBeAttached();
  await page.getByRole('heading', { level: 1 }).first().click();
  // Leaving the page sends what the library measured (the page is hidden): one beacon as it unloads.
  await page.goto('/blog');
  await signInFirstTime(page, createOperator());
  await page.getByLabel('1 h').check();
  const catalog = page.locator('[data-testid="ops-vitals"] > li[data-area="catalog"][data-state="stable"]');
  await expect(catalog).toBeVisible();
  for (const metric of ['lcp', 'inp', 'cls']) {
    await expect(catalog.locator(`li[data-metric="${metric}"]`)).toContainText(/(dobré|treba zlepšiť|slabé)/);
  }
  await expect(catalog).toContainText('LCP:');
  await expect(catalog.locator('li[data-metric="lcp"]')).toContainText(' s');
  await expect(catalog.locator('li[data-metric="inp"]')).toContainText(' ms');
  // On a phone the section wraps: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  const box = (await page.getByTestId('ops-vitals').boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
});
