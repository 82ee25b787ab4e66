import type { Page } from '@playwright/test';
import { expect, expectPageErrors, failedLoad, undecidedTest as test } from './fixtures.ts';
import { OPS_URL } from './operator.ts';
import { recordLayoutShifts } from './layout-shifts.ts';

type ConsentCommand = [string, string, Record<string, string | number>];

async function consentCommands(page: Page): Promise<ConsentCommand[]> {
  return page.evaluate(
    () =>
      ((window as unknown as { dataLayer?: ArrayLike<unknown>[] }).dataLayer ?? [])
        .map((entry) => Array.from(entry as ArrayLike<unknown>))
        .filter((entry) => entry[0] === 'consent') as ConsentCommand[],
  );
}

/**
 * The browser's consent cookies. A page's `document.cookie` reaches the browser's cookie store a
 * moment after the click that wrote it: read them with `expect.poll`.
 */
async function consentCookies(page: Page) {
  const cookies = await page.context().cookies();
  return Object.fromEntries(cookies.filter((c) => c.name.startsWith('cookie_')).map((c) => [c.name, c.value]));
}

/** The shell's notice (interactive), not the first frame's static one it replaces. */
const shellNotice = (page: Page) => page.getByRole('dialog', { name: 'Súbory cookies' }).and(page.getByTestId('consent'));

const tagManager = (page: Page) => page.locator('script[src^="https://www.googletagmanager.com/gtm.js?id=GTM-E2ETEST"]');

test.beforeEach(async ({ page }) => {
  // No internet here: answer the tag manager request with an empty script.
  await page.route('https://www.googletagmanager.com/**', (route) => route.fulfill({ contentType: 'text/javascript', body: '' }));
});

