import type { Page } from '@playwright/test';
import { expect, undecidedTest as test } from './fixtures.ts';
import { createOperator, OPS_URL, signInFirstTime } from './operator.ts';

/** Nothing of the shopper's layout: no search, no category menu, no basket, no footer, no cookie notice. */
async function expectNoShopLayout(page: Page) {
  await expect(page.getByRole('search')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Kategórie' })).toHaveCount(0);
  await expect(page.getByTestId('basket-count')).toHaveCount(0);
  await expect(page.locator('footer')).toHaveCount(0);
  await expect(page.getByTestId('consent-first-frame')).toHaveCount(0);
  await expect(page.getByTestId('consent')).toHaveCount(0);
}

test('the console is on its own origin under its own policy, and the shop answers 404 for it', async ({ request }) => {
  const consolePage = await request.get(`${OPS_URL}/ops`);
  expect(consolePage.status()).toBe(200);
  const policy = consolePage.headers()['content-security-policy']!;
  for (const directive of [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ])
    expect(policy).toContain(directive);
  expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|https?:\/\//);
  const html = await consolePage.text();
  // One script of this origin, nothing inline, nothing of the shell or an area.
  expect([...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag)).toEqual([
    expect.stringMatching(/^<script type="module" crossorigin src="\/ops\/assets\/index-[\w-]+\.js">$/),
  ]);
  expect(html).not.toMatch(/remoteEntry|importmap|shop-config|\/remotes\//);
  // The shop's origin: 404 in the error shape for the console and every operator call.
  for (const path of [
    '/ops',
    '/ops/doklady/pdf',
    '/api/ops/session',
    '/api/ops/releases',
    '/api/operator/redirects',
    '/api/telemetry/summary',
  ]) {
    const answer = await request.get(path);
    expect(answer.status(), path).toBe(404);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('not_found');
  }
  // And the operator origin serves nothing of the shop.
  for (const path of ['/c/izolacie', '/api/menu', '/builds/latest.json', '/checkout/cart'])
    expect((await request.get(`${OPS_URL}${path}`)).status(), path).toBe(404);
});

// A visitor who has not answered the cookie notice: the console sets no tracking, so it asks nothing.
for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
])
  test(`the console at ${viewport.width} px has its own layout: the operator and sign-out in its header, nothing of the shop`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    const operator = createOperator();
    await signInFirstTime(page, operator);
    const header = page.getByRole('banner');
    await expect(header).toContainText('Prevádzka obchodu');
    await expect(header.getByTestId('ops-operator')).toContainText(operator.name);
    await expect(page.getByRole('heading', { level: 1, name: 'Vydania' })).toBeVisible();
    await expectNoShopLayout(page);
    // Nothing of the header, and nothing of the releases' table with its actions, spills over the page's width.
    expect(await header.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    const rollBack = page.getByRole('button', { name: /^(Vrátiť späť|Pripnúť) Katalóg/ }).first();
    await expect(rollBack).toBeVisible();
    const box = (await rollBack.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

    await header.getByRole('button', { name: 'Odhlásiť sa' }).click();
    await expect(page.getByLabel('Meno', { exact: true })).toBeVisible();
    await expect(page.getByText('Boli ste odhlásení.')).toBeVisible();
    await expect(header.getByTestId('ops-operator')).toHaveCount(0);
  });
