import { expect, test, undecidedTest as base } from './fixtures.ts';
import { checkOut, fillBasket, findVariants } from './checkout-helpers.ts';
import { createOperator, OPS_URL, signInFirstTime } from './operator.ts';

base(
  'the utility tools /pdf, /generate, /email, /send and /paid (requirements R2.2) send the browser to the console on the operator origin',
  async ({ page, request }) => {
    for (const tool of ['pdf', 'generate', 'email', 'send', 'paid']) {
      const answer = await request.get(`/${tool}?order=2026000123`, { maxRedirects: 0 });
      expect(answer.status(), tool).toBe(302);
      expect(answer.headers().location).toBe(`${OPS_URL}/ops/doklady/${tool}?order=2026000123`);
      // Anything else of the query stays behind.
      expect((await request.get(`/${tool}?order=x<script>`, { maxRedirects: 0 })).headers().location).toBe(
        `${OPS_URL}/ops/doklady/${tool}`,
      );
    }
    // Someone who is not signed in meets the console's sign-in there, and nothing of the shop (no consent notice, no analytics).
    await page.goto('/pdf?order=2026000123');
    expect(page.url()).toBe(`${OPS_URL}/ops/doklady/pdf?order=2026000123`);
    await expect(page.getByRole('heading', { level: 1, name: 'Prihlásenie operátora' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Prijať všetko' })).toHaveCount(0);
  },
);

test('the operator previews the e-mail and marks a bank-transfer order paid in the console, each in the audit log', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const [v] = await findVariants(request, 1);
  await fillBasket(page, request, [{ v_id: v!.v_id, amount: 1 }]);
  await checkOut(page, { email: `prevod-${Date.now().toString(36)}@example.sk`, shipping: /Osobný odber/, payment: /Bankovým prevodom/ });
  await expect(page.getByTestId('payment-status')).toHaveText('čaká na úhradu');
  const number = (await page.getByTestId('order-number').textContent())!.trim();
  const thankYou = page.url();

  const operator = createOperator();
  const opsPage = await page.context().newPage();
  await signInFirstTime(opsPage, operator);
  // The link the shop's /paid gives: the tool with the order filled in.
  await opsPage.goto(`http://localhost:${new URL(thankYou).port}/paid?order=${number}`);
  await expect(opsPage.getByLabel('Číslo objednávky')).toHaveValue(number);
  await opsPage.getByRole('button', { name: 'Označiť ako zaplatenú' }).click();
  await expect(opsPage.getByRole('status')).toHaveText('Objednávka je označená ako zaplatená.');

  await opsPage.getByRole('link', { name: 'Náhľad potvrdzujúceho e-mailu' }).click();
  await opsPage.getByRole('button', { name: 'Zobraziť e-mail' }).click();
  await expect(opsPage.getByRole('status')).toContainText(`Potvrdenie objednávky č. ${number}`);
  // The message's text, shown as text (no frame of its HTML under the console's policy).
  await expect(opsPage.getByTestId('email-preview')).toContainText(number);

  await opsPage.getByRole('link', { name: 'Vydania' }).click();
  await expect(opsPage.getByTestId('ops-audit')).toContainText(`${operator.name} · prevod označený ako zaplatený · objednávka ${number}`);
  await expect(opsPage.getByTestId('ops-audit')).toContainText(`${operator.name} · náhľad potvrdenia · objednávka ${number}`);

  await page.goto(thankYou);
  await expect(page.getByTestId('payment-status')).toHaveText('zaplatená');
});
