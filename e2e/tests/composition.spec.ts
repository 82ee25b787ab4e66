import type { Request } from '@playwright/test';
import { expect, expectPageErrors, failedLoad, test } from './fixtures.ts';
import { countReactRenderers, type Registry } from './helpers.ts';
import { ASSET_PORT } from '../playwright.config.ts';
import { AREAS } from '../../shared-kernel/src/contract/parts.ts';

const assetOrigin = `http://localhost:${ASSET_PORT}`;

test('every area loads from its own origin at the version the registry names, sharing one React and one kernel', async ({
  page,
  request,
}) => {
  const rendererCount = await countReactRenderers(page);
  const registry = (await (await request.get('/builds/latest.json')).json()) as Registry;
  const requests: string[] = [];
  page.on('request', (sent: Request) => requests.push(sent.url()));

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto('/s/kontakt');
  await expect(page.getByRole('heading', { level: 1, name: /Kontakt/ })).toBeVisible();
  // Client-side navigations into the other areas.
  await page.getByRole('link', { name: 'Prihlásiť sa' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Prihlásenie' })).toBeVisible();
  await page.getByRole('link', { name: /Košík:/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Košík je prázdny' })).toBeVisible();

  for (const area of AREAS) {
    const release = registry.areas[area]!;
    const entry = `${assetOrigin}/${release.entry}`;
    expect(entry).toContain(`/remotes/${area}/${release.version}/`);
    expect(requests, `${area} entry from the asset origin`).toContain(entry);
    const fromArea = requests.filter((url) => url.startsWith(`${assetOrigin}/remotes/${area}/`));
    expect(fromArea.every((url) => url.startsWith(`${assetOrigin}/remotes/${area}/${release.version}/`))).toBe(true);
  }
  // The shell itself is served from the shop's origin, not the asset origin.
  expect(requests.some((url) => url.startsWith(`http://localhost:${ASSET_PORT - 1}/assets/`))).toBe(true);

  // Exactly one react-dom renderer and one kernel instance across shell and areas.
  expect(await rendererCount()).toBe(1);
  const kernels = await page.evaluate(() => (globalThis as unknown as { __SHOP_KERNEL_INSTANCES__?: string[] }).__SHOP_KERNEL_INSTANCES__);
  expect(kernels).toHaveLength(1);
  // No area fetched its own copy of a shared singleton.
  const ownCopies = requests.filter(
    (url) => url.startsWith(`${assetOrigin}/`) && /react-dom|react_mf|zustand|mitt|shared.kernel/i.test(url),
  );
  expect(ownCopies).toEqual([]);
});

test('with the catalog entry answering 404 the shell still starts, the basket works, and retry recovers', async ({ page }) => {
  await page.route(`${assetOrigin}/remotes/catalog/**/remoteEntry.js`, (route) => route.fulfill({ status: 404, body: 'Not found' }));
  const why = 'the catalog entry answers 404 on purpose, so the area cannot load';
  expectPageErrors(page, failedLoad(404, '/remotes/catalog/'), why);
  expectPageErrors(page, /AreaLoadError: Area catalog could not load/, why);
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Stavebniny Domov – úvodná stránka' })).toBeVisible();
  await expect(page.getByTestId('basket-count')).toHaveText('0');
  const failure = page.getByRole('alert').filter({ hasText: 'Katalóg produktov sa nepodarilo načítať' });
  await expect(failure).toBeVisible();

  // Another area still works.
  await page.getByRole('link', { name: /Košík:/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Košík je prázdny' })).toBeVisible();
  await page.goBack();
  await expect(failure).toBeVisible();

  // The entry is back: retry loads the catalog without a page reload.
  await page.unroute(`${assetOrigin}/remotes/catalog/**/remoteEntry.js`);
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  await failure.getByRole('button', { name: 'Skúsiť znova' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Všetko pre vašu stavbu na jednom mieste' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
});

test('an unknown path shows the not-found page and a stored redirect is followed', async ({ page }) => {
  expectPageErrors(page, failedLoad(404, '/toto-neexistuje'), 'an unknown path is answered 404 on purpose');
  await page.goto('/toto-neexistuje');
  await expect(page.getByRole('heading', { level: 1, name: 'Ospravedlňujeme sa, táto stránka neexistuje' })).toBeVisible();
  await expect(page.getByText('404', { exact: true })).toBeVisible();
  await expect(page).toHaveTitle(/Ospravedlňujeme sa, táto stránka neexistuje/);

  await page.goto('/akcia');
  await expect(page).toHaveURL(/\/vypredaj$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Výpredaj' })).toBeVisible();
});

test('a missing product is the shell’s not-found page', async ({ page }) => {
  expectPageErrors(page, failedLoad(404, '/p/neexistujuci-produkt'), 'a missing product is answered 404 on purpose');
  await page.goto('/p/neexistujuci-produkt');
  await expect(page.getByRole('heading', { level: 1, name: 'Ospravedlňujeme sa, táto stránka neexistuje' })).toBeVisible();
});

test('the origin caches hashed files forever, revalidates entry, manifest and registry, and allows the shell to load areas', async ({
  request,
}) => {
  const registryResponse = await request.get('/builds/latest.json');
  expect(registryResponse.headers()['cache-control']).toBe('no-cache');
  const registry = (await registryResponse.json()) as Registry;
  const release = registry.areas.catalog!;
  const areaBase = `${assetOrigin}/remotes/catalog/${release.version}`;

  for (const file of ['remoteEntry.js', 'mf-manifest.json']) {
    const response = await request.get(`${areaBase}/${file}`, { headers: { origin: `http://localhost:${ASSET_PORT - 1}` } });
    expect(response.status()).toBe(200);
    expect(response.headers()['cache-control']).toBe('no-cache');
    expect(response.headers()['access-control-allow-origin']).toBe('*');
    expect(response.headers().etag).toBeTruthy();
  }
  const manifest = (await (await request.get(`${areaBase}/mf-manifest.json`)).json()) as {
    exposes: { assets: { js: { sync: string[] } } }[];
  };
  const chunk = manifest.exposes[0]!.assets.js.sync[0]!;
  const hashed = await request.get(`${areaBase}/${chunk}`, { headers: { 'accept-encoding': 'br' } });
  expect(hashed.status()).toBe(200);
  expect(hashed.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(hashed.headers()['content-encoding']).toBe('br');
  // Never revalidated, so no validators on any of the page's many chunks.
  expect(hashed.headers().etag).toBeUndefined();
  expect(hashed.headers()['last-modified']).toBeUndefined();
});
