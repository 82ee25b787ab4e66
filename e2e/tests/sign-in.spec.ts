import { expect, expectPageErrors, failedLoad, test } from './fixtures.ts';
import { outboxMails, signIn } from './checkout-helpers.ts';

test('a customer signs in with the seeded account, sees the profile, and signs out', async ({ page }) => {
  await page.goto('/account/profile');
  await expect(page).toHaveURL(/\/account\/login\?next=%2Faccount%2Fprofile$/);

  await page.getByLabel('E-mail').fill('zakaznik@example.sk');
  expectPageErrors(page, failedLoad(401, '/api/account/login'), 'a wrong password is refused on purpose');
  await page.getByLabel('Heslo').fill('nesprávne');
  await page.getByRole('button', { name: 'Prihlásiť sa' }).click();
  await expect(page.getByRole('alert')).toHaveText('Nesprávny e-mail alebo heslo.');

  await page.getByLabel('Heslo').fill('Heslo123!');
  await page.getByRole('button', { name: 'Prihlásiť sa' }).click();
  await expect(page).toHaveURL(/\/account\/profile$/);
  await expect(page.getByText('zakaznik@example.sk')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Môj účet' })).toBeVisible();

  await page.getByRole('button', { name: 'Odhlásiť sa' }).click();
  await expect(page.getByRole('link', { name: 'Prihlásiť sa' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('auth'))).toBeNull();
  // The page signs out at once; the server's answer to the sign-out, a moment later, takes the cookie away.
  await expect.poll(async () => (await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('shop_session');
});

test('a sign-out the server never heard is sent again at the next page: the session does not outlive it', async ({ page, request }) => {
  await signIn(page, request);
  await page.goto('/account/profile');
  await expect(page.getByText('zakaznik@example.sk')).toBeVisible();
  const cookieNames = async () => (await page.context().cookies()).map((cookie) => cookie.name);
  const session = (await page.context().cookies()).find((cookie) => cookie.name === 'shop_session')!.value;

  // The sign-out call never reaches the server (the line drops): the page signs out all the same.
  await page.route('**/api/account/logout', (route) => route.abort('internetdisconnected'));
  expectPageErrors(page, /ERR_INTERNET_DISCONNECTED/, 'the sign-out call is cut off on purpose');
  await page.getByRole('button', { name: 'Odhlásiť sa' }).click();
  await expect(page.getByRole('link', { name: 'Prihlásiť sa' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('shop:logout-pending'))).toBe('1');
  expect(await cookieNames()).toContain('shop_session');

  // The next page this browser opens sends it again; the server revokes the session and clears its cookie.
  await page.unroute('**/api/account/logout');
  await page.goto('/');
  await expect.poll(cookieNames).not.toContain('shop_session');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('shop:logout-pending'))).toBeNull();
  const me = await fetch(new URL('/api/account/me', page.url()), { headers: { cookie: `shop_session=${session}` } });
  expect(me.status).toBe(401);
});

test('the session is an HttpOnly cookie: no web storage and no script sees the token, and account pages survive a reload', async ({
  page,
}) => {
  await page.goto('/account/login?next=%2Faccount%2Forders');
  await page.getByLabel('E-mail').fill('zakaznik@example.sk');
  await page.getByLabel('Heslo').fill('Heslo123!');
  await page.getByRole('button', { name: 'Prihlásiť sa' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Moje objednávky' })).toBeVisible();

  const session = (await page.context().cookies()).find((cookie) => cookie.name === 'shop_session');
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api' });
  const token = session!.value;
  const [header, payload] = token.split('.');
  expect(payload?.length).toBeGreaterThan(10);
  const seen = await page.evaluate(() => ({
    storage: JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    cookie: document.cookie,
  }));
  for (const part of [token, `${header}.${payload}`, payload!]) {
    expect(seen.storage).not.toContain(part);
    expect(seen.cookie).not.toContain(part);
  }
  expect(seen.cookie).not.toContain('shop_session');
  // What the page keeps is who is signed in, for the header.
  expect(JSON.parse(await page.evaluate(() => localStorage.getItem('auth') ?? 'null'))).toMatchObject({
    auth: 1,
    user: { email: 'zakaznik@example.sk' },
  });

  // A reload: the account pages still load the shopper's data, by the cookie alone.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Moje objednávky' })).toBeVisible();
  await expect(page).toHaveURL(/\/account\/orders$/);
  await page.goto('/account/profile');
  await expect(page.getByText('zakaznik@example.sk')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Môj účet' })).toBeVisible();
});

test('a customer changes the sign-in e-mail: nothing changes until the link sent to the new address is opened', async ({
  page,
  request,
}) => {
  const stamp = Date.now();
  const [oldEmail, newEmail] = [`stary-${stamp}@example.sk`, `novy-${stamp}@example.sk`];
  expect(
    (await request.post('/api/account/register', { data: { email: oldEmail, password: 'Heslo123!', name: 'Eva Zmenová' } })).status(),
  ).toBe(202);
  await signIn(page, request, oldEmail, 'Heslo123!');
  await page.goto('/account/profile');
  await page.locator('#profile-email').fill(newEmail);
  await page.getByLabel('Súčasné heslo (na zmenu e-mailu)').fill('Heslo123!');
  await page.getByRole('button', { name: 'Uložiť' }).first().click();
  await expect(page.getByRole('status')).toContainText(`Na adresu ${newEmail} sme poslali odkaz`);
  await expect(page.getByText(`(čaká na potvrdenie: ${newEmail})`)).toBeVisible();

  await expect.poll(() => outboxMails(newEmail).length).toBe(1);
  const mail = outboxMails(newEmail)[0]!
    .replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=');
  const token = /emailToken=([\w-]+)/.exec(mail)![1]!;
  await page.goto(`/account/profile?emailToken=${token}`);
  await expect(page.getByRole('status')).toContainText(`Nový e-mail ${newEmail} je potvrdený.`);
  await expect(page).toHaveURL(/\/account\/profile$/);
  expect((await request.post('/api/account/login', { data: { email: newEmail, password: 'Heslo123!' } })).status()).toBe(200);
  expect((await request.post('/api/account/login', { data: { email: oldEmail, password: 'Heslo123!' } })).status()).toBe(401);
});
