import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { E2E_DATA_DIR } from '../playwright.config.ts';
import { expect, expectPageErrors, failedLoad, test, undecidedTest as base } from './fixtures.ts';
import { checkOut, fillBasket, findVariants } from './checkout-helpers.ts';

base('the operator tools /pdf and /generate show no consent notice', async ({ page }) => {
  await page.goto('/checkout/cart');
  await expect(page.getByRole('button', { name: 'Prijať všetko' })).toBeVisible();
  for (const path of ['/pdf', '/generate']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByLabel('Token operátora')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Prijať všetko' })).toHaveCount(0);
  }
});

test('the operator previews the e-mail and marks a bank-transfer order paid, behind the operator token', async ({ page, request }) => {
  test.setTimeout(90_000);
  const [v] = await findVariants(request, 1);
  await fillBasket(page, request, [{ v_id: v!.v_id, amount: 1 }]);
  await checkOut(page, { email: `prevod-${Date.now().toString(36)}@example.sk`, shipping: /Osobný odber/, payment: /Bankovým prevodom/ });
  await expect(page.getByTestId('payment-status')).toHaveText('čaká na úhradu');
  const number = (await page.getByTestId('order-number').textContent())!.trim();
  const thankYou = page.url();

  await page.goto(`/paid?order=${number}`);
  expectPageErrors(page, failedLoad(401, `/api/operator/orders/${number}/paid`), 'a wrong operator token is refused on purpose');
  await page.getByLabel('Token operátora').fill('zly-token');
  await page.getByRole('button', { name: 'Označiť ako zaplatenú' }).click();
  await expect(page.getByRole('alert')).toHaveText('Chýba alebo nesedí token operátora.');
  const token = readFileSync(join(E2E_DATA_DIR, 'operator-token'), 'utf8').trim();
  await page.getByLabel('Token operátora').fill(token);
  await page.getByRole('button', { name: 'Označiť ako zaplatenú' }).click();
  await expect(page.getByRole('status')).toHaveText('Objednávka je označená ako zaplatená.');

  await page.goto(`/email?order=${number}`);
  await page.getByRole('button', { name: 'Zobraziť e-mail' }).click();
  await expect(page.getByRole('status')).toContainText(`Potvrdenie objednávky č. ${number}`);
  // The message's text, shown as text (no frame of its HTML under the page's policy).
  await expect(page.getByTestId('mail-preview')).toContainText(number);

  await page.goto(thankYou);
  await expect(page.getByTestId('payment-status')).toHaveText('zaplatená');
});
