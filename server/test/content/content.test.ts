import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CategoryNode, MenuData, RedirectEntry, SiteData, StaticPage } from '@shop/shared-kernel/contract';
import { IMAGE_DEFAULT_WIDTH, IMAGE_WIDTHS } from '@shop/shared-kernel/rules';
import { expectErrorShape, startTestApi } from '../helpers/test-api.ts';
import type { TestApi } from '../helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

function checkNode(node: CategoryNode): number {
  expect(typeof node.cat_id).toBe('number');
  expect(typeof node.cat_url).toBe('string');
  expect(typeof node.cat_name).toBe('string');
  expect(Array.isArray(node.children)).toBe(true);
  return 1 + node.children.reduce((sum, child) => sum + checkNode(child), 0);
}

describe('menu, site, pages', () => {
  it('GET /api/menu gives the whole category tree and links', async () => {
    const res = await api.get<{ data: MenuData }>('/api/menu');
    expect(res.status).toBe(200);
    const { categories, links } = res.body.data;
    const total = categories.reduce((sum, n) => sum + checkNode(n), 0);
    expect(total).toBeGreaterThanOrEqual(25);
    expect(categories[0]!.cat_name).toBe('Hrubá stavba');
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(Object.keys(link).sort()).toEqual(['label', 'url']);
  });

  it('GET /api/site gives the shop data', async () => {
    const res = await api.get<{ data: SiteData }>('/api/site');
    expect(res.status).toBe(200);
    const site = res.body.data;
    expect(site.name).toBe('Stavebniny Domov');
    expect(site.phone).toMatch(/^\+421/);
    expect(site.address.country).toBe('Slovensko');
    expect(site.company.ico).toMatch(/^\d{8}$/);
    expect(site.company.icDph).toMatch(/^SK\d{10}$/);
    expect(site.footerLinks.some((l) => l.url === '/s/obchodne-podmienky')).toBe(true);
  });

  it('GET /api/page/:slug gives a static page, 404 for an unknown one', async () => {
    for (const slug of [
      'kontakt',
      'ochrana-sukromia',
      'vernostny-program',
      'obchodne-podmienky',
      'reklamacny-poriadok',
      'doprava-a-platba',
    ]) {
      const res = await api.get<{ data: StaticPage }>(`/api/page/${slug}`);
      expect(res.status).toBe(200);
      expect(res.body.data.slug).toBe(slug);
      expect(res.body.data.title.length).toBeGreaterThan(3);
      expect(res.body.data.metaDescription.length).toBeGreaterThan(10);
      expect(res.body.data.contentHtml).toContain('<h2>');
      // The page title is the page's only h1; content starts below it.
      expect(res.body.data.contentHtml).not.toContain('<h1');
      expect(res.body.data.contentHtml).not.toMatch(/<script|onerror=|onclick=/i);
    }
    const missing = await api.get('/api/page/neexistuje');
    expect(missing.status).toBe(404);
    expectErrorShape(missing.body, 'not_found');
  });
});

describe('redirects', () => {
  it('GET /api/redirect/list gives old_url/new_url pairs', async () => {
    const res = await api.get<{ data: RedirectEntry[] }>('/api/redirect/list');
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThanOrEqual(3);
    for (const entry of res.body.data) expect(Object.keys(entry).sort()).toEqual(['new_url', 'old_url']);
    expect(res.body.data).toContainEqual({ old_url: '/stara-kategoria/tehly', new_url: '/c/tehly' });
    expect(res.body.data).toContainEqual({ old_url: '/akcia', new_url: '/vypredaj' });
  });

  it('GET /api/redirect?path= finds one redirect, internal or external', async () => {
    expect((await api.get('/api/redirect?path=/akcia')).body).toEqual({ data: { to: '/vypredaj', external: false } });
    expect((await api.get('/api/redirect?path=/akcia/')).body).toEqual({ data: { to: '/vypredaj', external: false } });
    expect((await api.get('/api/redirect?path=%2Fstara-kategoria%2Ftehly')).body).toEqual({
      data: { to: '/c/tehly', external: false },
    });
    expect((await api.get('/api/redirect?path=/katalog-2024')).body).toEqual({
      data: { to: 'https://www.example.sk/katalog', external: true },
    });
    expect((await api.get('/api/redirect?path=/c/tehly')).body).toEqual({ data: null });
  });

  it('GET /api/redirect without a path is a 400', async () => {
    const res = await api.get('/api/redirect');
    expect(res.status).toBe(400);
    expectErrorShape(res.body, 'validation_failed');
  });
});

