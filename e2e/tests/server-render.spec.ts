/**
 * The first view of public pages comes rendered by the server, from the versions in force:
 * what crawlers, link previews and a phone without JavaScript see, the right HTTP status, and a
 * browser that hydrates the same markup (no mismatch, no second request for the page's data),
 * also right after a deploy and a rollback of the catalog area.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get } from 'node:http';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectPageErrors, failedLoad, test } from './fixtures.ts';
import { origin, release, repo } from './release-cli.ts';

const HOME_HEADING = 'Všetko pre vašu stavbu na jednom mieste';

type Product = { p_url: string; p_name: string };
type JsonLd = Record<string, unknown> & { '@type': string };

const made: string[] = [];
test.afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The catalog build with the home page's heading changed, in its browser and its server build alike. */
function changedCatalogBuild(label: string): string {
  const dist = mkdtempSync(join(tmpdir(), 'catalog-next-'));
  made.push(dist);
  cpSync(join(repo, 'mf-catalog', 'dist'), dist, { recursive: true });
  let changed = 0;
  for (const dir of [join(dist, 'assets'), join(dist, 'server')]) {
    for (const file of readdirSync(dir).filter((name) => /\.(c?js)$/.test(name))) {
      const source = readFileSync(join(dir, file), 'utf8');
      if (!source.includes(HOME_HEADING)) continue;
      writeFileSync(join(dir, file), source.replaceAll(HOME_HEADING, `${HOME_HEADING} – ${label}`));
      changed += 1;
    }
  }
  expect(changed).toBe(2);
  return dist;
}

/** Console messages that tell of a hydration mismatch (development or production React). */
function watchHydration(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/hydrat|#418|#419|#423|#425/i.test(text)) problems.push(text);
  });
  return problems;
}

function jsonLdOf(html: string): JsonLd[] {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/gs)].map((match) => JSON.parse(match[1]!) as JsonLd);
}

async function someProduct(request: APIRequestContext): Promise<Product> {
  const answer = await request.get('/api/products?category=hruba-stavba');
  return ((await answer.json()) as { data: Product[] }).data[0]!;
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a category shows its heading, products with prices and links, with its title, canonical and breadcrumbs', async ({
    page,
    request,
  }) => {
    const response = await page.goto('/c/hruba-stavba');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hrubá stavba');
    await expect(page).toHaveTitle('Hrubá stavba | Stavebniny Domov');
    const cards = page.locator('main a[href^="/p/"]');
    expect(await cards.count()).toBeGreaterThan(3);
    await expect(
      page
        .locator('main')
        .getByText(/\d+,\d{2}\s€/)
        .first(),
    ).toBeVisible();
    const html = await (await request.get('/c/hruba-stavba')).text();
    expect(html).toMatch(/<link rel="canonical" href="https?:\/\/[^"]+\/c\/hruba-stavba">/);
    expect(jsonLdOf(html).map((block) => block['@type'])).toContain('BreadcrumbList');
    // The header and the menu are in the HTML too.
    // Any of the rule's three texts: which one depends on the hour the suite runs.
    await expect(page.getByTestId('opening-hours')).toHaveText(
      /^(Dnes otvorené do 15:30|Zajtra otvorené od 08:00|V pondelok otvorené od 08:00)$/,
    );
  });

  test('a product shows its heading and price, with title, canonical and Product structured data with its offers', async ({
    page,
    request,
  }) => {
    const product = await someProduct(request);
    const response = await page.goto(`/p/${product.p_url}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.p_name);
    await expect(page).toHaveTitle(`${product.p_name} | Stavebniny Domov`);
    const html = await (await request.get(`/p/${product.p_url}`)).text();
    expect(html).toContain(`/p/${product.p_url}"`);
    const detail = ((await (await request.get(`/api/product/${product.p_url}`)).json()) as { data: { variants: { v_code: string }[] } })
      .data;
    const structured = jsonLdOf(html).find((block) => block['@type'] === 'Product') as JsonLd & {
      offers: { price: string; priceCurrency: string; availability: string; sku: string }[];
    };
    expect(structured.name).toBe(product.p_name);
    expect(structured.offers.map((offer) => offer.sku)).toEqual(detail.variants.map((variant) => variant.v_code));
    for (const offer of structured.offers) {
      expect(offer.priceCurrency).toBe('EUR');
      expect(offer.price).toMatch(/^\d+\.\d{2}$/);
      expect(offer.availability).toMatch(/^https:\/\/schema\.org\/(InStock|BackOrder|OutOfStock)$/);
      // The price shown on the page is the offer's price.
    }
    await expect(
      page
        .locator('main')
        .getByText(structured.offers[0]!.price.replace('.', ',') + ' €')
        .first(),
    ).toBeVisible();
    const canonical = html.match(/<link rel="canonical" href="([^"]+)">/)?.[1];
    expect(canonical).toMatch(new RegExp(`/p/${product.p_url}$`));
    expect(html).toMatch(/<meta property="og:type" content="product">/);
  });

  // With the basket's cookie the server renders the lines too (basket-server-render.spec.ts).
  test("without the basket's cookie, the basket's frame is server-rendered, the same for every shopper; its state is left to the browser", async ({
    page,
    request,
  }) => {
    const response = await page.goto('/checkout/cart');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('banner')).toBeVisible();
    // The server cannot read the browser's storage: the steps, the heading and the delivery note around a placeholder.
    await expect(page.getByRole('heading', { level: 1, name: 'Košík' })).toBeVisible();
    await expect(page.getByText('Doručenie (kuriér, výdajné miesto, paleta)')).toBeVisible();
    await expect(page.getByRole('status', { name: 'Načítava sa…' })).toBeVisible();
    const html = await (await request.get('/checkout/cart')).text();
    expect(html).not.toMatch(/Košík je prázdny|Košík: [1-9]|Položky v košíku/);
  });

  test('an unknown product, category and path answer 404 with the not-found page', async ({ page }) => {
    for (const path of ['/p/tento-produkt-neexistuje', '/c/taka-kategoria-nie-je', '/toto-nie-je-stranka']) {
      expectPageErrors(page, failedLoad(404, path), 'each address is unknown on purpose: its answer is a 404');
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ospravedlňujeme sa, táto stránka neexistuje');
    }
  });
});