test('accept all stores all three choices, adds the tag manager and grants every signal', async ({ page }) => {
  await page.goto('/');
  const notice = shellNotice(page);
  await expect(notice).toBeVisible();
  await expect(tagManager(page)).toHaveCount(0);
  expect((await consentCommands(page))[0]).toEqual([
    'consent',
    'default',
    expect.objectContaining({ analytics_storage: 'denied', ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' }),
  ]);

  await notice.getByRole('button', { name: 'Prijať všetko' }).click();
  await expect(notice).toBeHidden();
  await expect.poll(() => consentCookies(page)).toEqual({ cookie_required: 'true', cookie_ga: 'true', cookie_ads: 'true' });
  await expect(tagManager(page)).toHaveCount(1);
  expect((await consentCommands(page)).at(-1)).toEqual([
    'consent',
    'update',
    { analytics_storage: 'granted', ad_storage: 'granted', ad_user_data: 'granted', ad_personalization: 'granted' },
  ]);

  await page.reload();
  await expect(page.getByTestId('consent')).toHaveCount(0);
});

test('reject all is as prominent as accept all, stores required only and adds no tag manager', async ({ page }) => {
  await page.goto('/');
  const notice = shellNotice(page);
  const accept = notice.getByRole('button', { name: 'Prijať všetko' });
  const reject = notice.getByRole('button', { name: 'Odmietnuť všetko' });
  expect(await reject.getAttribute('class')).toBe(await accept.getAttribute('class'));
  const [a, r] = [await accept.boundingBox(), await reject.boundingBox()];
  expect(Math.abs(a!.width - r!.width)).toBeLessThan(2);
  expect(Math.abs(a!.height - r!.height)).toBeLessThan(2);

  await reject.click();
  await expect.poll(() => consentCookies(page)).toEqual({ cookie_required: 'true', cookie_ga: 'false', cookie_ads: 'false' });
  await expect(tagManager(page)).toHaveCount(0);
  expect((await consentCommands(page)).at(-1)).toEqual([
    'consent',
    'update',
    { analytics_storage: 'denied', ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' },
  ]);
});

test('detailed settings keep technical cookies on, save unset values as false, and can be changed from the footer', async ({ page }) => {
  await page.goto('/');
  const notice = shellNotice(page);
  await notice.getByRole('button', { name: 'Nastavenia' }).click();
  const technical = notice.getByRole('checkbox', { name: /Technické cookies/ });
  await expect(technical).toBeChecked();
  await expect(technical).toBeDisabled();
  await notice.getByRole('checkbox', { name: /Analytické cookies/ }).check();
  await notice.getByRole('button', { name: 'Uložiť výber' }).click();
  await expect.poll(() => consentCookies(page)).toEqual({ cookie_required: 'true', cookie_ga: 'true', cookie_ads: 'false' });
  await expect(tagManager(page)).toHaveCount(1);
  expect((await consentCommands(page)).at(-1)).toEqual([
    'consent',
    'update',
    { analytics_storage: 'granted', ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' },
  ]);

  await page.getByRole('button', { name: 'Nastavenia cookies' }).click();
  await expect(notice.getByRole('checkbox', { name: /Analytické cookies/ })).toBeChecked();
  await notice.getByRole('checkbox', { name: /Analytické cookies/ }).uncheck();
  await notice.getByRole('checkbox', { name: /Reklamné cookies/ }).check();
  await notice.getByRole('button', { name: 'Uložiť výber' }).click();
  await expect.poll(() => consentCookies(page)).toEqual({ cookie_required: 'true', cookie_ga: 'false', cookie_ads: 'true' });
});

test('the privacy page shows the notice plain in the page, and generate and pdf show none', async ({ page }) => {
  await page.goto('/s/ochrana-sukromia');
  const plain = page.getByRole('region', { name: 'Súbory cookies' });
  await expect(plain).toBeVisible();
  expect(await plain.evaluate((element) => getComputedStyle(element).position)).toBe('static');
  await expect(page.getByRole('dialog', { name: 'Súbory cookies' })).toHaveCount(0);

  // The document tools live in the operator console, on its own origin: no notice, no analytics there.
  for (const path of ['/generate', '/pdf']) {
    await page.goto(path);
    expect(page.url()).toBe(`${OPS_URL}/ops/doklady${path}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('consent')).toHaveCount(0);
    expect(await consentCommands(page)).toEqual([]);
  }
});

test('the notice of the shell replaces the one painted with the first frame: one notice on the page', async ({ page }) => {
  // A page of the server's own HTML with the first frame's notice and no area's data to wait for.
  expectPageErrors(page, failedLoad(404, '/p/neexistujuci-produkt'), 'the not-found page is answered 404');
  await page.goto('/p/neexistujuci-produkt');
  await expect(shellNotice(page)).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Súbory cookies' })).toHaveCount(1);
  await expect(page.getByTestId('consent-first-frame')).toHaveCount(0);
});

test("a visitor who decided never gets the first frame's notice, even before the shell runs", async ({ page, baseURL }) => {
  await page.context().addCookies(
    ['cookie_required=true', 'cookie_ga=false', 'cookie_ads=false'].map((pair) => {
      const [name, value] = pair.split('=') as [string, string];
      return { name, value, url: baseURL! };
    }),
  );
  // No script of the shop runs but the page's own inline ones.
  await page.route(/\.js(\?|$)/, (route) => route.abort());
  const why = 'every script of the shop is aborted on purpose';
  expectPageErrors(page, /net::ERR_FAILED \(http[^)]*\.js\)/, why);
  expectPageErrors(page, /uncaught TypeError: Failed to fetch dynamically imported module/, why);
  await page.goto('/c/tehly');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('consent-first-frame')).toHaveCount(0);
  // No room kept for a notice that is not there.
  expect(await page.evaluate(() => getComputedStyle(document.body).paddingBottom)).toBe('0px');
});

test('a visitor who decided sees no notice in any frame and no layout shift, the page kept for everyone', async ({ page, baseURL }) => {
  await page.context().addCookies(
    ['cookie_required=true', 'cookie_ga=false', 'cookie_ads=false'].map((pair) => {
      const [name, value] = pair.split('=') as [string, string];
      return { name, value, url: baseURL! };
    }),
  );
  // From the document's start: whether a notice is in the page at any frame (a frame's callbacks run
  // before it is painted), and every layout shift.
  const shifts = await recordLayoutShifts(page);
  await page.addInitScript(() => {
    const seen = { framesWithNotice: 0, frames: 0 };
    (window as unknown as { consentFrames: typeof seen }).consentFrames = seen;
    const frame = () => {
      seen.frames += 1;
      if (document.querySelector('[data-testid="consent-first-frame"], [data-testid="consent"]')) seen.framesWithNotice += 1;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  const answer = await page.goto('/c/tehly');
  // The same HTML as for anyone (a shared cache may keep it): the first frame's notice is in it.
  expect(answer!.headers()['cache-control']).toMatch(/^public, .*s-maxage=\d+/);
  expect(await answer!.text()).toContain('data-testid="consent-first-frame"');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The shell has hydrated the page and would have shown its notice by now.
  await expect(page.locator('html[data-interactive]')).toBeAttached();
  const seen = await page.evaluate(
    () => (window as unknown as { consentFrames: { framesWithNotice: number; frames: number } }).consentFrames,
  );
  expect(seen.frames).toBeGreaterThan(0);
  expect(seen.framesWithNotice).toBe(0);
  expect(await shifts()).toEqual([]);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the first frame shows the notice, and reject all stores required only and returns to the page', async ({ page }) => {
    await page.goto('/c/tehly?page=2');
    const notice = page.getByRole('dialog', { name: 'Súbory cookies' });
    await expect(notice).toBeVisible();
    await expect(notice.getByRole('link', { name: 'ochrane súkromia' })).toHaveAttribute('href', '/s/ochrana-sukromia');
    // Without a script the page cannot read the answer (the HTML is the same for everyone), so the
    // notice sits at the page's end instead of floating over the content.
    expect(await notice.evaluate((element) => getComputedStyle(element).position)).toBe('static');
    await notice.getByRole('button', { name: 'Odmietnuť všetko' }).click();
    await expect(page).toHaveURL(/\/c\/tehly\?page=2$/);
    await expect.poll(() => consentCookies(page)).toEqual({ cookie_required: 'true', cookie_ga: 'false', cookie_ads: 'false' });
  });
});
