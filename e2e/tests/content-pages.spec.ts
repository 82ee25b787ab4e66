import { expect, test } from './fixtures.ts';
import { fillBasket, fillContact, findVariants, outboxMails, signIn } from './checkout-helpers.ts';

test('the footer links reach every static page', async ({ page }) => {
  await page.goto('/');
  const footer = page.locator('footer');
  const links = footer.locator('.site-footer__links a');
  await expect(links.first()).toBeVisible();
  const targets = await links.evaluateAll((anchors) => anchors.map((a) => [a.textContent!.trim(), a.getAttribute('href')!] as const));
  expect(targets.map(([, href]) => href)).toEqual(
    expect.arrayContaining([
      '/s/kontakt',
      '/s/obchodne-podmienky',
      '/s/reklamacny-poriadok',
      '/s/ochrana-sukromia',
      '/s/vernostny-program',
    ]),
  );
  for (const [, href] of targets) {
    await page.goto('/');
    await page.locator(`footer a[href="${href}"]`).click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Ospravedlňujeme sa, táto stránka neexistuje' })).toHaveCount(0);
  }
});

test('the blog pages by 15, a tag filter pages correctly, and a post opens at its stable URL', async ({ page }) => {
  await page.goto('/blog');
  await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
  await expect(page.getByTestId('post-card')).toHaveCount(15);

  const tags = page.getByRole('navigation', { name: 'Témy blogu' });
  await tags.getByRole('link', { name: /Návody/ }).click();
  await expect(page).toHaveURL(/\/blog\/navody$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Blog: Návody' })).toBeVisible();
  const count = Number((await tags.getByRole('link', { name: /Návody/ }).textContent())!.match(/\((\d+)\)/)![1]);
  expect(count).toBeGreaterThan(15);
  await expect(page.getByTestId('post-card')).toHaveCount(15);
  const firstPageTitles = await page.getByTestId('post-card').getByRole('heading').allTextContents();

  await page.getByRole('navigation', { name: 'Stránkovanie' }).getByRole('link', { name: 'Strana 2' }).click();
  await expect(page).toHaveURL(/\/blog\/navody\?page=2$/);
  await expect(page.getByTestId('post-card')).toHaveCount(count - 15);
  for (const card of await page.getByTestId('post-card').all()) {
    await expect(card).toContainText('Návody');
    expect(firstPageTitles).not.toContain((await card.getByRole('heading').textContent())!);
  }
  expect(await page.locator('head link[rel="prev"]').getAttribute('href')).toMatch(/\/blog\/navody$/);

  await page.goto('/blog/navody?page=9');
  await expect(page).toHaveURL(/\/blog\/navody$/);

  await page.getByTestId('post-card').first().getByRole('link').first().click();
  await expect(page).toHaveURL(/\/blog\/clanok\//);
  const jsonLd = await page.locator('script[type="application/ld+json"][data-json-ld="blog-post"]').textContent();
  expect(JSON.parse(jsonLd!)).toMatchObject({ '@type': 'BlogPosting' });
});

test('the shipping and payment page shows exactly the prices the checkout offers', async ({ page, request }) => {
  test.setTimeout(60_000);
  const [variant] = await findVariants(request, 1, 2_000);
  await fillBasket(page, request, [{ v_id: variant!.v_id, amount: 1 }]);
  await page.getByRole('link', { name: 'Pokračovať k údajom' }).click();
  await fillContact(page, 'doprava@example.sk');
  await page.getByRole('button', { name: 'Pokračovať k doprave a platbe' }).click();
  await expect(page).toHaveURL(/\/checkout\/order$/);
  const offered = async (code: string) => {
    const price = page.locator(`label:has(input[value="${code}"]) .chk-method__price`);
    await expect(price).toBeVisible();
    return (await price.textContent())!.trim();
  };
  const courier = await offered('courier');
  const pickup = await offered('pickup');
  await page.getByRole('radio', { name: /Kuriér/ }).check();
  const cod = await offered('cod');

  await page.goto('/doprava-a-platba');
  await expect(page.getByRole('heading', { level: 1, name: 'Doprava a platba' })).toBeVisible();
  // The order weighs at most 2 kg: the lightest courier band applies.
  await expect(page.getByTestId('shipping-courier').locator('tbody tr').first().locator('td').nth(1)).toHaveText(courier);
  await expect(page.getByTestId('price-pickup')).toHaveText(pickup);
  await expect(page.getByTestId('payment-price-cod')).toHaveText(cod);
  await expect(page.getByTestId('shipping-courier')).toContainText('Pri nákupe tovaru od 150 € zadarmo.');
  await expect(page.getByTestId('payment-cash')).toContainText('Len pri doprave: Osobný odber na predajni v Žiline.');
});

test('the contact page shows the hours by the header rule, validates, and the message lands in the outbox', async ({ page }) => {
  await page.goto('/s/kontakt');
  await expect(page.getByRole('heading', { level: 1, name: 'Kontakt' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Otváracie hodiny' })).toContainText(
    (await page.getByTestId('opening-hours').textContent())!,
  );
  const organization = JSON.parse((await page.locator('script[data-json-ld="organization"]').textContent())!);
  expect(organization).toMatchObject({ '@type': 'HardwareStore', name: 'Stavebniny Domov' });

  const form = page.getByRole('form', { name: 'Napíšte nám' });
  await form.getByRole('button', { name: 'Odoslať správu' }).click();
  await expect(form.getByText('Zadajte svoje meno.')).toBeVisible();
  await expect(form.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true');

  const marker = `Ponuka ${Date.now()}`;
  await form.getByLabel('Meno a priezvisko').fill('Peter Murár');
  await form.getByLabel('E-mail').fill('peter.murar@example.sk');
  await form.getByLabel('Správa').fill(`${marker}: potrebujem 3 palety tehál Porotherm 30.`);
  await form.getByRole('button', { name: 'Odoslať správu' }).click();
  await expect(page.getByRole('status')).toHaveText('Ďakujeme, správu sme prijali. Ozveme sa vám najneskôr nasledujúci pracovný deň.');
  await expect.poll(() => outboxMails(marker).length).toBe(1);
  expect(outboxMails(marker)[0]).toContain('Reply-To: peter.murar@example.sk');
});

test('the loyalty page shows a signed-in customer their points', async ({ page, request }) => {
  await page.goto('/s/vernostny-program');
  await expect(page.getByRole('link', { name: 'Prihláste sa' })).toBeVisible();
  await signIn(page, request);
  await page.goto('/s/vernostny-program');
  await expect(page.getByTestId('loyalty-points')).toContainText(/Máte \d+ bodov/);
});
