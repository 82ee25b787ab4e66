/**
 * The picture a page's first view waits for (its largest paint) is declared by the component that
 * shows it, and the server's head preloads exactly that picture: the same address, widths and
 * layout as the `<img>`, so the browser picks one file for both. Pages without such a picture get
 * no image preload. Rendered by the shell from source, on the seed data, as route-data.test.ts does.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
// eslint-disable-next-line no-restricted-imports -- the pages' own API client, pointed at the test's API as the server points it at itself
import { configureApi } from '@shop/shared-kernel';
import type { PagePicture, SettledLoad } from '@shop/shared-kernel/contract';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';
import { picturePreloadLink } from '../../src/web/picture-preload.ts';
import { pageConfig, renderAll, shellFromSource } from '../helpers/shell-from-source.ts';

// The shell as its server build has it: area modules from the server, not through the federation runtime.
vi.mock('../../../shell/src/areas/module-source.ts', () => import('../../../shell/src/areas/module-source.server.ts'));

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  configureApi({ baseUrl: api.baseUrl });
});
afterAll(async () => {
  configureApi({ baseUrl: '' });
  await api?.close();
});

/** The page rendered as the server renders it: its HTML and what it declared for the head. */
async function render(server: ReturnType<typeof shellFromSource>, url: string) {
  const data = new Map<string, SettledLoad>();
  for (const { key, load } of (await server.pageData!(url))!.loads) {
    data.set(key, { ok: true, data: await load(new AbortController().signal) });
  }
  const declared: PagePicture[] = [];
  let image: string | null = null;
  const element = server.page({
    url,
    config: pageConfig,
    server: {
      data,
      origin: 'http://shop.test',
      meta: (meta) => void (image = meta.image ?? null),
      picture: (picture) => void declared.push(picture),
      jsonLd: () => {},
      styles: () => {},
    },
  });
  const html = await renderAll(element);
  return { html, declared, preload: picturePreloadLink({ meta: { title: null, image }, picture: declared[0] ?? null }) };
}

/** An `<img>`'s src, srcset and sizes as React wrote them. */
function imageAttributes(tag: string): PagePicture {
  const attribute = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1]?.replace(/&amp;/g, '&');
  return { src: attribute('src')!, srcSet: attribute('srcSet'), sizes: attribute('sizes') };
}

const preloadOf = (picture: PagePicture) =>
  `<link rel="preload" as="image" href="${picture.src}" imagesrcset="${picture.srcSet}" imagesizes="${picture.sizes}" fetchpriority="high">`;

describe("the first view's picture", () => {
  it("a category page preloads exactly its first card's picture", async () => {
    const server = shellFromSource();
    const category = (await api.get('/api/menu')).body.data.categories[0].cat_url as string;
    for (const url of [`/c/${category}`, `/c/${category}?page=2&sort=name`, '/vypredaj']) {
      const { html, declared, preload } = await render(server, url);
      const first = /<img class="cat-card__image"[^>]*>/.exec(html)?.[0];
      expect(first, url).toBeDefined();
      expect(declared, url).toEqual([imageAttributes(first!)]);
      expect(declared[0]!.srcSet, `${url}: a choice of widths`).toMatch(/\?w=480 480w/);
      expect(preload, url).toBe(preloadOf(declared[0]!));
    }
  });

  it("a product page preloads its gallery's main picture", async () => {
    const server = shellFromSource();
    const category = (await api.get('/api/menu')).body.data.categories[0].cat_url as string;
    const product = (await api.get(`/api/products?category=${category}`)).body.data[0].p_url as string;
    const { html, declared, preload } = await render(server, `/p/${product}`);
    const main = /<div class="cat-gallery__main"><img[^>]*>/.exec(html)?.[0];
    expect(main).toBeDefined();
    expect(declared).toEqual([imageAttributes(main!)]);
    expect(preload).toBe(preloadOf(declared[0]!));
  });

  it('pages without such a picture preload none', async () => {
    const server = shellFromSource();
    for (const url of ['/', '/blog', '/s/obchodne-podmienky', '/checkout/cart']) {
      const { declared, preload } = await render(server, url);
      expect(declared, url).toEqual([]);
      expect(preload, url).toBe('');
    }
  });

  it('a preload names only pictures of the shop, escaped', () => {
    const meta = { title: null };
    expect(picturePreloadLink({ meta, picture: { src: 'https://elsewhere.example/x.png' } })).toBe('');
    expect(picturePreloadLink({ meta, picture: { src: '//elsewhere.example/x.png' } })).toBe('');
    expect(picturePreloadLink({ meta, picture: { src: '/media/p/1.png?w=320&x="' } })).toBe(
      '<link rel="preload" as="image" href="/media/p/1.png?w=320&amp;x=&quot;" fetchpriority="high">',
    );
  });
});
