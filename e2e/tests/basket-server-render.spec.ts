import { expect, test } from './fixtures.ts';
import { findVariants } from './checkout-helpers.ts';
import { SHOP_PORT } from '../playwright.config.ts';

/**
 * The basket page comes with the shopper's lines in its HTML: the kernel mirrors the basket's ids
 * and amounts into a cookie sent only to that page, and the server renders them. The shopper reads
 * the basket and can go on from the first paint (before any script, the continue button is a plain
 * link); the amounts become editable once the page has hydrated. The page is that shopper's alone.
 */
const shopOrigin = `http://localhost:${SHOP_PORT}`;

test("the basket page's HTML carries the shopper's lines, private to that browser, and works before its scripts", async ({
  browser,
  page,
  request,
}) => {
  const [variant] = await findVariants(request, 1);
  // A shopper puts a product into the basket on its page.
  await page.goto(`/p/${variant!.p_url}`);
  await page.getByRole('button', { name: 'Pridať do košíka' }).click();
  await page.waitForFunction(() => localStorage.getItem('cartData')?.includes('v_id'));
  const added = await page.evaluate(
    () => (JSON.parse(localStorage.getItem('cartData')!) as { value: { v_id: number; variantData: { p_name: string } }[] }).value[0]!,
  );
  const cookies = (await page.context().cookies(`${shopOrigin}/checkout/cart`)).filter((cookie) => cookie.name === 'shop_basket');
  expect(cookies.map(({ value, path }) => ({ value, path }))).toEqual([{ value: `${added.v_id}x1`, path: '/checkout/cart' }]);
  // No other page gets it.
  expect((await page.context().cookies(`${shopOrigin}/`)).some((cookie) => cookie.name === 'shop_basket')).toBe(false);

  // The page's HTML, as this browser gets it: the line is there, and no shared cache may keep it.
  const answer = await page.context().request.get('/checkout/cart');
  expect(answer.headers()['cache-control']).toMatch(/^private/);
  const html = await answer.text();
  expect(html.match(/data-testid="basket-line"/g)).toHaveLength(1);
  expect(html).toContain(added.variantData.p_name.replace(/&/g, '&amp;'));

  // Without JavaScript: the line reads, its buttons wait for the page, and the way on works.
  const still = await browser.newContext({ baseURL: shopOrigin, javaScriptEnabled: false });
  try {
    await still.addCookies(await page.context().cookies());
    const plain = await still.newPage();
    await plain.goto('/checkout/cart');
    await expect(plain.getByTestId('basket-line')).toHaveCount(1);
    await expect(plain.getByTestId('line-total')).toBeVisible();
    await expect(plain.getByRole('button', { name: /^Zvýšiť množstvo/ })).toBeDisabled();
    await plain.getByRole('link', { name: 'Pokračovať k údajom' }).click();
    await expect(plain).toHaveURL(/\/checkout\/contact$/);
  } finally {
    await still.close();
  }

  // Another browser never sees it: its basket page is the frame, the same for everyone.
  const other = await browser.newContext({ baseURL: shopOrigin });
  try {
    const frame = await (await other.request.get('/checkout/cart')).text();
    expect(frame).not.toContain('data-testid="basket-line"');
    expect(frame).toContain('aria-busy="true"');
  } finally {
    await other.close();
  }

  // With JavaScript: the page hydrates what the server rendered (the fixture fails on any console
  // error, a hydration mismatch among them), then the amounts work and the cookie follows them.
  await page.goto('/checkout/cart');
  const more = page.getByRole('button', { name: /^Zvýšiť množstvo/ });
  await expect(more).toBeEnabled();
  await more.click();
  await expect(page.getByRole('textbox', { name: /^Množstvo/ })).toHaveValue('2');
  await expect
    .poll(async () => (await page.context().cookies(`${shopOrigin}/checkout/cart`)).find((cookie) => cookie.name === 'shop_basket')?.value)
    .toBe(`${added.v_id}x2`);
  await page.getByRole('button', { name: 'Vyprázdniť košík' }).click();
  await expect(page.getByRole('heading', { name: 'Košík je prázdny' })).toBeVisible();
  expect((await page.context().cookies(`${shopOrigin}/checkout/cart`)).some((cookie) => cookie.name === 'shop_basket')).toBe(false);
});

test('a basket cookie that is not the shop’s shape is no basket: the page is the frame, never an error', async ({ request }) => {
  const tooMany = Array.from({ length: 101 }, (_, i) => `${i + 1}x1`).join('.');
  for (const value of ['1x1.'.repeat(2_000), tooMany, '1x0', 'x', '99999999999x1', '1x1.1x2', '1x1,2x1']) {
    const answer = await request.get('/checkout/cart', { headers: { cookie: `shop_basket=${value}` } });
    expect(answer.status(), value.slice(0, 20)).toBe(200);
    expect(answer.headers()['cache-control'], value.slice(0, 20)).not.toMatch(/^private/);
    expect(await answer.text()).not.toContain('data-testid="basket-line"');
  }
  // Sent to any other page, the cookie is not read there: the page stays the one every visitor gets.
  const home = await request.get('/', { headers: { cookie: 'shop_basket=1x1' } });
  expect(home.headers()['cache-control']).not.toMatch(/^private/);
});