/** The decoded chunks of a page as they arrive (no compression, so a chunk is what the server sent at once). */
function pageChunks(url: string): Promise<{ status: number; chunks: string[] }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': 'identity' } }, (response) => {
      const chunks: string[] = [];
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, chunks }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

test("a search page's head leaves before its results: title, canonical and styles first, the products after", async ({ baseURL }) => {
  // Its title comes from the address, so the head leaves at once, before the search runs. Distinct URLs
  // (the page cache sends a stored page in one piece); the network may join two sends into one read,
  // so one split answer out of a few shows the server sends the head ahead.
  const answers = [];
  for (const term of ['tehla', 'cement', 'omietka', 'izolacia']) answers.push({ term, ...(await pageChunks(`${baseURL}/search/${term}`)) });
  for (const { term, status, chunks } of answers) {
    expect(status).toBe(200);
    expect(chunks.join('')).toMatch(
      new RegExp(`<title>Hľadanie: ${term} \\| Stavebniny Domov</title>[\\s\\S]*data-testid="product-card"[\\s\\S]*</html>`),
    );
  }
  const split = answers.filter(
    ({ chunks }) => chunks.length > 1 && /rel="canonical"/.test(chunks[0]!) && !chunks[0]!.includes('product-card'),
  );
  expect(split.length).toBeGreaterThan(0);
  expect(split[0]!.chunks[0]).toContain(`<title>Hľadanie: ${split[0]!.term} | Stavebniny Domov</title>`);
});

