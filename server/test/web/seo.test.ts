/**
 * What crawlers and price comparators read: robots.txt, the sitemap index and its files (split at
 * the per-file limit, nothing lost or doubled), and the Heureka.sk and Google Merchant Center feeds
 * (only their published elements, the shop's own prices, special characters escaped).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { unitPriceBeforeSale, unitPriceWithVat } from '@shop/shared-kernel/rules';
import type { ProductDetail } from '@shop/shared-kernel/contract';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';

const ORIGIN = 'http://localhost:3000';
const PER_FILE = 40;
/** Heureka.sk's SHOPITEM elements (its published feed specification) and Google's item attributes. */
const HEUREKA_ELEMENTS = new Set([
  'ITEM_ID',
  'PRODUCTNAME',
  'PRODUCT',
  'DESCRIPTION',
  'URL',
  'IMGURL',
  'IMGURL_ALTERNATIVE',
  'VIDEO_URL',
  'PRICE_VAT',
  'ITEM_TYPE',
  'HEUREKA_CPC',
  'MANUFACTURER',
  'CATEGORYTEXT',
  'EAN',
  'ISBN',
  'PARAM',
  'DELIVERY_DATE',
  'DELIVERY',
  'ITEMGROUP_ID',
  'ACCESSORY',
  'GIFT',
  'EXTENDED_WARRANTY',
  'SPECIAL_SERVICE',
  'PRODUCTNO',
]);
const GOOGLE_ELEMENTS = new Set([
  'g:id',
  'g:title',
  'g:description',
  'g:link',
  'g:image_link',
  'g:additional_image_link',
  'g:availability',
  'g:price',
  'g:sale_price',
  'g:brand',
  'g:gtin',
  'g:mpn',
  'g:identifier_exists',
  'g:condition',
  'g:item_group_id',
  'g:product_type',
  'g:google_product_category',
  'g:shipping_weight',
  'g:shipping',
  'g:color',
  'g:size',
  'g:material',
]);

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ sitemapUrlsPerFile: PER_FILE });
  // A product whose name needs escaping in XML.
  await api.db.updateTable('products').set({ p_name: 'Lepidlo & tmel <ľahký> "A"' }).where('p_id', '=', 1).execute();
});
afterAll(async () => {
  await api?.close();
});

const parser = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['url', 'sitemap', 'SHOPITEM', 'item'].includes(name) });
function parsed<T>(text: string): T {
  expect(XMLValidator.validate(text)).toBe(true);
  return parser.parse(text) as T;
}
const urlsOf = (text: string) => parsed<{ urlset: { url?: { loc: string }[] } }>(text).urlset.url?.map((u) => u.loc) ?? [];

