/**
 * The levers of a fast first view, as tests rather than timings: a product page's HTML announces
 * its main image (high priority) and carries its data, and every script a page's first render
 * runs was named in its HTML (the loader's list or the server's list of the area's chunks), so none is discovered late;
 * the page paints from its HTML alone: no stylesheet to wait for, and the shell starts after the first paint (its
 * scripts asked for at that paint when the first view is a picture, from the head otherwise).
 */
import type { APIRequestContext, Request } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { fillBasket, findVariants } from './checkout-helpers.ts';
import { recordLayoutShifts } from './layout-shifts.ts';

const PAGES = ['/', '/c/hruba-stavba', 'product', '/checkout/cart', '/blog'];

async function someProductUrl(request: APIRequestContext): Promise<string> {
  const answer = (await (await request.get('/api/products?category=hruba-stavba')).json()) as { data: { p_url: string }[] };
  return `/p/${answer.data[0]!.p_url}`;
}

/** The scripts a page's HTML names: tags, the shell loader's list, and the server's list of the page's area chunks. */
function announcedScripts(html: string): string[] {
  const tags = [...html.matchAll(/<(?:link rel="modulepreload"[^>]*href|script[^>]*src)="([^"]+)"/g)].map((match) => match[1]!);
  const shell = JSON.parse(/,shell=(\[[^\]]*\])/.exec(html)?.[1] ?? '[]') as string[];
  const area = JSON.parse(/<script type="application\/json" id="shop-boot-preload">([^<]*)<\/script>/.exec(html)?.[1] ?? '[]') as string[];
  return [...tags, ...shell, ...area];
}

test("a product page's HTML announces its main image with high priority and carries its data", async ({ request }) => {
  const path = await someProductUrl(request);
  const detail = (await (await request.get(`/api/product/${path.slice(3)}`)).json()) as { data: { p_images: string[] } };
  const main = detail.data.p_images[0]!;
  expect(main, 'a raster picture (comparators take no SVG)').toMatch(/\.png$/);
  const html = await (await request.get(path)).text();
  const image = /<img[^>]*fetchpriority="high"[^>]*>/i.exec(html)?.[0];
  expect(image, 'an image with fetchpriority="high"').toBeDefined();
  expect(image).toContain(`src="${main}?w=640"`);
  expect(image!.toLowerCase(), 'attribute names are case-insensitive').toContain(
    `srcset="${main}?w=320 320w, ${main}?w=480 480w, ${main}?w=640 640w"`,
  );
  // Asked for from the head, before the page's scripts (which wait for the first paint), with the same choice of widths.
  const preload = /<link rel="preload" as="image"[^>]*>/.exec(html);
  expect(preload?.[0], 'the main image preloaded in the head').toBeDefined();
  expect(preload![0]).toContain(`href="${main}?w=640"`);
  expect(preload![0]).toContain(`imagesrcset="${main}?w=320 320w, ${main}?w=480 480w, ${main}?w=640 640w"`);
  expect(preload![0]).toContain('fetchpriority="high"');
  expect(preload!.index, 'the image preload is in the head').toBeLessThan(html.indexOf('</head>'));
  const data = /<script type="application\/json" id="shop-server-data">(.*?)<\/script>/s.exec(html)?.[1];
  expect(JSON.parse(data!).data).toHaveProperty([`GET /api/product/${encodeURIComponent(path.slice(3))}`]);
});

test("a category page's HTML asks for its first row's pictures at once, the first card's with high priority, and the others lazily", async ({
  request,
}) => {
  const html = await (await request.get('/c/hruba-stavba')).text();
  const cards = [...html.matchAll(/<img class="cat-card__image"[^>]*>/g)].map((match) => match[0]);
  expect(cards.length).toBeGreaterThan(2);
  for (const first of cards.slice(0, 2)) {
    expect(first).not.toContain('loading="lazy"');
    expect(first).toContain('decoding="sync"');
    expect(first).toMatch(/width="320" height="240"/);
    expect(first).toMatch(/srcSet="[^"]*\?w=320 320w/);
  }
  // The page's largest paint is the first card's picture: the rest of the row does not share the line with it.
  expect(cards[0]).toContain('fetchPriority="high"');
  expect(cards[1]).toContain('fetchPriority="low"');
  for (const later of cards.slice(2)) expect(later).toContain('loading="lazy"');
});

test("a phone fetches the product's main picture once, at a width its screen needs", async ({ page, request }) => {
  const path = await someProductUrl(request);
  const detail = (await (await request.get(`/api/product/${path.slice(3)}`)).json()) as { data: { p_images: string[] } };
  const main = detail.data.p_images[0]!;
  await page.setViewportSize({ width: 412, height: 823 });
  const fetched: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname === main) fetched.push(`${url.search} ${response.status()} ${response.headers()['content-type']}`);
  });
  await page.goto(path);
  await expect(page.locator('.cat-gallery__main img')).toHaveJSProperty('complete', true);
  // The preload and the <img> pick the same width (412 px at a device pixel ratio of 1: the 480 drawing).
  expect(fetched).toEqual(['?w=480 200 image/png']);
});

test("every script of a page's first render was announced in its HTML", async ({ page, request }) => {
  const product = await someProductUrl(request);
  for (const entry of PAGES) {
    const path = entry === 'product' ? product : entry;
    const scripts: string[] = [];
    const listener = (req: Request) => {
      if (req.resourceType() === 'script') scripts.push(req.url());
    };
    page.on('request', listener);
    // goto (fixtures.ts) returns once the page is interactive: what it ran until then is its first render.
    const response = await page.goto(path);
    page.off('request', listener);
    const html = await response!.text();
    const base = new URL(response!.url());
    const announced = new Set(announcedScripts(html).map((url) => new URL(url, base).href));
    const late = scripts.filter((url) => !announced.has(url) && !url.includes('googletagmanager'));
    expect(late, `${path}: scripts not announced in the HTML`).toEqual([]);
  }
});

