/**
 * The levers of a fast first view, as tests rather than timings: a product page's HTML announces
 * its main image (high priority) and carries its data, and every script a page's first render
 * runs was announced in its HTML (a modulepreload or a script tag), so none is discovered late;
 * the page paints from its HTML alone: no stylesheet to wait for, and the shell starts after the first frame.
 */
import type { APIRequestContext, Request } from '@playwright/test';
import { expect, test } from './fixtures.ts';

const PAGES = ['/', '/c/hruba-stavba', 'product', '/checkout/cart', '/blog'];

async function someProductUrl(request: APIRequestContext): Promise<string> {
  const answer = (await (await request.get('/api/products?category=hruba-stavba')).json()) as { data: { p_url: string }[] };
  return `/p/${answer.data[0]!.p_url}`;
}

test('a product page\'s HTML announces its main image with high priority and carries its data', async ({ request }) => {
  const path = await someProductUrl(request);
  const detail = (await (await request.get(`/api/product/${path.slice(3)}`)).json()) as { data: { p_images: string[] } };
  const html = await (await request.get(path)).text();
  const image = /<img[^>]*fetchpriority="high"[^>]*>/i.exec(html)?.[0];
  expect(image, 'an image with fetchpriority="high"').toBeDefined();
  expect(image).toContain(`src="${detail.data.p_images[0]}"`);
  // Asked for ahead of the scripts, which would otherwise queue before it on the shop's connections.
  const preload = html.indexOf(`<link rel="preload" as="image" href="${detail.data.p_images[0]}" fetchpriority="high">`);
  expect(preload, 'the main image preloaded in the head').toBeGreaterThan(0);
  expect(preload, 'the image preload comes before the first script').toBeLessThan(html.indexOf('rel="modulepreload"'));
  const data = /<script type="application\/json" id="shop-server-data">(.*?)<\/script>/s.exec(html)?.[1];
  expect(JSON.parse(data!).data).toHaveProperty(`product:${path.slice(3)}`);
});

test('every script of a page\'s first render was announced in its HTML', async ({ page, request }) => {
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
    const announced = new Set(
      [...html.matchAll(/<(?:link rel="modulepreload"[^>]*href|script[^>]*src)="([^"]+)"/g)].map((match) => new URL(match[1]!, base).href),
    );
    const late = scripts.filter((url) => !announced.has(url) && !url.includes('googletagmanager'));
    expect(late, `${path}: scripts not announced in the HTML`).toEqual([]);
  }
});

test('a page\'s HTML paints on its own: its styles are inline and the shell starts from an animation frame, not as a parser-run module', async ({ request }) => {
  const product = await someProductUrl(request);
  for (const path of ['/', '/c/hruba-stavba', product, '/checkout/cart']) {
    const html = await (await request.get(path)).text();
    expect(html, `${path}: a render-blocking stylesheet`).not.toMatch(/<link[^>]*rel="stylesheet"/i);
    // A module script with src runs as soon as the document is parsed, before the browser's first paint when it is cached.
    expect(html, `${path}: a module script run at the end of parsing`).not.toMatch(/<script[^>]*type="module"[^>]*src=/i);
    const entry = /requestAnimationFrame\(\(\)=>setTimeout\(\(\)=>import\("([^"]+)"\)\)\)/.exec(html)?.[1];
    expect(entry, `${path}: the shell's entry started after the first frame`).toBeDefined();
    expect(html, `${path}: the entry is still fetched at once`).toContain(`<link rel="modulepreload" crossorigin href="${entry}">`);
  }
});
