import { expect, test } from './fixtures.ts';

test('a customer signs in with the seeded account, sees the profile, and signs out', async ({ page }) => {
  await page.goto('/account/profile');
  await expect(page).toHaveURL(/\/account\/login\?next=%2Faccount%2Fprofile$/);

  await page.getByLabel('E-mail').fill('zakaznik@example.sk');
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
  const auth = await page.evaluate(() => localStorage.getItem('auth'));
  expect(auth === null || auth.includes('{}') || !auth.includes('token')).toBe(true);
});
