import { expect, expectPageErrors, failedLoad, test } from './fixtures.ts';
import { release } from './release-cli.ts';

test('a stored redirect is answered by the server with 301; in the app, internal ones are followed in place and external ones with a full load', async ({
  page,
  request,
}) => {
  // The server answers an old address itself, before any script (crawlers and links from outside).
  const internal = await request.get('/kontakt', { maxRedirects: 0 });
  expect(internal.status()).toBe(301);
  expect(internal.headers().location).toBe('/s/kontakt');
  const external = await request.get('/katalog-2024', { maxRedirects: 0 });
  expect(external.status()).toBe(301);
  expect(external.headers().location).toBe('https://www.example.sk/katalog');

  await page.goto('/kontakt');
  await expect(page).toHaveURL(/\/s\/kontakt$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Kontakt' })).toBeVisible();

  // Reached inside the app (no server request for the page), the shell looks the address up itself.
  await page.route('https://www.example.sk/**', (route) =>
    route.fulfill({ contentType: 'text/html; charset=utf-8', body: '<title>Katalóg</title><h1>Externý katalóg</h1>' }),
  );
  await page.evaluate(() => {
    window.history.pushState({}, '', '/katalog-2024');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page).toHaveURL('https://www.example.sk/katalog');
  await expect(page.getByRole('heading', { name: 'Externý katalóg' })).toBeVisible();
});

test('after a new registry version the next navigation is a full page load', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // A client-side navigation keeps the document while the build is unchanged.
  await page.evaluate(() => ((window as unknown as { __doc: string }).__doc = 'first'));
  await page.getByRole('link', { name: /Košík:/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Košík je prázdny' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __doc?: string }).__doc)).toBe('first');

  // A real registry move (pinning the content area moves the revision), as an operator's would.
  const before = await page.evaluate(async () => ((await (await fetch('/builds/latest.json')).json()) as { revision: string }).revision);
  release(['pin', 'content', '--reason', 'e2e navigation']);
  try {
    // The server tells open tabs within a second (/builds/events); focus makes the tab look too:
    // once it has read the new revision, its next navigation is a full page load.
    const seen = page.waitForResponse(
      async (response) =>
        response.url().endsWith('/builds/latest.json') && ((await response.json()) as { revision: string }).revision !== before,
    );
    await expect
      .poll(async () => {
        await page.evaluate(() => window.dispatchEvent(new Event('focus')));
        return Promise.race([seen.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 500))]);
      })
      .toBe(true);
    const reloaded = page.waitForEvent('load');
    await page.getByRole('link', { name: 'Pokračovať v nákupe' }).click();
    await reloaded;
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __doc?: string }).__doc)).toBeUndefined();
  } finally {
    release(['unpin', 'content', '--reason', 'e2e navigation']);
  }
});

test('a chunk failing after a deploy reloads once, never again within 10 s, then shows a message', async ({ page }) => {
  let registryCalls = 0;
  // Every look at the registry sees a newer build, and the checkout's entry is gone.
  // The reload this test waits for cancels a registry request in flight: its answer is then
  // disposed and nobody is left to answer, so that one is let go.
  await page.route('**/builds/latest.json', async (route) => {
    try {
      const response = await route.fetch();
      const registry = (await response.json()) as { revision: string };
      registryCalls += 1;
      await route.fulfill({ response, json: { ...registry, revision: `deploy-${registryCalls}` } });
    } catch (error) {
      if (!/disposed|closed/i.test(String(error))) throw error;
    }
  });
  await page.route('**/remotes/checkout/**/remoteEntry.js', (route) => route.fulfill({ status: 404, body: '' }));
  const why = "the checkout's entry answers 404 on purpose, so the area cannot load";
  expectPageErrors(page, failedLoad(404, '/remotes/checkout/'), why);
  expectPageErrors(page, /AreaLoadError: Area checkout could not load/, why);
  let loads = 0;
  page.on('load', () => (loads += 1));

  await page.goto('/checkout/cart');
  await expect(page.getByRole('heading', { level: 1, name: 'Košík a objednávka sa nepodarilo načítať' })).toBeVisible();
  await page.waitForTimeout(1000);
  expect(loads).toBe(2);
  await expect(page.getByRole('link', { name: 'Stavebniny Domov – úvodná stránka' })).toBeVisible();
});

test('a page reached by a link starts at the top; sorting a listing keeps the scroll position', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 700 });
  await page.goto('/');
  await page.getByRole('region', { name: 'Kategórie' }).getByRole('link').first().click();
  const cards = page.getByTestId('product-card');
  await expect(cards.first()).toBeVisible();
  const scrollY = () => page.evaluate(() => window.scrollY);

  // Sorting changes only the query: the shopper stays where the control is.
  const sort = page.getByRole('combobox', { name: 'Zoradiť' });
  await sort.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, 150));
  const before = await scrollY();
  expect(before).toBeGreaterThan(100);
  const sorted = page.waitForResponse((response) => /\/api\/products\?.*sort=name/.test(response.url()));
  await sort.selectOption('name');
  await sorted;
  await expect(page).toHaveURL(/sort=name/);
  await expect(cards.first()).toBeVisible();
  expect(await scrollY()).toBe(before);

  // A product further down: its page opens at the top. (The sorted cards may still be replacing
  // the old ones: scrolling is retried until the card it found stays attached.)
  const card = cards.last();
  await expect(async () => {
    await card.scrollIntoViewIfNeeded({ timeout: 1000 });
    expect(await scrollY()).toBeGreaterThan(300);
  }).toPass();
  await card.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/p\//);
  await expect(page.getByRole('button', { name: 'Pridať do košíka' })).toBeVisible();
  expect(await scrollY()).toBe(0);
});
