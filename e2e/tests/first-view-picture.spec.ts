/**
 * The picture a page's first view waits for is asked for from the head: a category page's first card's
 * picture and a product's main picture, preloaded with the same address, widths and layout as their
 * `<img>`, so a phone's browser fetches that picture once (the preload's file serves the `<img>`).
 * Pages without such a picture preload no image from their head.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

// Lighthouse's mobile screen.
test.use({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 });

/** The head's image preloads of a page, as the server sent them. */
async function headImagePreloads(request: APIRequestContext, path: string): Promise<string[]> {
  const html = await (await request.get(path)).text();
  const head = html.slice(0, html.indexOf('</head>'));
  return [...head.matchAll(/<link rel="preload" as="image"[^>]*>/g)].map((match) => match[0]);
}

/** Every request of the page for a picture (any width), by its address without the width. */
function picturesRequested(page: Page): Map<string, string[]> {
  const requested = new Map<string, string[]>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/media/')) return;
    requested.set(url.pathname, [...(requested.get(url.pathname) ?? []), url.search]);
  });
  return requested;
}

async function expectOneFetch(page: Page, path: string, image: string, width: number): Promise<void> {
  const requested = picturesRequested(page);
  await page.goto(path);
  const picture = page.locator(image).first();
  await expect(picture).toHaveJSProperty('complete', true);
  const { src, srcset, sizes, currentSrc } = await picture.evaluate((element: HTMLImageElement) => ({
    src: element.getAttribute('src'),
    srcset: element.getAttribute('srcset'),
    sizes: element.getAttribute('sizes'),
    currentSrc: element.currentSrc,
  }));
  const preload = await page.locator('head link[rel="preload"][as="image"]').evaluateAll((links) =>
    links.map((link) => ({
      href: link.getAttribute('href'),
      srcset: link.getAttribute('imagesrcset'),
      sizes: link.getAttribute('imagesizes'),
    })),
  );
  expect(preload, `${path}: the head preloads the picture the page shows`).toEqual([{ href: src, srcset, sizes }]);
  const current = new URL(currentSrc);
  expect(current.search, `${path}: the width a 412 px screen at density 1.75 needs`).toBe(`?w=${width}`);
  expect(requested.get(current.pathname), `${path}: the picture is fetched once`).toEqual([`?w=${width}`]);
}

test("a category page's first card's picture is preloaded from the head and fetched once", async ({ page }) => {
  // A card is half the screen: 206 px at density 1.75 is the 480 px drawing.
  await expectOneFetch(page, '/c/hruba-stavba', 'img.cat-card__image', 480);
});

test("a product's main picture is preloaded from the head and fetched once", async ({ page, request }) => {
  const answer = (await (await request.get('/api/products?category=hruba-stavba')).json()) as { data: { p_url: string }[] };
  // The main picture is the screen's width: 412 px at density 1.75 is more than the widest drawing.
  await expectOneFetch(page, `/p/${answer.data[0]!.p_url}`, '.cat-gallery__main img', 640);
});

test('pages without a first-view picture preload no image from the head', async ({ request }) => {
  for (const path of ['/', '/blog', '/s/obchodne-podmienky', '/checkout/cart', '/c/neznama-kategoria']) {
    expect(await headImagePreloads(request, path), path).toEqual([]);
  }
  expect(await headImagePreloads(request, '/c/hruba-stavba')).toHaveLength(1);
});
