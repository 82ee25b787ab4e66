/**
 * A brief cache of server-rendered pages. What a page shows depends only on its address, the
 * versions in force (registry revision, this browser's canary side), the catalog's version and
 * whether the visitor has answered the cookie notice (the first-frame notice); never on who the
 * shopper is (basket, name and choices are the browser's). So one entry serves every visitor with
 * the same key, a release or a catalog change misses at once, and anything else shows within
 * `ttlMs`. Entries are bounded in number; the oldest go first.
 */
/**
 * `policy`: the Content-Security-Policy the page was rendered with (its import map's hash is in it);
 * `encoded`: the page compressed in each encoding asked for so far, kept with it.
 */
export type CachedPage = { status: number; html: string; policy: string; encoded?: Partial<Record<'br' | 'gzip', Buffer>> };

export class PageCache {
  private readonly entries = new Map<string, CachedPage & { until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 500,
  ) {}

  get(key: string): CachedPage | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.until <= Date.now()) {
      this.entries.delete(key);
      return null;
    }
    return entry;
  }

  set(key: string, page: CachedPage): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { ...page, until: Date.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}
