/**
 * Stored redirects as requirements R2.8 asks (every route change checks them; an external target is a full
 * page load) at no cost per navigation: the shell keeps the list and checks it in the browser, the
 * server answers a direct load of any old address with 301. The operator moves a page of the shop
 * with the operator's API on the operator origin, as the console does.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { SHOP_PORT } from '../playwright.config.ts';
import { operatorSession, OPS_URL, type SignedIn } from './operator.ts';

const MOVED = '/doprava-a-platba';
let operator: Promise<SignedIn> | null = null;
/** A change of the signed-in operator on the operator origin, as the console sends it. */
async function asOperator(method: 'PUT' | 'DELETE', path: string, body: unknown = {}) {
  const { cookie } = await (operator ??= operatorSession());
  return fetch(`${OPS_URL}${path}`, {
    method,
    headers: { cookie, 'content-type': 'application/json', origin: OPS_URL },
    body: JSON.stringify(body),
  });
}

async function storeRedirect(_request: APIRequestContext, oldUrl: string, newUrl: string) {
  const response = await asOperator('PUT', '/api/operator/redirects', { old_url: oldUrl, new_url: newUrl });
  expect(response.status).toBe(200);
}

/** Every test leaves the page where it was, whatever happened in it (later tests read it). */
test.afterEach(async ({ request }) => {
  await asOperator('DELETE', `/api/operator/redirects?old_url=${encodeURIComponent(MOVED)}`);
  expect((await request.get(MOVED, { maxRedirects: 0 })).status()).toBe(200);
});

/** Opens the home page and waits until the shell has fetched the redirect list it keeps (after the page has loaded). */
async function homeWithRedirects(page: Page) {
  const listed = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/redirect/list');
  await page.goto('/');
  await listed;
  await page.evaluate(() => ((window as unknown as { __doc: string }).__doc = 'first'));
}

/** Every request for redirects the page makes from now on. */
function redirectRequests(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/redirect')) asked.push(request.url());
  });
  return asked;
}

const footerLink = (page: Page) => page.locator('footer').getByRole('link', { name: 'Doprava a platba' });

test('a page the operator moved is a 301 on a direct load at once, and a link to it leads to the new address without asking the server', async ({
  page,
  request,
}) => {
  // A page of the shop until the operator moves it (rendered, and kept by the page cache for a while).
  expect((await request.get(MOVED, { maxRedirects: 0 })).status()).toBe(200);
  await storeRedirect(request, MOVED, '/s/obchodne-podmienky');

  const direct = await request.get(MOVED, { maxRedirects: 0 });
  expect(direct.status()).toBe(301);
  expect(direct.headers().location).toBe('/s/obchodne-podmienky');

  await homeWithRedirects(page);
  const asked = redirectRequests(page);
  await footerLink(page).click();
  await expect(page).toHaveURL(/\/s\/obchodne-podmienky$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Obchodné podmienky' })).toBeVisible();
  // In place (the same document), and from the list the shell keeps: no request for redirects.
  expect(await page.evaluate(() => (window as unknown as { __doc?: string }).__doc)).toBe('first');
  expect(asked).toEqual([]);
  // Back does not return to the old address: the redirect replaced it in the history.
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);

  // Opened directly in the browser: the server's 301, before any script.
  await page.goto(MOVED);
  await expect(page).toHaveURL(/\/s\/obchodne-podmienky$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Obchodné podmienky' })).toBeVisible();
});

test('a target on another origin is a full page load, from a link in the app and on a direct load', async ({ page, request }) => {
  // The shop itself under another host name: another origin for the browser, never the internet.
  const elsewhere = `http://127.0.0.1:${SHOP_PORT}/s/kontakt`;
  await storeRedirect(request, MOVED, elsewhere);

  const direct = await request.get(MOVED, { maxRedirects: 0 });
  expect(direct.status()).toBe(301);
  expect(direct.headers().location).toBe(elsewhere);

  await homeWithRedirects(page);
  const asked = redirectRequests(page);
  const loaded = page.waitForEvent('load');
  await footerLink(page).click();
  await loaded;
  await expect(page).toHaveURL(elsewhere);
  await expect(page.getByRole('heading', { level: 1, name: 'Kontakt' })).toBeVisible();
  // A new document: the old one's marker is gone.
  expect(await page.evaluate(() => (window as unknown as { __doc?: string }).__doc)).toBeUndefined();
  expect(asked.filter((url) => new URL(url).host !== '127.0.0.1:' + SHOP_PORT)).toEqual([]);
});