describe('robots.txt and sitemaps', () => {
  it('robots.txt points at the sitemap on the configured origin, whatever Host the request names', async () => {
    const res = await api.request('GET', '/robots.txt', { headers: { host: 'evil.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.text).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    expect(res.text).not.toContain('evil.example');
    expect(res.text).toMatch(/Disallow: \/checkout/);
  });

  it('the index lists every file; the product files hold every product exactly once, at most the limit each', async () => {
    const count = Number(
      (
        await api.db
          .selectFrom('products')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const index = await api.get('/sitemap.xml');
    expect(index.headers.get('content-type')).toContain('application/xml');
    const files = parsed<{ sitemapindex: { sitemap: { loc: string }[] } }>(index.text).sitemapindex.sitemap.map((s) => s.loc);
    const productFiles = files.filter((file) => /\/sitemaps\/products-\d+\.xml$/.test(file));
    expect(productFiles.length).toBe(Math.ceil(count / PER_FILE));
    expect(files).toContain(`${ORIGIN}/sitemaps/pages.xml`);

    const seen: string[] = [];
    for (const file of productFiles) {
      const urls = urlsOf((await api.get(file.replace(ORIGIN, ''))).text);
      expect(urls.length).toBeLessThanOrEqual(PER_FILE);
      seen.push(...urls);
    }
    expect(seen.length).toBe(count);
    expect(new Set(seen).size).toBe(count);
    // Every product address is a product the API knows.
    for (const loc of [seen[0]!, seen.at(-1)!]) {
      const slug = loc.replace(`${ORIGIN}/p/`, '');
      expect((await api.get(`/api/product/${slug}`)).status).toBe(200);
    }
    const beyond = await api.get(`/sitemaps/products-${productFiles.length + 1}.xml`);
    expect(beyond.status).toBe(404);
    expect(beyond.body.error.code).toBe('not_found');
  });

  it('pages, categories and brands are addresses the shop serves', async () => {
    const categories = urlsOf((await api.get('/sitemaps/categories.xml')).text);
    expect(categories.length).toBeGreaterThan(5);
    for (const loc of categories.slice(0, 5)) expect((await api.get(`/api/category/${loc.replace(`${ORIGIN}/c/`, '')}`)).status).toBe(200);
    const brands = urlsOf((await api.get('/sitemaps/brands.xml')).text);
    expect(brands.length).toBeGreaterThan(0);
    const pages = urlsOf((await api.get('/sitemaps/pages.xml')).text);
    expect(pages).toContain(`${ORIGIN}/`);
    expect(pages.some((loc) => loc.startsWith(`${ORIGIN}/blog/clanok/`))).toBe(true);
    const page = pages.find((loc) => loc.startsWith(`${ORIGIN}/s/`))!;
    expect((await api.get(`/api/page/${page.replace(`${ORIGIN}/s/`, '')}`)).status).toBe(200);
  });
});

describe('product feeds', () => {
  type HeurekaItem = Record<string, string | number>;
  type GoogleItem = Record<string, string | number>;

  it("Heureka: only its elements, the shop's prices with VAT, no unavailable variant, names escaped", async () => {
    const res = await api.get('/feeds/heureka.xml');
    expect(res.status).toBe(200);
    const items = parsed<{ SHOP: { SHOPITEM: HeurekaItem[] } }>(res.text).SHOP.SHOPITEM;
    expect(items.length).toBeGreaterThan(10);
    for (const item of items) for (const name of Object.keys(item)) expect(HEUREKA_ELEMENTS.has(name), name).toBe(true);
    expect(res.text).toContain('Lepidlo &amp; tmel &lt;ľahký&gt; &quot;A&quot;');

    const unavailable = await api.db.selectFrom('variants').select('v_code').where('v_availability', '=', 'unavailable').execute();
    const codes = new Set(items.map((item) => String(item.ITEM_ID)));
    for (const { v_code } of unavailable) expect(codes.has(v_code)).toBe(false);

    const sample = items.find((item) => String(item.URL).includes('/p/'))!;
    const detail = (await api.get(`/api/product/${String(sample.URL).replace(`${ORIGIN}/p/`, '')}`)).body.data as ProductDetail;
    const variant = detail.variants.find((v) => v.v_code === String(sample.ITEM_ID))!;
    expect(Number(sample.PRICE_VAT).toFixed(2)).toBe((unitPriceWithVat(variant) / 1000).toFixed(2));
  });

  it('Google: RSS with its g: attributes, price before and sale price after the discount', async () => {
    const res = await api.get('/feeds/google.xml');
    expect(res.status).toBe(200);
    const channel = parsed<{ rss: { '@_xmlns:g': string; channel: { item: GoogleItem[] } } }>(res.text).rss;
    expect(channel['@_xmlns:g']).toBe('http://base.google.com/ns/1.0');
    const items = channel.channel.item;
    for (const item of items) for (const name of Object.keys(item)) expect(GOOGLE_ELEMENTS.has(name), name).toBe(true);
    for (const item of items) expect(['in_stock', 'backorder', 'out_of_stock']).toContain(item['g:availability']);

    const discounted = await api.db
      .selectFrom('variants')
      .select(['v_code', 'v_sell_price', 'v_vat', 'v_sale'])
      .where('v_sale', '>', 0)
      .where('v_availability', '!=', 'unavailable')
      .executeTakeFirstOrThrow();
    const item = items.find((candidate) => String(candidate['g:id']) === discounted.v_code)!;
    const input = { v_sellPrice: discounted.v_sell_price, v_vat: discounted.v_vat, v_sale: discounted.v_sale };
    expect(item['g:price']).toBe(`${(unitPriceBeforeSale(input) / 1000).toFixed(2)} EUR`);
    expect(item['g:sale_price']).toBe(`${(unitPriceWithVat(input) / 1000).toFixed(2)} EUR`);
  });
});

describe('/favicon.ico', () => {
  it("is the shop's icon, so a document without one of its own (a PDF, an answer of the API) gets no 404", async () => {
    const res = await api.get('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.text).toContain('<svg');
  });
});

describe('a flood of feed requests', () => {
  it('streams at most a few at once; the others get a quick 429 in the error shape, not cached, and a later try works', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => api.get('/feeds/google.xml')));
    const refused = answers.filter((res) => res.status === 429);
    expect(answers.filter((res) => res.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const res of refused) {
      expect(res.body.error.code).toBe('rate_limited');
      expect(res.headers.get('retry-after')).toBe('60');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect((await api.get('/feeds/google.xml')).status).toBe(200);
    // HEAD requests (crawlers checking) read no catalog and take no slot, even several at once.
    const heads = await Promise.all(Array.from({ length: 6 }, () => api.request('HEAD', '/sitemaps/products-1.xml')));
    expect(heads.map((res) => res.status)).toEqual(Array.from({ length: 6 }, () => 200));
    expect(heads[0]!.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect((await api.get('/feeds/heureka.xml')).status).toBe(200);
  });
});
