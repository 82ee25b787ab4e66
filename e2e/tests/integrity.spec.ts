import { expect, expectPageErrors, test } from './fixtures.ts';
import { metricsCredential, operatorSession, OPS_URL } from './operator.ts';
import { E2E_DATA_DIR } from '../playwright.config.ts';
import { tamperedChunkScenario } from './tamper.ts';

test('one byte changed in a released checkout chunk: refused, contained, shown in the console, fallen back; the next load works', async ({
  page,
  request,
}) => {
  // A release, a check, the browser's report and the fallback, one after another.
  test.setTimeout(120_000);
  await tamperedChunkScenario({
    page,
    request,
    dataDir: E2E_DATA_DIR,
    releaseEnv: {},
    operator: await operatorSession(),
    opsUrl: OPS_URL,
    metricsToken: metricsCredential(),
  });
});

// What the origin cannot see (a CDN or a proxy changing a file on the way): the browser checks each
// module against the page's import map and runs none whose bytes differ.
test('a chunk changed on its way to the browser is not run: the area is contained', async ({ page }) => {
  await page.route(/\/remotes\/checkout\/[^/]+\/assets\/cart-page-[^/]+\.js$/, async (route) => {
    const response = await route.fetch();
    await route.fulfill({
      response,
      headers: { ...response.headers(), 'content-encoding': 'identity' },
      body: `${await response.text()}\n;window.__tampered = true;`,
    });
  });
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/integrity/i.test(message.text())) refused.push(message.text());
  });
  const why = 'the chunk is changed on its way on purpose, so the browser refuses it and the area cannot load';
  expectPageErrors(page, /Failed to find a valid digest in the 'integrity' attribute/, why);
  expectPageErrors(page, /AreaLoadError: Area checkout could not load/, why);
  await page.goto('/checkout/cart');
  // The shell asks the origin why the load failed before it gives up (a network failure is tried again).
  await expect(page.getByRole('heading', { name: 'Košík a objednávka sa nepodarilo načítať' })).toBeVisible({ timeout: 15_000 });
  expect(await page.evaluate(() => (window as { __tampered?: boolean }).__tampered)).toBeUndefined();
  expect(refused.join('\n')).toMatch(/cart-page-[^ ]+\.js/);
});