test("a page's HTML paints on its own: styles inline, and no script asked for by a tag of the HTML", async ({ request }) => {
  const product = await someProductUrl(request);
  for (const path of ['/', '/c/hruba-stavba', product, '/checkout/cart']) {
    const html = await (await request.get(path)).text();
    expect(html, `${path}: a render-blocking stylesheet`).not.toMatch(/<link[^>]*rel="stylesheet"/i);
    // A module script with src runs as soon as the document is parsed, before the browser's first paint when it is cached;
    // a modulepreload link is fetched at once, competing with the HTML and the main picture: the loader decides when.
    expect(html, `${path}: a module script run at the end of parsing`).not.toMatch(/<script[^>]*type="module"[^>]*src=/i);
    expect(html, `${path}: scripts fetched by a tag of the HTML`).not.toMatch(/<link[^>]*rel="modulepreload"/i);
    const loader = /<script>([^<]*first-contentful-paint[^<]*)<\/script>/.exec(html)?.[1] ?? '';
    expect(/import\(entry\)/.test(loader), `${path}: the shell's entry started after the first contentful paint`).toBe(true);
    expect(announcedScripts(html).length, `${path}: the scripts the loader asks for`).toBeGreaterThan(10);
  }
});

/**
 * When the scripts are asked for: at the first paint, on a page whose first view is a picture (a
 * product) and on one without (the basket): asked from the head, they put Lighthouse's simulated
 * LCP of the basket and the home page past their budgets. The boot itself runs after that paint.
 */
test('the scripts are asked for, and the boot runs, after the first paint, on a product page and on the basket', async ({
  page,
  request,
}) => {
  const product = await someProductUrl(request);
  for (const path of [product, '/checkout/cart']) {
    await page.goto(path);
    const timing = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      boot: performance.getEntriesByName('shop:boot', 'mark')[0]?.startTime ?? Number.NaN,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => /\.js$/.test(new URL(entry.name).pathname))
        .map((entry) => entry.startTime),
    }));
    expect(timing.scripts.length, `${path}: the scripts of the first render`).toBeGreaterThan(10);
    expect(Math.min(...timing.scripts), `${path}: the first script asked for after the first paint`).toBeGreaterThanOrEqual(timing.paint);
    expect(timing.boot, `${path}: the boot after the first paint`).toBeGreaterThan(timing.paint);
  }
});

test.describe('on a phone', () => {
  // The summary under the lines, its amounts in a narrow column; the page opens at this size (no
  // resize while a page loads, which no phone does).
  test.use({ viewport: { width: 412, height: 823 } });

  test("the basket's lines arrive below its server-rendered frame: nothing on the page moves", async ({ page, request }) => {
    const variants = await findVariants(request, 2);
    await fillBasket(
      page,
      request,
      variants.map((variant) => ({ v_id: variant.v_id, amount: 1 })),
    );
    const shifts = await recordLayoutShifts(page);
    await page.goto('/checkout/cart');
    await expect(page.getByTestId('basket-line')).toHaveCount(2);
    await expect(page.getByTestId('shipping-estimate')).not.toHaveText('—');
    expect(await shifts()).toEqual([]);
  });
});

/**
 * The header's height must not depend on how wide its actions are once laid out (a name that wraps
 * makes it taller and moves the page below): on phones from 360 to 412 px, with a basket, the shop's
 * name is one line and shown whole, and nothing is wider than the screen.
 */
for (const width of [360, 390, 412]) {
  test.describe(`on a ${width} px phone`, () => {
    test.use({ viewport: { width, height: 800 } });

    test("the header shows the shop's name whole on one line beside a basket", async ({ page, request }) => {
      const [variant] = await findVariants(request, 1);
      await fillBasket(page, request, [{ v_id: variant!.v_id, amount: 3 }]);
      await page.goto('/c/hruba-stavba');
      await expect(page.locator('html[data-interactive]')).toBeAttached();
      await expect(page.getByTestId('basket-count')).toHaveText('3');
      const name = await page.locator('.logo__text').evaluate((element) => ({
        lines: Math.round(element.getBoundingClientRect().height / parseFloat(getComputedStyle(element).lineHeight)),
        whole: element.scrollWidth <= element.clientWidth,
      }));
      expect(name).toEqual({ lines: 1, whole: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    });
  });
}

/**
 * On a slow phone the browser paints while it is still parsing the page and before it has measured
 * every control: a header or a toolbar painted half-built, then completed, moves what is below it.
 * With the CPU slowed sixfold, a category page and a product page load a few times each without a
 * single layout shift.
 */
test.describe('on a slow phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a category page and a product page paint without a layout shift', async ({ page }) => {
    test.setTimeout(60_000);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    const shifts = await recordLayoutShifts(page);
    for (const path of ['/c/tehly', '/p/tehla-porotherm-30-t-profi', '/c/tehly', '/p/tehla-porotherm-30-t-profi']) {
      await page.goto(path);
      await expect(page.locator('html[data-interactive]')).toBeAttached({ timeout: 20_000 });
      expect({ path, shifts: await shifts() }).toEqual({ path, shifts: [] });
    }
  });
});