test('the browser hydrates what the server rendered: no mismatch, no second request for the page data', async ({ page, request }) => {
  const product = await someProduct(request);
  const problems = watchHydration(page);
  const asked: string[] = [];
  page.on('request', (sent) => {
    if (sent.url().includes('/api/product/') || sent.url().includes('/api/menu')) asked.push(sent.url());
  });
  await page.goto(`/p/${product.p_url}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.p_name);
  // Hydrated: the shopper can put the product in the basket.
  await page
    .getByRole('button', { name: /Pridať do košíka/ })
    .first()
    .click();
  await expect(page.getByTestId('basket-count').first()).not.toHaveText('0');
  expect(asked).toEqual([]);
  expect(problems).toEqual([]);
  // The next page the shopper opens loads its own data, as before.
  await page.getByRole('link', { name: 'Domov', exact: true }).first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(HOME_HEADING);
  expect(problems).toEqual([]);
});

test("a deploy of a changed catalog shows on the server's next page and hydrates without mismatch; a rollback brings the old text back in both", async ({
  page,
  request,
}) => {
  const stable = JSON.parse(readFileSync(join(origin, 'builds', 'latest.json'), 'utf8')).areas.catalog.version as string;
  try {
    expect((await request.get('/')).ok()).toBe(true);
    release(['deploy', 'catalog', '--dist', changedCatalogBuild('nová verzia'), '--reason', 'server render test']);
    // The release is a new key for the page cache: the next page is rendered by the new version.
    const afterDeploy = await request.get('/');
    expect(afterDeploy.headers()['x-page-cache']).toBe('miss');
    expect(await afterDeploy.text()).toContain(`${HOME_HEADING} – nová verzia`);
    const problems = watchHydration(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${HOME_HEADING} – nová verzia`);
    await page.waitForLoadState('networkidle');
    expect(problems).toEqual([]);

    release(['rollback', 'catalog', stable, '--reason', 'server render test']);
    const html = await (await request.get('/')).text();
    expect(html).toContain(HOME_HEADING);
    expect(html).not.toContain('nová verzia');
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(HOME_HEADING);
    await page.waitForLoadState('networkidle');
    expect(problems).toEqual([]);
  } finally {
    release(['deploy', 'catalog', '--dist', join(repo, 'mf-catalog', 'dist'), '--override-pin']);
  }
});

test('concurrent renders for different pages and shoppers share nothing: each page has only its own data', async ({
  request,
  playwright,
}) => {
  const answer = await request.get('/api/products?sort=name');
  const products = ((await answer.json()) as { data: Product[] }).data.slice(0, 10);
  expect(products.length).toBe(10);
  // Each request as a different shopper (its own cookies: a canary side, a consent choice), all at once.
  const pages = await Promise.all(
    products.flatMap((product, index) =>
      [0, 1].map(async (copy) => {
        const shopper = await playwright.request.newContext({
          baseURL: `http://localhost:${new URL(answer.url()).port}`,
          extraHTTPHeaders: { cookie: `shop_canary=${(index * 7 + copy) % 100}; cookie_required=true; cookie_ga=${copy === 0}` },
        });
        const html = await (await shopper.get(`/p/${product.p_url}`)).text();
        await shopper.dispose();
        return { product, html };
      }),
    ),
  );
  for (const { product, html } of pages) {
    expect(html).toContain(`<h1>${product.p_name.replace(/&/g, '&amp;')}</h1>`);
    const embedded = JSON.parse(html.match(/<script type="application\/json" id="shop-server-data">(.*?)<\/script>/s)![1]!) as {
      path: string;
      data: Record<string, unknown>;
    };
    expect(embedded.path).toBe(`/p/${product.p_url}`);
    expect(Object.keys(embedded.data).filter((key) => key.startsWith('GET /api/product/'))).toEqual([
      `GET /api/product/${encodeURIComponent(product.p_url)}`,
    ]);
    for (const other of products.filter((candidate) => candidate.p_url !== product.p_url)) {
      expect(html).not.toContain(`<h1>${other.p_name}</h1>`);
    }
  }
});

test('a rendered page is served again briefly to every visitor alike, never with anything of one shopper', async ({
  page,
  request,
  playwright,
}) => {
  const product = await someProduct(request);
  const path = `/p/${product.p_url}`;
  // A signed-in shopper with a basket opens the page in the browser: nothing of theirs goes to the server's HTML.
  await page.goto(path);
  await page
    .getByRole('button', { name: /Pridať do košíka/ })
    .first()
    .click();
  // This shopper's own request (their cookies: consent answered, canary side) …
  const first = await page.request.get(path);
  // … and another visitor's, with other answers and no canary side: the same page.
  const other = await playwright.request.newContext({
    baseURL: new URL(first.url()).origin,
    extraHTTPHeaders: { cookie: 'cookie_required=true; cookie_ga=true; cookie_ads=true' },
  });
  const second = await other.get(path);
  expect(second.headers()['x-page-cache']).toBe('hit');
  expect(await second.text()).toBe(await first.text());
  await other.dispose();
  // … and a first visitor, without any cookie: the same page, which a CDN may keep as briefly.
  const stranger = await playwright.request.newContext({ baseURL: new URL(first.url()).origin });
  const third = await stranger.get(path);
  expect(await third.text()).toBe(await first.text());
  expect(third.headers()['cache-control']).toBe('public, max-age=0, s-maxage=5, stale-while-revalidate=5');
  await stranger.dispose();
  const html = await first.text();
  expect(html).not.toMatch(/Košík: [1-9]/);
  expect(html).not.toContain('cookie_ga');
});
