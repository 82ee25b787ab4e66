/**
 * Every server-rendered route of every area declares all the data its page asks for: the page,
 * rendered by the shell with only the data its route declares (loaded from a real API on the seed
 * data), asks `useResource` for no other key. A page that still discovered data while rendering
 * would cost the server a render per round of discovery, and it is refused here.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
// eslint-disable-next-line no-restricted-imports -- the pages' own API client, pointed at the test's API as the server points it at itself
import { configureApi } from '@shop/shared-kernel';
import type { BasketEntry, ServerRender, SettledLoad } from '@shop/shared-kernel/contract';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';
import { areaSources, pageConfig, renderAll, shellFromSource } from '../helpers/shell-from-source.ts';

// The shell as its server build has it: area modules from the server, not through the federation runtime.
vi.mock('../../../shell/src/areas/module-source.ts', () => import('../../../shell/src/areas/module-source.server.ts'));
const { forgetLayoutHtml, layoutParts } = await import('../../../shell/src/components/layout-html.ts');

let api: TestApi;
/** Sample URLs of each server-rendered route, on the seed data (a new route needs its own here). */
let samples: Record<string, string[]>;

beforeAll(async () => {
  api = await startTestApi();
  configureApi({ baseUrl: api.baseUrl });
  const menu = (await api.get('/api/menu')).body.data;
  const home = (await api.get('/api/home')).body.data;
  const product = (await api.get('/api/products?category=' + menu.categories[0].cat_url)).body.data[0];
  const posts = (await api.get('/api/blog')).body.data;
  const tags = (await api.get('/api/blog/tags')).body.data;
  const category = menu.categories[0].cat_url;
  samples = {
    home: ['/'],
    category: [`/c/${category}`, `/c/${category}?page=2&sort=name&avail=in_stock`, '/c/neznama-kategoria'],
    product: [`/p/${product.p_url}`, '/p/neznamy-produkt'],
    brand: [`/b/${home.brands[0].b_url}`, `/b/${home.brands[0].b_url}?sort=price-asc`],
    sale: ['/vypredaj', '/vypredaj?page=3'],
    search: [`/search/${encodeURIComponent(product.p_name.split(' ')[0])}`, '/search/zzzxqy', '/search/a'],
    'search-empty': ['/search'],
    site: ['/s/obchodne-podmienky', '/s/neznama-stranka'],
    contact: ['/s/kontakt'],
    blog: ['/blog', '/blog?page=2'],
    'blog-tag': [`/blog/${tags[0].slug}`],
    'blog-post': [`/blog/clanok/${posts[0].slug}`],
    'shipping-payment': ['/doprava-a-platba'],
    'checkout-cart': ['/checkout/cart'],
  };
});
afterAll(async () => {
  configureApi({ baseUrl: '' });
  await api?.close();
});

/** The page's declared data, loaded as the server loads it. */
async function declaredData(shell: ReturnType<typeof shellFromSource>, url: string, basket?: BasketEntry[]) {
  const declared = await shell.pageData!(url, { basket });
  expect(declared, url).not.toBeNull();
  const data = new Map<string, SettledLoad>();
  let notFound = false;
  for (const { key, load } of declared!.loads) {
    const settled: SettledLoad = await load(new AbortController().signal).then(
      (answer) => ({ ok: true, data: answer }),
      (error: { status?: number; message: string }) => ({ ok: false, status: error.status ?? 500, message: error.message }),
    );
    expect(settled.ok || settled.status === 404, `${url}: ${key}`).toBe(true);
    if (!settled.ok) notFound = true;
    data.set(key, settled);
  }
  return { data, notFound };
}

/** What the server gives a render: the data, and `keys` collects what the page asks for beyond it. */
function serverRender(data: Map<string, SettledLoad>, notFound: boolean, keys: string[] = [], basket?: BasketEntry[]): ServerRender {
  return {
    data,
    notFound,
    ...(basket ? { basket } : {}),
    origin: 'http://shop.test',
    collect: (key) => void keys.push(key),
    meta: () => {},
    jsonLd: () => {},
    styles: () => {},
  };
}

