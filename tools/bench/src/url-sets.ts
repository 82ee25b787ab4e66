/**
 * What the load tests ask for: distinct URLs drawn the way shoppers draw them, from the shop's
 * own sitemap (every category and product), in a deterministic order (the same list every run).
 */

/** A small deterministic generator (mulberry32): the same URL list in every run. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every page path the sitemap lists (its index and each of its files). */
export async function sitemapPaths(base: string): Promise<string[]> {
  const locations = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  const index = await (await fetch(`${base}/sitemap.xml`)).text();
  const paths: string[] = [];
  for (const file of locations(index)) paths.push(...locations(await (await fetch(`${base}${file}`)).text()));
  return paths;
}

/** The shop's listing sorts (the default, popular, is left out of the URL). */
export const SORTS = ['popular', 'price-asc', 'price-desc', 'name', 'newest'] as const;

/** Picks from a list uniformly, or with a fifth of it getting four fifths of the picks (`skewed`). */
export function picker(next: () => number) {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const skewed = <T>(list: readonly T[]): T => (next() < 0.8 ? pick(list.slice(0, Math.max(1, Math.floor(list.length / 5)))) : pick(list));
  return { pick, skewed };
}

/** "page=3&sort=name" for a listing page and sort (the defaults left out), or "". */
export function listingQuery(page: number, sort: string): string {
  return [page > 1 ? `page=${page}` : '', sort !== 'popular' ? `sort=${sort}` : ''].filter(Boolean).join('&');
}
