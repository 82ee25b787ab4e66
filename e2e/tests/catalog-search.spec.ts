import { expect, test } from './fixtures.ts';

test('a search without diacritics finds products whose names have them', async ({ page }) => {
  await page.goto('/');
  const box = page.getByRole('combobox', { name: 'Hľadať v obchode' });
  await box.fill('sadrokartonova');
  // Suggestions while typing (debounced), with products and prices.
  const suggestions = page.getByRole('listbox', { name: 'Návrhy vyhľadávania' });
  await expect(suggestions.getByRole('option').first()).toBeVisible();
  await expect(suggestions.getByRole('option', { name: /Sadrokartónová doska/ }).first()).toBeVisible();
  await box.press('Enter');

  await expect(page).toHaveURL(/\/search\/sadrokartonova$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Výsledky hľadania „sadrokartonova“' })).toBeVisible();
  await expect(page).toHaveTitle('Hľadanie: sadrokartonova | Stavebniny Domov');
  const cards = page.getByTestId('product-card');
  await expect(cards.first()).toBeVisible();
  await expect(cards.filter({ hasText: 'Sadrokartónová doska Knauf GKB 12,5 mm' })).toHaveCount(1);
});

test('a suggestion leads straight to the product', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Hľadať v obchode' }).fill('tehla porotherm 30 profi');
  await page
    .getByRole('option')
    .filter({ has: page.getByText('Tehla Porotherm 30 Profi', { exact: true }) })
    .click();
  await expect(page).toHaveURL(/\/p\/tehla-porotherm-30-profi$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Tehla Porotherm 30 Profi' })).toBeVisible();
});

test('no results explain themselves and suggest categories', async ({ page }) => {
  await page.goto('/search/xyzzy');
  const empty = page.getByTestId('no-results');
  await expect(empty).toContainText('Pre výraz „xyzzy“ sme nenašli žiadny produkt.');
  await expect(empty.getByRole('list', { name: 'Navrhované kategórie' }).getByRole('link').first()).toBeVisible();
  await empty.getByRole('link', { name: 'Izolácie' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Izolácie' })).toBeVisible();
});
