import { expect, test } from './fixtures.ts';
import { cents } from './helpers.ts';
import { checkOut, fillBasket, fillContact, findVariants, outboxMails, signIn } from './checkout-helpers.ts';

test.describe.configure({ timeout: 90_000 });

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.sk`;

test('a guest buys two products with cash on delivery, sees the thank-you page, and the e-mail is in the outbox', async ({
  page,
  request,
}) => {
  const [a, b] = await findVariants(request, 2);
  await fillBasket(page, request, [
    { v_id: a!.v_id, amount: 2 },
    { v_id: b!.v_id, amount: 1 },
  ]);
  await expect(page.getByTestId('basket-line')).toHaveCount(2);
  await expect(page.getByTestId('shipping-estimate')).not.toHaveText('—');
  await page.getByRole('link', { name: 'Pokračovať k údajom' }).click();
  await expect(page).toHaveURL(/\/checkout\/contact$/);

  // A Slovak message per field, then the form is kept when going back and forth.
  await page.getByRole('button', { name: 'Pokračovať k doprave a platbe' }).click();
  await expect(page.getByText('PSČ má 5 číslic, napr. 010 01.')).toBeVisible();
  const email = unique('host');
  await fillContact(page, email);
  await page.getByLabel('PSČ', { exact: true }).fill('0100');
  await page.getByRole('button', { name: 'Pokračovať k doprave a platbe' }).click();
  await expect(page.getByText('PSČ má 5 číslic, napr. 010 01.')).toBeVisible();
  await page.getByLabel('PSČ', { exact: true }).fill('010 01');
  await page.getByRole('button', { name: 'Pokračovať k doprave a platbe' }).click();
  await expect(page).toHaveURL(/\/checkout\/order$/);
  await page.getByRole('link', { name: 'Upraviť údaje' }).click();
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(email);
  await page.getByRole('button', { name: 'Pokračovať k doprave a platbe' }).click();

  await page.getByRole('radio', { name: /Kuriér/ }).check();
  await page.getByRole('radio', { name: /Na dobierku/ }).check();
  await expect(page.getByRole('link', { name: 'obchodnými podmienkami' })).toHaveAttribute('href', '/s/obchodne-podmienky');
  await expect(page.getByRole('link', { name: 'reklamačným poriadkom' })).toHaveAttribute('href', '/s/reklamacny-poriadok');
  // Cash: the amount due is the total rounded to 0.05 €.
  await expect(page.getByTestId('order-total')).toBeVisible();
  const total = cents((await page.getByTestId('order-total').textContent())!);
  const due = (await page.getByTestId('amount-due').count()) > 0 ? cents((await page.getByTestId('amount-due').textContent())!) : total;
  expect(due % 5).toBe(0);
  expect(Math.abs(due - total)).toBeLessThanOrEqual(2);

  await page.getByRole('button', { name: 'Objednať s povinnosťou platby' }).click();
  await expect(page.getByRole('alert')).toContainText('obchodnými podmienkami');
  await page.getByLabel(/Súhlasím s/).check();
  await page.getByRole('button', { name: 'Objednať s povinnosťou platby' }).click();

  await expect(page).toHaveURL(/\/checkout\/thankyou\/[A-Za-z0-9]{32}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Ďakujeme za objednávku' })).toBeVisible();
  const number = (await page.getByTestId('order-number').textContent())!.trim();
  expect(number).toMatch(/^\d{10}$/);
  await expect(page.getByTestId('order-line')).toHaveCount(2);
  await expect(page.getByTestId('payment-status')).toHaveText('platíte pri prevzatí');
  // The basket is empty after the order.
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('cartData') ?? '{"value":[]}').value.length)).toBe(0);
  await expect.poll(() => outboxMails(number).length).toBe(1);
  expect(outboxMails(number)[0]).toContain(`To: ${email}`);
});

test('a signed-in shopper applies a coupon, changes an amount (re-validated), pays by card and lands on success', async ({
  page,
  request,
}) => {
  const [v] = await findVariants(request, 1);
  const unit = Math.round((v!.v_sellPrice * (100 + v!.v_vat) * (100_000 - v!.v_sale)) / 10_000_000 / 10);
  const amount = Math.max(2, Math.ceil(6_000 / unit)); // over 50 € (ZLAVA10's minimum)
  await signIn(page, request);
  await fillBasket(page, request, [{ v_id: v!.v_id, amount }]);

  await page.getByLabel('Zľavový kupón').fill('');
  await page.getByRole('button', { name: 'Uplatniť' }).click();
  await expect(page.getByRole('alert')).toHaveText('Kód je prázdny');
  await page.getByLabel('Zľavový kupón').fill('ZLAVA10');
  await page.getByRole('button', { name: 'Uplatniť' }).click();
  await expect(page.getByText(/Kupón ZLAVA10 je uplatnený/)).toBeVisible();
  const subtotal = cents((await page.getByTestId('subtotal').textContent())!);
  await expect(page.getByTestId('discount')).toHaveText(/−/);
  expect(cents((await page.getByTestId('discount').textContent())!.replace('−', ''))).toBe(Math.round(subtotal / 10));

  // Changing the amount re-validates the coupon: the discount follows the new subtotal.
  const revalidated = page.waitForResponse((res) => res.url().endsWith('/api/coupon/validate') && res.ok());
  await page.getByRole('button', { name: `Zvýšiť množstvo ${v!.p_name}` }).click();
  await revalidated;
  await expect.poll(async () => cents((await page.getByTestId('subtotal').textContent())!)).toBe(subtotal + unit);
  await expect
    .poll(async () => cents((await page.getByTestId('discount').textContent())!.replace('−', '')))
    .toBe(Math.round((subtotal + unit) / 10));

  await page.getByRole('link', { name: 'Pokračovať k údajom' }).click();
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue('zakaznik@example.sk');
  await expect(page.getByLabel('Meno a priezvisko', { exact: true })).toHaveValue('Ján Novák');
  await fillContact(page, 'zakaznik@example.sk', true);
  await page.getByRole('button', { name: 'Pokračovať k doprave a platbe' }).click();
  await page.getByRole('radio', { name: /Osobný odber/ }).check();
  await page.getByRole('radio', { name: /Platobnou kartou/ }).check();
  await expect(page.getByTestId('order-discount')).toBeVisible();
  await page.getByLabel(/Súhlasím s/).check();
  await page.getByRole('button', { name: 'Objednať s povinnosťou platby' }).click();

  // The gateway's page, then back through /payment/pending to /payment/success.
  await expect(page.getByRole('heading', { name: 'Platobná brána (simulátor)' })).toBeVisible();
  await page.getByRole('button', { name: 'Zaplatiť' }).click();
  await expect(page).toHaveURL(/\/payment\/success\?order=[A-Za-z0-9]{32}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Platba prebehla úspešne' })).toBeVisible();
  await expect(page.getByTestId('order-number')).toHaveText(/^\d{10}$/);
});

test('a cancelled card payment lands on cancelled and can be paid again', async ({ page, request }) => {
  const [v] = await findVariants(request, 1);
  await fillBasket(page, request, [{ v_id: v!.v_id, amount: 1 }]);
  await page.getByRole('link', { name: 'Pokračovať k údajom' }).click();
  await fillContact(page, unique('zrusena'));
  await page.getByRole('button', { name: 'Pokračovať k doprave a platbe' }).click();
  await page.getByRole('radio', { name: /Osobný odber/ }).check();
  await page.getByRole('radio', { name: /Platobnou kartou/ }).check();
  await page.getByLabel(/Súhlasím s/).check();
  await page.getByRole('button', { name: 'Objednať s povinnosťou platby' }).click();

  await page.getByRole('button', { name: 'Zrušiť platbu' }).click();
  await expect(page).toHaveURL(/\/payment\/cancelled\?order=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Platba bola zrušená' })).toBeVisible();
  // The page says what happens next, not one sentence.
  await expect(page.getByText(/Platbu kartou môžete skúsiť znova\. Objednávka zostane uložená/)).toBeVisible();
  await page.getByRole('button', { name: 'Zaplatiť kartou znova' }).click();
  await expect(page.getByRole('heading', { name: 'Platobná brána (simulátor)' })).toBeVisible();
  await page.getByRole('button', { name: 'Zaplatiť' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Platba prebehla úspešne' })).toBeVisible();
  await expect(page.getByText(/Potvrdenie sme poslali na e-mail/)).toBeVisible();
  await page.getByRole('link', { name: 'Zobraziť objednávku' }).click();
  await expect(page.getByTestId('payment-status')).toHaveText('zaplatená');
});

test('an empty basket on /checkout/order and /checkout/contact redirects to the basket', async ({ page }) => {
  await page.goto('/checkout/order');
  await expect(page).toHaveURL(/\/checkout\/cart$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Košík je prázdny' })).toBeVisible();
  await page.goto('/checkout/contact');
  await expect(page).toHaveURL(/\/checkout\/cart$/);
});

// Seen on a phone under load: the redirect to the contact step threw in the browser (the page error
// guard fails the test on it). A slowed-down processor makes the race between the order page's own
// loads and its redirect likely; the test opens the step several times.
test('a basket without contact details on /checkout/order goes to the contact step, on a phone, without a page error', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const [v] = await findVariants(request, 1);
  await fillBasket(page, request, [{ v_id: v!.v_id, amount: 2 }]);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  try {
    for (let load = 0; load < 5; load += 1) {
      await page.goto('/checkout/order');
      await expect(page).toHaveURL(/\/checkout\/contact$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Kontaktné údaje' })).toBeVisible();
    }
    // And from the basket through the shop's own navigation, as a shopper with a bookmark would not.
    await page.goto('/checkout/cart');
    await page.evaluate(() => {
      history.pushState(null, '', '/checkout/order');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page).toHaveURL(/\/checkout\/contact$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Kontaktné údaje' })).toBeVisible();
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  }
});

test('the thank-you page shows the order the placing call answered, without asking for it; a reload asks', async ({ page, request }) => {
  const [v] = await findVariants(request, 1);
  await fillBasket(page, request, [{ v_id: v!.v_id, amount: 3 }]);
  const reads: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'GET' && /^\/api\/orders\/[A-Za-z0-9]{32}$/.test(new URL(req.url()).pathname)) reads.push(req.url());
  });
  await checkOut(page, { email: unique('odovzdanie'), shipping: /Kuriér/, payment: /Bankovým prevodom/ });
  await expect(page.getByRole('heading', { level: 1, name: 'Ďakujeme za objednávku' })).toBeVisible();
  const number = (await page.getByTestId('order-number').textContent())!.trim();
  expect(number).toMatch(/^\d{10}$/);
  await expect(page.getByRole('img', { name: 'QR kód PAY by square' })).toBeVisible();
  await expect(page.getByTestId('order-line')).toHaveCount(1);
  expect(reads).toEqual([]);

  // A reload (or a link from the e-mail) has no placing call to take it from: it asks the API once.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Ďakujeme za objednávku' })).toBeVisible();
  await expect(page.getByTestId('order-number')).toHaveText(number);
  await expect(page.getByRole('img', { name: 'QR kód PAY by square' })).toBeVisible();
  expect(reads).toHaveLength(1);
});

test('a double click on the order button makes one order', async ({ page, request }) => {
  const [v] = await findVariants(request, 1);
  await fillBasket(page, request, [{ v_id: v!.v_id, amount: 1 }]);
  await page.getByRole('link', { name: 'Pokračovať k údajom' }).click();
  const email = unique('dvojklik');
  await fillContact(page, email);
  await page.getByRole('button', { name: 'Pokračovať k doprave a platbe' }).click();
  await page.getByRole('radio', { name: /Kuriér/ }).check();
  await page.getByRole('radio', { name: /Bankovým prevodom/ }).check();
  await page.getByLabel(/Súhlasím s/).check();
  const placing: Promise<unknown>[] = [];
  page.on('request', (req) => {
    if (req.url().endsWith('/api/orders') && req.method() === 'POST') placing.push(req.response());
  });
  await page.getByRole('button', { name: 'Objednať s povinnosťou platby' }).dblclick();
  await expect(page).toHaveURL(/\/checkout\/thankyou\/[A-Za-z0-9]{32}$/);
  await Promise.all(placing);
  const number = (await page.getByTestId('order-number').textContent())!.trim();
  // PAY by square for the transfer
  await expect(page.getByRole('img', { name: 'QR kód PAY by square' })).toBeVisible();
  await expect.poll(() => outboxMails(email).length).toBe(1);
  expect(outboxMails(email)[0]).toContain(number);
});