describe('product images', () => {
  it('GET /media/p/:id.svg draws an SVG that caches forever', async () => {
    const product = await api.db.selectFrom('products').select(['p_id', 'p_name']).orderBy('p_id').executeTakeFirstOrThrow();
    const res = await api.get(`/media/p/${product.p_id}.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.text).toMatch(/^<svg [^>]*width="\d+" height="\d+"/);
    expect(res.text).toContain(product.p_name.split(' ')[0]);
    const missing = await api.get('/media/p/99999999.svg');
    expect(missing.status).toBe(404);
    expectErrorShape(missing.body, 'not_found');
  });

  /** The PNG's pixel size, from its header (IHDR). */
  async function png(
    path: string,
  ): Promise<{ status: number; type: string | null; cache: string | null; width: number; height: number; bytes: Buffer }> {
    const res = await fetch(`${api.baseUrl}${path}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    const isPng = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      cache: res.headers.get('cache-control'),
      width: isPng ? bytes.readUInt32BE(16) : 0,
      height: isPng ? bytes.readUInt32BE(20) : 0,
      bytes,
    };
  }

  it("GET /media/p/:id.png draws the picture as a PNG at each of the kernel's widths, cached forever", async () => {
    const product = await api.db.selectFrom('products').select(['p_id']).orderBy('p_id').executeTakeFirstOrThrow();
    const whole = await png(`/media/p/${product.p_id}.png`);
    expect(whole).toMatchObject({
      status: 200,
      type: 'image/png',
      cache: 'public, max-age=31536000, immutable',
      width: IMAGE_DEFAULT_WIDTH,
      height: IMAGE_DEFAULT_WIDTH,
    });
    for (const width of IMAGE_WIDTHS) {
      expect(await png(`/media/p/${product.p_id}.png?w=${width}`)).toMatchObject({ status: 200, width, height: width });
    }
    // Drawn again from the cache: the same bytes.
    expect((await png(`/media/p/${product.p_id}.png`)).bytes.equals(whole.bytes)).toBe(true);
  });

  it("a product's PNG tells it apart from another, and follows a renamed product", async () => {
    const [first, second] = await api.db.selectFrom('products').select(['p_id', 'p_name']).orderBy('p_id').limit(2).execute();
    const before = await png(`/media/p/${first!.p_id}.png?w=160`);
    expect(before.bytes.equals((await png(`/media/p/${second!.p_id}.png?w=160`)).bytes)).toBe(false);
    await api.db
      .updateTable('products')
      .set({ p_name: `${first!.p_name} XL 99 kg` })
      .where('p_id', '=', first!.p_id)
      .execute();
    try {
      expect((await png(`/media/p/${first!.p_id}.png?w=160`)).bytes.equals(before.bytes)).toBe(false);
    } finally {
      await api.db.updateTable('products').set({ p_name: first!.p_name }).where('p_id', '=', first!.p_id).execute();
    }
  });

  it('a width the shop does not draw, an unknown product or a bad id is a clear 4xx', async () => {
    for (const [path, status, code] of [
      ['/media/p/1.png?w=333', 400, 'validation_failed'],
      ['/media/p/1.png?w=99999999999999999999', 400, 'validation_failed'],
      ['/media/p/99999999.png', 404, 'not_found'],
      ['/media/p/abc.png', 400, 'validation_failed'],
    ] as const) {
      const res = await api.get(path);
      expect(res.status, path).toBe(status);
      expectErrorShape(res.body, code);
    }
  });

  it('a flood of pictures to draw gets quick 429s beyond the queue, and the rest are drawn', async () => {
    const ids = (await api.db.selectFrom('products').select('p_id').orderBy('p_id', 'desc').limit(60).execute()).map((row) => row.p_id);
    const paths = ids.flatMap((id) => IMAGE_WIDTHS.map((width) => `/media/p/${id}.png?w=${width}`));
    const answers = await Promise.all(
      paths.map(async (path) => {
        const res = await fetch(`${api.baseUrl}${path}`);
        return {
          status: res.status,
          body: res.headers.get('content-type')?.includes('json') ? await res.json() : (await res.arrayBuffer(), null),
        };
      }),
    );
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length, 'some refused').toBeGreaterThan(0);
    for (const answer of refused) expectErrorShape(answer.body, 'rate_limited');
    expect(answers.filter((answer) => answer.status === 200).length, 'at least the queue drawn').toBeGreaterThanOrEqual(64);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
    // Afterwards a picture is drawn as usual.
    expect((await png(`/media/p/${ids[0]}.png?w=160`)).status).toBe(200);
  });
});
