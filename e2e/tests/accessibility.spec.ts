import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, undecidedTest as base } from './fixtures.ts';
import type { Page } from '@playwright/test';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

test('home, a category, a product and the basket have no serious or critical axe violation', async ({ page }) => {
  // Four pages and four whole-page analyses: seconds each on a busy machine.
  test.setTimeout(60_000);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 2, name: 'Kategórie' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('region', { name: 'Kategórie' }).getByRole('link').first().click();
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByTestId('product-card').first().getByRole('link').click();
  await expect(page.getByRole('button', { name: 'Pridať do košíka' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Pridať do košíka' }).click();

  await page.goto('/checkout/cart');
  await expect(page.getByTestId('basket-line')).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);
});

base('the consent dialog has no serious or critical axe violation, in both views', async ({ page }) => {
  await page.goto('/');
  // The shell's notice (it replaces the static one painted with the first frame).
  const dialog = page.getByRole('dialog', { name: 'Súbory cookies' }).and(page.getByTestId('consent'));
  await expect(dialog).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Nastavenia' }).click();
  await expect(dialog.getByRole('button', { name: 'Uložiť výber' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the shop works by keyboard and focus moves to the new page heading', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Preskočiť na obsah' })).toBeFocused();
  // Reach the first category tile by keyboard and follow it.
  const tile = page.getByRole('region', { name: 'Kategórie' }).getByRole('link').first();
  const name = (await tile.textContent())!.trim();
  await tile.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/c\//);
  await expect(page.getByRole('heading', { level: 1, name })).toBeFocused();
});

test('every page has its own title and meta description, and the document is Slovak', async ({ page }) => {
  await page.goto('/s/kontakt');
  await expect(page).toHaveTitle('Kontakt | Stavebniny Domov');
  expect(await page.locator('html').getAttribute('lang')).toBe('sk');
  const description = () => page.locator('meta[name="description"]').getAttribute('content');
  expect(await description()).toContain('Kontakt');
  await page.goto('/vypredaj');
  await expect(page).toHaveTitle('Výpredaj | Stavebniny Domov');
  expect(await description()).toContain('zľave');
});
