/**
 * Field Web Vitals from a real browser to /ops: a shopper lands on a server-rendered category page,
 * taps a product (the shop's own navigation), then leaves for another page; the shell's vitals go
 * in the telemetry batches, and the operator sees p75 LCP, INP and CLS of the catalog's version.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures.ts';
import { E2E_DATA_DIR } from '../playwright.config.ts';

test("a shopper's vitals reach /ops as p75 LCP, INP and CLS of the catalog's version", async ({ page }) => {
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
  const operator = { name: 'spravca', password: readFileSync(join(E2E_DATA_DIR, 'operator-password'), 'utf8').trim() };
  await page.goto('/ops');
  await page.getByLabel('Meno', { exact: true }).fill(operator.name);
  await page.getByLabel('Heslo', { exact: true }).fill(operator.password);
  await page.getByRole('button', { name: 'Prihlásiť sa' }).click();
  await expect(page.getByTestId('ops-operator')).toContainText(operator.name);
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
