/**
 * Feature switches (issue 52): an operator switches the checkout's card payment off on the console,
 * and an open checkout page drops the method within seconds, without a reload (the registry's event
 * stream carries the switches), keeping the other methods and saying why a chosen card is gone;
 * switched on again, it comes back. The audit log names the operator. The pickup-point delivery
 * and its picker go and come back the same way.
 */
import { expect, test } from './fixtures.ts';
import { fillBasket, fillContact, findVariants } from './checkout-helpers.ts';
import { createOperator, signInFirstTime } from './operator.ts';

/** The acceptance's bound: a switch reaches open pages within this time. */
const FOLLOWED_MS = 5_000;

test('card payment switched off on /ops leaves open checkout pages within 5 s and comes back when switched on', async ({
  page,
  request,
  browser,
}) => {
  const [variant] = await findVariants(request, 1);
  await fillBasket(page, request, [{ v_id: variant!.v_id, amount: 1 }]);
  await page.getByRole('link', { name: 'Pokračovať k údajom' }).click();
  await fillContact(page, 'prepinac@example.sk');
  await page.getByRole('button', { name: 'Pokračovať k doprave a platbe' }).click();
  await page.getByRole('radio', { name: /^Kuriér/ }).check();
  const card = page.getByRole('radio', { name: /Platobnou kartou online/ });
  await card.check();
  // Marks this page load: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { pageLoad: string }).pageLoad = 'first'));

  // The operator, in a browser of its own, on the operator origin.
  const operators = await browser.newContext();
  try {
    const ops = await operators.newPage();
    const operator = createOperator('prepinac');
    await signInFirstTime(ops, operator);
    const form = ops.getByTestId('ops-flag-form');
    await form.getByLabel('Oblasť').selectOption('checkout');
    await form.getByLabel('Prepínač').fill('card-payment');
    await form.getByLabel('Zapnutý pre (%)').fill('0');
    await form.getByRole('button', { name: 'Nastaviť' }).click();
    await expect(ops.getByText('Prepínač card-payment (Košík a objednávka) je vypnutý.')).toBeVisible();

    // The open checkout page: no card, the other methods stay, and the shopper is told the chosen card is gone.
    await expect(card).toHaveCount(0, { timeout: FOLLOWED_MS });
    await expect(page.getByRole('radio', { name: /Na dobierku/ })).toBeVisible();
    await expect(page.getByRole('radio', { name: /Bankovým prevodom/ })).toBeVisible();
    await expect(page.getByTestId('method-switched-off')).toHaveText(
      'Platba kartou je teraz nedostupná. Vyberte, prosím, iný spôsob platby.',
    );

    await ops
      .locator('tr[data-flag="checkout/card-payment"]')
      .getByRole('button', { name: /Zapnúť/ })
      .click();
    await expect(ops.getByText('Prepínač card-payment (Košík a objednávka) je zapnutý.')).toBeVisible();
    await expect(card).toBeVisible({ timeout: FOLLOWED_MS });
    await expect(card).toBeChecked();
    await expect(page.getByTestId('method-switched-off')).toHaveCount(0);
    // Followed live, not by a reload.
    expect(await page.evaluate(() => (window as unknown as { pageLoad?: string }).pageLoad)).toBe('first');

    // The audit log names the operator for both changes.
    const audit = ops.getByTestId('ops-audit');
    await expect(audit).toContainText(`${operator.name} · prepínač funkcie · checkout · card-payment: nezadaný → vypnutý`);
    await expect(audit).toContainText(`${operator.name} · prepínač funkcie · checkout · card-payment: vypnutý → zapnutý`);
  } finally {
    await operators.close();
  }
});

test('the pickup-point delivery and its picker leave an open checkout page while switched off', async ({ page, request, browser }) => {
  const [variant] = await findVariants(request, 1);
  await fillBasket(page, request, [{ v_id: variant!.v_id, amount: 1 }]);
  await page.getByRole('link', { name: 'Pokračovať k údajom' }).click();
  await fillContact(page, 'vydajne-prepinac@example.sk');
  await page.getByRole('button', { name: 'Pokračovať k doprave a platbe' }).click();
  const pickup = page.getByRole('radio', { name: /Výdajné miesto/ }).first();
  await pickup.check();
  const picker = page.getByTestId('pickup-point-picker');
  await expect(picker).toBeVisible();

  const operators = await browser.newContext();
  try {
    const ops = await operators.newPage();
    await signInFirstTime(ops, createOperator('vydajne'));
    const form = ops.getByTestId('ops-flag-form');
    await form.getByLabel('Oblasť').selectOption('checkout');
    await form.getByLabel('Prepínač').fill('pickup-points');
    await form.getByLabel('Zapnutý pre (%)').fill('0');
    await form.getByRole('button', { name: 'Nastaviť' }).click();
    await expect(ops.getByText('Prepínač pickup-points (Košík a objednávka) je vypnutý.')).toBeVisible();

    await expect(picker).toHaveCount(0, { timeout: FOLLOWED_MS });
    await expect(page.getByRole('radio', { name: /Výdajné miesto/ })).toHaveCount(0);
    await expect(page.getByRole('radio', { name: /^Kuriér/ })).toBeVisible();
    await expect(page.getByTestId('method-switched-off')).toHaveText(
      'Doprava na výdajné miesto je teraz nedostupná. Vyberte, prosím, iný spôsob dopravy.',
    );

    await ops
      .locator('tr[data-flag="checkout/pickup-points"]')
      .getByRole('button', { name: /Zapnúť/ })
      .click();
    await expect(picker).toBeVisible({ timeout: FOLLOWED_MS });
    await expect(page.getByTestId('method-switched-off')).toHaveCount(0);
  } finally {
    await operators.close();
  }
});