describe('route data', () => {
  it('every server-rendered route of every area has sample pages here', () => {
    const rendered = Object.values(areaSources).flatMap(({ routes }) =>
      routes.filter((route) => route.serverRender).map((route) => route.name),
    );
    expect(rendered.filter((name) => !samples[name])).toEqual([]);
  });

  it('each page renders once with only the data its route declares, and asks for nothing else', async () => {
    const shell = shellFromSource();
    const undeclared: { url: string; keys: string[] }[] = [];
    const statuses: Record<string, number> = {};
    for (const url of Object.values(samples).flat()) {
      const { data, notFound } = await declaredData(shell, url);
      const keys: string[] = [];
      const html = await renderAll(shell.page({ url, config: pageConfig, server: serverRender(data, notFound, keys) }));
      expect(html).toContain('site-header');
      if (keys.length > 0) undeclared.push({ url, keys });
      statuses[url] = notFound ? 404 : 200;
    }
    expect(undeclared).toEqual([]);
    // An unknown product, category or page is the 404 page, known from the declared data alone.
    expect(statuses['/p/neznamy-produkt']).toBe(404);
    expect(statuses['/c/neznama-kategoria']).toBe(404);
    expect(statuses['/s/neznama-stranka']).toBe(404);
    expect(statuses['/']).toBe(200);
  });
});

describe("the basket page with the basket's cookie", () => {
  it("renders the shopper's lines from the one call its route declares, read-only until it hydrates, with the way on", async () => {
    const shell = shellFromSource();
    const [first, second] = await api.db.selectFrom('variants').select('v_id').orderBy('v_id').limit(2).execute();
    const basket = [
      { v_id: first!.v_id, amount: 3 },
      { v_id: second!.v_id, amount: 1 },
      { v_id: 987_654, amount: 2 },
    ];
    const url = '/checkout/cart';
    const { data, notFound } = await declaredData(shell, url, basket);
    expect([...data.keys()].filter((key) => key.startsWith('GET /api/product/variants'))).toHaveLength(1);
    const keys: string[] = [];
    const html = await renderAll(shell.page({ url, config: pageConfig, server: serverRender(data, notFound, keys, basket) }));
    expect(keys).toEqual([]);
    const lines = html.match(/data-testid="basket-line"/g) ?? [];
    // The variant the shop does not have is left for the browser's basket to show.
    expect(lines).toHaveLength(2);
    expect(html).toContain('chk-continue');
    expect(html).toMatch(/aria-label="Zvýšiť množstvo [^"]+" disabled=""/);
    expect(html).not.toContain('aria-busy="true"');
    // Without the cookie: the frame and its placeholder, nothing asked for.
    const frame = await declaredData(shell, url);
    expect([...frame.data.keys()].some((key) => key.includes('/api/product/variants'))).toBe(false);
    const plain = await renderAll(shell.page({ url, config: pageConfig, server: serverRender(frame.data, frame.notFound) }));
    expect(plain).toContain('aria-busy="true"');
    expect(plain).not.toContain('data-testid="basket-line"');
  });
});

describe('the layout kept as HTML', () => {
  it('a page with the menu and footer spliced in from HTML is the page rendered whole, byte for byte', async () => {
    const shell = shellFromSource();
    const menu = (await api.get('/api/menu')).body.data;
    // The menu marks the page's own category (NavLink): each active link is its own HTML.
    const urls = [
      '/',
      `/c/${menu.categories[0].cat_url}`,
      `/c/${menu.categories[1].cat_url}?page=2`,
      samples.product![0]!,
      menu.links[0].url,
      '/blog',
    ];
    for (const url of urls) {
      const { data, notFound } = await declaredData(shell, url);
      forgetLayoutHtml();
      const whole = await renderAll(shell.page({ url, config: pageConfig, server: serverRender(data, notFound) }));
      shell.prepare!({ url, server: serverRender(data, notFound) });
      const spliced = await renderAll(shell.page({ url, config: pageConfig, server: serverRender(data, notFound) }));
      expect(spliced, url).toBe(whole);
    }
  });

  it('the menu and footer are kept once per their data, and a changed menu is rendered anew', async () => {
    const shell = shellFromSource();
    const url = samples.product![0]!;
    const { data, notFound } = await declaredData(shell, url);
    forgetLayoutHtml();
    shell.prepare!({ url, server: serverRender(data, notFound) });
    const menu = (data.get('GET /api/menu') as { data: { data: { categories: { cat_name: string }[] } } }).data.data;
    // A changed menu (another name) is new HTML; the kept one is not shown for it.
    const renamed = structuredClone(menu);
    renamed.categories[0]!.cat_name = 'Premenovaná kategória';
    const changed = new Map(data).set('GET /api/menu', { ok: true, data: { data: renamed } });
    shell.prepare!({ url, server: serverRender(changed, notFound) });
    const html = await renderAll(shell.page({ url, config: pageConfig, server: serverRender(changed, notFound) }));
    const nav = /<nav class="main-menu"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
    expect(nav).toContain('>Premenovaná kategória<');
    expect(nav).not.toContain(`>${menu.categories[0]!.cat_name}<`);
    // Kept: both menus, and the footer once.
    expect(layoutParts()).toBe(3);
  });
});
