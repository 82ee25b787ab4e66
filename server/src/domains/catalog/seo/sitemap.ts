/**
 * Sitemaps (sitemaps.org 0.9): an index over files of at most SITEMAP_URLS_PER_FILE addresses —
 * the shop's pages, categories, brands, and the products in id order, each product file streamed
 * from the database a batch at a time, so a 100,000-product catalog never sits in memory.
 */
import { shopPaths } from '@shop/shared-kernel/contract';
import { escapeHtml } from '../../../infra/pure/html.ts';
import type { SeoRepository } from './seo.repository.ts';

/** The protocol's limit of addresses per sitemap file. */
export const SITEMAP_URLS_PER_FILE = 50_000;
/** Rows read from the database per round while streaming. */
export const STREAM_BATCH = 1000;

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : null);

function url(origin: string, path: string, lastmod?: string | null): string {
  const modified = day(lastmod);
  return `<url><loc>${escapeHtml(origin + path)}</loc>${modified ? `<lastmod>${modified}</lastmod>` : ''}</url>\n`;
}

export function productFileCount(products: number, perFile: number): number {
  return Math.max(1, Math.ceil(products / perFile));
}

/** The index: every sitemap file of the shop. */
export function sitemapIndex(origin: string, productFiles: number): string {
  const files = ['pages', 'categories', 'brands', ...Array.from({ length: productFiles }, (_, i) => `products-${i + 1}`)];
  const entries = files.map((file) => `<sitemap><loc>${escapeHtml(`${origin}/sitemaps/${file}.xml`)}</loc></sitemap>\n`).join('');
  return `${HEAD}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}</sitemapindex>\n`;
}

function urlSet(body: string): string {
  return `${HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}</urlset>\n`;
}

/** Home, sale, blog with its tags and posts, the static pages, the shipping and payment page. */
export async function pagesSitemap(repo: SeoRepository, origin: string): Promise<string> {
  const [pages, posts, tags] = await Promise.all([repo.pages(), repo.blogPosts(), repo.blogTags()]);
  const body = [
    url(origin, shopPaths.home()),
    url(origin, shopPaths.sale()),
    url(origin, shopPaths.shippingPayment()),
    url(origin, shopPaths.blog(), posts[0]?.published_at),
    ...pages.map((page) => url(origin, shopPaths.page(page.slug), page.updated_at)),
    ...tags.map((tag) => url(origin, shopPaths.blogTag(tag.slug))),
    ...posts.map((post) => url(origin, shopPaths.blogPost(post.slug), post.published_at)),
  ];
  return urlSet(body.join(''));
}

export async function categoriesSitemap(repo: SeoRepository, origin: string): Promise<string> {
  return urlSet((await repo.categories()).map((category) => url(origin, shopPaths.category(category.cat_url))).join(''));
}

export async function brandsSitemap(repo: SeoRepository, origin: string): Promise<string> {
  return urlSet((await repo.brands()).map((brand) => url(origin, shopPaths.brand(brand.b_url))).join(''));
}

/** The `file`-th (1-based) file of products, streamed; null when there is no such file. */
export async function productsSitemap(
  repo: SeoRepository,
  origin: string,
  file: number,
  perFile: number,
): Promise<AsyncGenerator<string> | null> {
  if (file > productFileCount(await repo.productCount(), perFile)) return null;
  const start = await repo.productIdBefore((file - 1) * perFile);
  if (start === null) return null;
  return (async function* () {
    yield `${HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n`;
    let after = start;
    let left = perFile;
    while (left > 0) {
      const rows = await repo.productsAfter(after, Math.min(STREAM_BATCH, left));
      if (rows.length === 0) break;
      yield rows.map((row) => url(origin, shopPaths.product(row.p_url), row.p_created_at)).join('');
      after = rows.at(-1)!.p_id;
      left -= rows.length;
    }
    yield '</urlset>\n';
  })();
}
