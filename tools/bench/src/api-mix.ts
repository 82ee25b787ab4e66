/**
 * The catalog API as shoppers ask for it, over the whole 100,000-product catalog (issue #19):
 * - listing: every category, pages 1–20 (as far as the category goes) and every sort, a sixth of
 *   them narrowed to one of the category's brands;
 * - facets: what every category page asks for, the same categories and brand filters;
 * - product: the detail of any product, a fifth of the products getting four fifths of the calls;
 * - search: 500 distinct terms from product names, half of them typed without diacritics.
 * The mix: 40 % product, 25 % listing, 20 % facets, 15 % search. Every list is distinct URLs in a
 * deterministic order, so a cache answers only what shoppers would repeat.
 */
import { listingQuery, picker, random, sitemapPaths, SORTS } from './url-sets.ts';

const MIX_SIZE = 40_000;
const SEARCH_TERMS = 500;

type Listing = { data: { p_name: string; brand: { b_url: string } | null }[]; meta: { total: number; pageSize: number } };

export type ApiUrlSets = {
  listing: string[];
  facets: string[];
  product: string[];
  search: string[];
  mix: string[];
  categories: number;
  products: number;
  terms: number;
};

const strip = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '');

/** Single words and adjacent pairs from product names, lower-case, with and without diacritics. */
function searchTerms(names: string[]): string[] {
  const terms = new Set<string>();
  for (const name of names) {
    const words = name
      .toLowerCase()
      .split(/\s+/)
      .filter((word) => /^\p{L}{4,}$/u.test(word));
    for (let i = 0; i < words.length; i += 1) {
      for (const term of [words[i]!, ...(i + 1 < words.length ? [`${words[i]} ${words[i + 1]}`] : [])]) {
        terms.add(term);
        terms.add(strip(term));
      }
    }
    if (terms.size >= SEARCH_TERMS) break;
  }
  return [...terms].slice(0, SEARCH_TERMS);
}

export async function apiUrlSets(base: string): Promise<ApiUrlSets> {
  const all = await sitemapPaths(base);
  const categories = all.filter((path) => path.startsWith('/c/')).map((path) => path.slice(3));
  const products = all.filter((path) => path.startsWith('/p/')).map((path) => `/api/product/${path.slice(3)}`);
  if (categories.length === 0 || products.length === 0) throw new Error('the sitemap lists no products or categories');

  const next = random(19);
  const { pick, skewed } = picker(next);
  const names: string[] = [];
  /** Per category: how many pages it has (at most 20) and the brands on its first pages. */
  const shape = new Map<string, { pages: number; brands: string[] }>();
  for (const category of categories) {
    const brands = new Set<string>();
    let pages = 1;
    for (const sort of ['popular', 'newest']) {
      const answer = (await (
        await fetch(`${base}/api/products?category=${category}${sort === 'newest' ? '&sort=newest' : ''}`)
      ).json()) as Listing;
      pages = Math.max(1, Math.min(20, Math.ceil(answer.meta.total / answer.meta.pageSize)));
      for (const product of answer.data) {
        names.push(product.p_name);
        if (product.brand) brands.add(product.brand.b_url);
      }
    }
    shape.set(category, { pages, brands: [...brands] });
  }
  const narrowed = (category: string) => {
    const brands = shape.get(category)!.brands;
    return brands.length > 0 && next() < 1 / 6 ? `&brands=${encodeURIComponent(pick(brands))}` : '';
  };
  const listingUrl = () => {
    const category = pick(categories);
    const query = listingQuery(1 + Math.floor(next() * shape.get(category)!.pages), pick(SORTS));
    return `/api/products?category=${category}${query ? `&${query}` : ''}${narrowed(category)}`;
  };
  const facetsUrl = () => {
    const category = pick(categories);
    return `/api/products/facets?category=${category}${narrowed(category)}`;
  };
  const terms = searchTerms(names).map((term) => `/api/search?q=${encodeURIComponent(term)}`);
  const searchUrl = () => pick(terms);
  const productUrl = () => skewed(products);

  const many = (make: () => string) => Array.from({ length: MIX_SIZE / 4 }, make);
  const mix: string[] = [];
  for (let i = 0; i < MIX_SIZE; i += 1) {
    const roll = next();
    mix.push(roll < 0.4 ? productUrl() : roll < 0.65 ? listingUrl() : roll < 0.85 ? facetsUrl() : searchUrl());
  }
  return {
    listing: many(listingUrl),
    facets: many(facetsUrl),
    product: many(productUrl),
    search: many(searchUrl),
    mix,
    categories: categories.length,
    products: products.length,
    terms: terms.length,
  };
}
