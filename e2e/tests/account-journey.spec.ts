import { expect, expectPageErrors, failedLoad, test } from './fixtures.ts';
import { fillBasket, findVariants, moveOrder, outboxMails } from './checkout-helpers.ts';

test.describe.configure({ timeout: 150_000 });

const unique = () => `ucet-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.sk`;
/** Enough of quoted-printable decoding to read an .eml body. */
const decodeQuotedPrintable = (mail: string) =>
  Buffer.from(
    mail.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** A tiny PNG (1×1), recognised by its first bytes. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

test('a guest is sent to sign in and comes back; sign-up, address, checkout prefilled, orders, invoice, complaint, withdrawal, sign-out', async ({
  page,
  request,
}) => {
  const email = unique();

  // A guest opening /account/orders is sent to sign in, signs up on the way, and comes back.
  await page.goto('/account/orders');
  await expect(page).toHaveURL(/\/account\/login\?next=%2Faccount%2Forders$/);
  await page.getByRole('link', { name: 'Vytvoriť nový účet' }).click();
  await expect(page).toHaveURL(/\/account\/register\?next=%2Faccount%2Forders$/);
  await page.getByLabel('Meno a priezvisko', { exact: true }).fill('Jana Testovacia');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Heslo', { exact: true }).fill('kratke');
  await page.getByRole('button', { name: 'Zaregistrovať sa' }).click();
  await expect(page.getByText('Heslo musí mať aspoň 8 znakov')).toBeVisible();
  await page.getByLabel('Heslo', { exact: true }).fill('MojeHeslo42');
  await page.getByLabel('Heslo znova').fill('MojeHeslo42');
  await page.getByRole('button', { name: 'Zaregistrovať sa' }).click();
  await expect(page.getByRole('status')).toContainText('Prihláste sa');
  await page.getByRole('link', { name: 'Prihlásiť sa' }).last().click();
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(email);
  await page.getByLabel('Heslo', { exact: true }).fill('MojeHeslo42');
  await page.getByRole('button', { name: 'Prihlásiť sa' }).click();
  await expect(page).toHaveURL(/\/account\/orders$/);
  await expect(page.getByText('Zatiaľ nemáte žiadne objednávky.')).toBeVisible();

  // A default billing address.
  await page.getByRole('navigation', { name: 'Môj účet' }).getByRole('link', { name: 'Adresy' }).click();
  await page.getByRole('button', { name: 'Pridať fakturačnú adresu' }).click();
  await page.getByLabel('Meno a priezvisko', { exact: true }).fill('Jana Testovacia');
  await page.getByLabel('Ulica a číslo', { exact: true }).fill('Dlhá 12');
  await page.getByLabel('Mesto', { exact: true }).fill('Nitra');
  await page.getByLabel('PSČ', { exact: true }).fill('12');
  await page.getByRole('button', { name: 'Uložiť adresu' }).click();
  await expect(page.getByText('PSČ má 5 číslic, napr. 010 01.')).toBeVisible();
  await page.getByLabel('PSČ', { exact: true }).fill('949 01');
  await page.getByRole('button', { name: 'Uložiť adresu' }).click();
  await expect(page.getByRole('status')).toHaveText('Adresa je pridaná.');
  await expect(page.getByTestId('address')).toContainText('Dlhá 12');
  await expect(page.getByTestId('address')).toContainText('Predvolená');

  // Checkout: the contact step is prefilled from the account.
  const [a, b] = await findVariants(request, 2);
  await fillBasket(page, request, [
    { v_id: a!.v_id, amount: 2 },
    { v_id: b!.v_id, amount: 1 },
  ]);
  await page.getByRole('link', { name: 'Pokračovať k údajom' }).click();
  await expect(page.getByLabel('Ulica a číslo', { exact: true })).toHaveValue('Dlhá 12');
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(email);
  await expect(page.getByLabel('Meno a priezvisko', { exact: true })).toHaveValue('Jana Testovacia');
  await expect(page.getByLabel('PSČ', { exact: true })).toHaveValue('94901');
  await page.getByLabel('Telefón', { exact: true }).fill('0905 123 456');
  await page.getByRole('button', { name: 'Pokračovať k doprave a platbe' }).click();
  await page.getByRole('radio', { name: /Kuriér/ }).check();
  await page.getByRole('radio', { name: /Na dobierku/ }).check();
  await page.getByLabel(/Súhlasím s/).check();
  await page.getByRole('button', { name: 'Objednať s povinnosťou platby' }).click();
  await expect(page).toHaveURL(/\/checkout\/thankyou\/[A-Za-z0-9]{32}$/);
  const number = (await page.getByTestId('order-number').textContent())!.trim();

  // The order in the list and its detail.
  await page.goto('/account/orders');
  const row = page.getByTestId('account-order').filter({ hasText: number });
  await expect(row).toContainText('Prijatá');
  await row.getByRole('link', { name: `Objednávka č. ${number}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Objednávka č. ${number}` })).toBeVisible();
  await expect(page.getByTestId('order-line')).toHaveCount(2);
  await expect(page.getByTestId('order-state')).toHaveText('Prijatá');
  await expect(page.getByTestId('payment-state')).toContainText('Platba pri prevzatí');
  await expect(page.getByText('Od zmluvy môžete odstúpiť po doručení objednávky.')).toBeVisible();

  // The invoice PDF.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Stiahnuť faktúru (PDF)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`faktura-${number}.pdf`);

  // The operator ships and delivers it; the history shows every step.
  await moveOrder(request, number, 'shipped');
  await moveOrder(request, number, 'delivered');
  await page.reload();
  await expect(page.getByTestId('order-state')).toHaveText('Doručená');
  await expect(page.getByTestId('order-history').getByRole('listitem')).toHaveCount(3);

  // A complaint with a photo for the first line.
  await page.getByTestId('order-line').first().getByRole('link', { name: 'Reklamovať' }).click();
  await expect(page).toHaveURL(/\/account\/complaints\?order=/);
  await page.getByLabel('Dôvod reklamácie').selectOption('damaged');
  await page.getByLabel('Popis vady').fill('Vrece prišlo roztrhnuté, časť obsahu chýba.');
  await page.getByLabel('Fotografie (nepovinné)').setInputFiles({ name: 'vrece.png', mimeType: 'image/png', buffer: PNG });
  await page.getByRole('button', { name: 'Odoslať reklamáciu' }).click();
  await expect(page.getByRole('status')).toContainText('Reklamáciu sme prijali');
  const complaint = page.getByTestId('complaint');
  await expect(complaint).toHaveCount(1);
  await expect(complaint.getByTestId('complaint-state')).toHaveText('Prijatá');
  await expect(complaint).toContainText('vybavíme najneskôr do');
  await expect(complaint.getByRole('img', { name: 'Fotografia k reklamácii' })).toBeVisible();

  // Withdrawal from the second line, with a confirmation step and an acknowledgement e-mail.
  await complaint.getByRole('link', { name: `č. ${number}` }).click();
  await page.getByRole('button', { name: 'Odstúpiť od zmluvy…' }).click();
  await page.getByRole('checkbox', { name: new RegExp(b!.p_name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).check();
  await page.getByRole('button', { name: 'Pokračovať' }).click();
  await expect(page.getByRole('group', { name: 'Potvrdenie odstúpenia' })).toContainText(b!.p_name);
  await page.getByRole('button', { name: 'Potvrdiť odstúpenie od zmluvy' }).click();
  await expect(page.getByRole('status')).toContainText('Odstúpenie od zmluvy sme prijali');
  await expect(page.getByTestId('order-line').nth(1)).toContainText('Odstúpené');
  await expect
    .poll(
      () =>
        outboxMails(number)
          .map(decodeQuotedPrintable)
          .filter((m) => m.includes('prijali vaše odstúpenie od zmluvy')).length,
    )
    .toBe(1);

  // Sign out: the header offers sign-in again, the session is gone.
  await page.getByRole('navigation', { name: 'Môj účet' }).getByRole('link', { name: 'Profil' }).click();
  await page.getByRole('button', { name: 'Odhlásiť sa' }).click();
  await expect(page.getByRole('link', { name: 'Prihlásiť sa' }).first()).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('auth'))).toBeNull();
  // The page signs out at once; the server's answer to the sign-out, a moment later, takes the cookie away.
  await expect.poll(async () => (await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('shop_session');
});

test('an expired session: the 401 signs the shopper out cleanly, keeps the basket, and sign-in leads back', async ({ page, request }) => {
  const [v] = await findVariants(request, 1);
  await fillBasket(page, request, [{ v_id: v!.v_id, amount: 3 }]);
  // A session cookie the server does not accept any more (here: signed by someone else), as after
  // a sign-out elsewhere; the page still thinks it is signed in.
  const stale = `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ user_id: 1, exp: 4_000_000_000 })).toString('base64url')}.x`;
  await page
    .context()
    .addCookies([{ name: 'shop_session', value: stale, domain: 'localhost', path: '/api', httpOnly: true, sameSite: 'Lax' }]);
  await page.evaluate(() =>
    localStorage.setItem(
      'auth',
      JSON.stringify({ auth: 1, user: { id: 1, name: 'Ján Novák', email: 'zakaznik@example.sk' }, expiresAt: Date.now() + 3_600_000 }),
    ),
  );
  expectPageErrors(page, failedLoad(401, '/api/'), 'the stale session cookie is refused with a 401: the sign-out this test checks');
  await page.goto('/account/orders?page=1');
  await expect(page).toHaveURL(/\/account\/login\?next=%2Faccount%2Forders%3Fpage%3D1$/);
  expect(await page.evaluate(() => localStorage.getItem('auth'))).toBeNull();
  // The 401 also took the dead cookie away.
  expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('shop_session');
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('cartData') ?? '{"value":[]}').value.length)).toBe(1);
  await page.getByLabel('E-mail', { exact: true }).fill('zakaznik@example.sk');
  await page.getByLabel('Heslo', { exact: true }).fill('Heslo123!');
  await page.getByRole('button', { name: 'Prihlásiť sa' }).click();
  await expect(page).toHaveURL(/\/account\/orders\?page=1$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Moje objednávky' })).toBeVisible();
});
