import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, undecidedTest as test } from './fixtures.ts';
import { E2E_DATA_DIR } from '../playwright.config.ts';

const operator = () => ({ name: 'spravca', password: readFileSync(join(E2E_DATA_DIR, 'operator-password'), 'utf8').trim() });

/** Nothing of the shopper's layout: no search, no category menu, no basket, no footer, no cookie notice. */
async function expectNoShopLayout(page: Page) {
  await expect(page.getByRole('search')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Kategórie' })).toHaveCount(0);
  await expect(page.getByTestId('basket-count')).toHaveCount(0);
  await expect(page.locator('footer')).toHaveCount(0);
  await expect(page.getByTestId('consent-first-frame')).toHaveCount(0);
  await expect(page.getByTestId('consent')).toHaveCount(0);
}

// A visitor who has not answered the cookie notice: the operators' tool sets no tracking, so it asks nothing.
for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
])
  test(`/ops at ${viewport.width} px has the operators' own layout: the operator and sign-out in its header, nothing of the shop`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    // The server's frame is the operators' layout already: no shop header to flash before the shell runs.
    const html = await (await request.get('/ops')).text();
    expect(html).toContain('Prevádzka obchodu');
    expect(html).not.toContain('role="search"');
    expect(html).not.toContain('consent-first-frame');

    await page.goto('/ops');
    const header = page.getByRole('banner');
    await expect(header).toContainText('Prevádzka obchodu');
    await page.getByLabel('Meno', { exact: true }).fill(operator().name);
    await page.getByLabel('Heslo', { exact: true }).fill(operator().password);
    await page.getByRole('button', { name: 'Prihlásiť sa' }).click();
    await expect(header.getByTestId('ops-operator')).toContainText(operator().name);
    await expect(page.getByRole('heading', { level: 1, name: 'Vydania' })).toBeVisible();
    await expectNoShopLayout(page);
    // Nothing of the header, and nothing of the releases' table with its actions, spills over the page's width.
    expect(await header.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    const rollBack = page.getByRole('button', { name: /^(Vrátiť späť|Pripnúť) Katalóg/ }).first();
    await expect(rollBack).toBeVisible();
    const box = (await rollBack.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

    await header.getByRole('button', { name: 'Odhlásiť sa' }).click();
    await expect(page.getByLabel('Meno', { exact: true })).toBeVisible();
    await expect(page.getByText('Boli ste odhlásení.')).toBeVisible();
    await expect(header.getByTestId('ops-operator')).toHaveCount(0);
  });
