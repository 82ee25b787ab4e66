/**
 * Validators (ETags) of the public pages, so that a shared cache (the cluster's nginx, a CDN) whose
 * copy has expired costs the server a check instead of a render: `If-None-Match` with the tag of
 * the page as it would be rendered now is answered 304 with no render.
 *
 * The tag is computed before rendering from everything the page's HTML depends on:
 * - what the server puts around the page: the shell's build, the registry as the page embeds it
 *   (revision, versions, canaries: a page is shared only outside a canary or a preview), the
 *   import map with its integrity hashes and the policy (given by the caller as `dependsOn`);
 * - the page's address (its route and data);
 * - the catalog: its version (a change of everything: prices, an import) and the point reached
 *   (a stock change of some products: the tag is confirmed while no product the page showed
 *   changed since it was rendered);
 * - the header's opening-hours text (it changes with the minute rule, so the text, not the time);
 * - this process: catalog versions and points are counted per process, and a tag is confirmed
 *   only by the process that rendered that page (it keeps the tag and the page's products), so a
 *   tag another server gave, or one from before a restart, is never confirmed wrongly; nginx sends
 *   each page address to one server (`hash … consistent`, tools/scripts/topology.mjs) so the check lands
 *   where the tag was made.
 *
 * What moves without telling the servers (a script writing catalog rows without the broadcast,
 * the 30-day lowest price sliding with the date) is bounded by the tag's lifetime: an older tag is
 * never confirmed, the page is rendered anew.
 */
import { createHash, randomUUID } from 'node:crypto';
import { openingHoursText } from '@shop/shared-kernel/rules';
import { catalogChanges, type CatalogChanges } from '../infra/cache/catalog-version.ts';

/** How long a page's tag may be confirmed after its render (ms): the bound for changes nobody announces. */
export const VALIDATOR_LIFETIME_MS = 5 * 60_000;
/** How many pages' tags (with their products) a process keeps; an evicted page is rendered when next checked. */
export const VALIDATOR_PAGES = 50_000;
/** `If-None-Match` is read up to this many characters and tags (nginx and browsers send one). */
const IF_NONE_MATCH_MAX_CHARS = 1024;
const IF_NONE_MATCH_MAX_TAGS = 8;
/** Bounds the walk over a page's data for its products (a page holds a few hundred values). */
const MAX_PRODUCTS_WALKED = 100_000;

export type PageValidatorOptions = {
  lifetimeMs?: number;
  maxPages?: number;
  changes?: CatalogChanges;
  now?: () => number;
};

/** A page this process rendered whole: its tag, what it was made of, and the products it showed (null: unknown, any change counts). */
type RenderLog = { warn(object: object, message: string): void; error(object: object, message: string): void };

type Kept = { tag: string; base: string; point: number; renderedAt: number; products: readonly number[] | null };

/** The validator of one page request, made before the page is rendered or taken from the page cache. */
export type PageValidator = {
  /** The tag the page rendered now gets (send it before the page leaves). */
  readonly tag: string;
  /** The tag `If-None-Match` names that still holds for this page: answer 304 with it. Null: render. */
  confirmed(ifNoneMatch: string | string[] | undefined): string | null;
  /** The page was rendered with `data` (its embedded data): its tag may be confirmed from now on, unless the render warned. */
  rendered(data: unknown): void;
  /**
   * The render's log, watched: a page whose render warned (data left to the browser, past its
   * budget, a part that failed) is not whole, and its tag is never confirmed.
   */
  watch(log: RenderLog): RenderLog;
  /** The tag of the page the server's page cache holds for this request, when known (else none is sent). */
  keptTag(): string | null;
};

export class PageValidators {
  /** This process: tags of another process (or of this server before a restart) never match. */
  readonly instance = randomUUID();
  private readonly pages = new Map<string, Kept>();
  private readonly lifetimeMs: number;
  private readonly maxPages: number;
  private readonly changes: CatalogChanges;
  private readonly now: () => number;

  constructor(options: PageValidatorOptions = {}) {
    this.lifetimeMs = options.lifetimeMs ?? VALIDATOR_LIFETIME_MS;
    this.maxPages = options.maxPages ?? VALIDATOR_PAGES;
    this.changes = options.changes ?? catalogChanges;
    this.now = options.now ?? (() => Date.now());
  }

  /**
   * The validator of the page at `url` as it would be rendered now; `dependsOn`: everything else the
   * page's HTML is made of that the caller knows before rendering (shell build, embedded
   * configuration and import map, policy, first frame).
   */
  forPage(url: string, dependsOn: readonly string[]): PageValidator {
    const now = this.now();
    const hash = createHash('sha256');
    for (const part of [this.instance, url, String(this.changes.version()), openingHoursText(new Date(now)), ...dependsOn]) {
      hash.update(part).update('\u0000');
    }
    const base = hash.digest('base64url').slice(0, 22);
    const point = this.changes.point();
    const tag = `W/"${base}.${point.toString(36)}.${Math.floor(now / 1000).toString(36)}"`;
    let whole = true;
    return {
      tag,
      confirmed: (ifNoneMatch) => this.confirm(url, base, ifNoneMatch),
      rendered: (data) => {
        if (whole) this.keep(url, { tag, base, point, renderedAt: now, products: productsOf(data) });
        // The page cache now holds this render: an older tag must not be confirmed (or given) for it.
        else this.pages.delete(url);
      },
      watch: (log) => ({
        warn: (object, message) => {
          whole = false;
          log.warn(object, message);
        },
        error: (object, message) => {
          whole = false;
          log.error(object, message);
        },
      }),
      keptTag: () => {
        const kept = this.pages.get(url);
        return kept && kept.base === base && this.holds(kept, now) ? kept.tag : null;
      },
    };
  }

  /** How many pages' tags are kept (for tests and metrics). */
  size(): number {
    return this.pages.size;
  }

  private keep(url: string, kept: Kept): void {
    if (this.maxPages <= 0) return;
    this.pages.delete(url);
    this.pages.set(url, kept);
    while (this.pages.size > this.maxPages) this.pages.delete(this.pages.keys().next().value as string);
  }

  private confirm(url: string, base: string, header: string | string[] | undefined): string | null {
    const value = Array.isArray(header) ? header.join(',') : header;
    if (!value || value.length > IF_NONE_MATCH_MAX_CHARS) return null;
    const kept = this.pages.get(url);
    // Only the tag of the last page this process rendered whole for this address can hold.
    if (!kept || kept.base !== base) return null;
    const candidates = value.split(',', IF_NONE_MATCH_MAX_TAGS).map((candidate) => candidate.trim());
    if (!candidates.includes(kept.tag) || !this.holds(kept, this.now())) return null;
    // Most recently confirmed last: the Map's order is the eviction order.
    this.pages.delete(url);
    this.pages.set(url, kept);
    return kept.tag;
  }

  /** Young enough, and no product the page showed changed since its render (no change of everything either: that moves `base`). */
  private holds(kept: Kept, now: number): boolean {
    if (now - kept.renderedAt >= this.lifetimeMs || kept.renderedAt > now) return false;
    const changed = this.changes.since(kept.point);
    if (changed === null) return true;
    if (changed === 'all' || kept.products === null) return false;
    return !kept.products.some((id) => changed.has(id));
  }
}

/** The products a page's data shows: every `p_id` in it (a product's detail, tiles, related products), as the response cache finds them. */
export function productsOf(data: unknown): number[] | null {
  const ids = new Set<number>();
  const stack: unknown[] = [data];
  let walked = 0;
  while (stack.length > 0 && walked < MAX_PRODUCTS_WALKED) {
    const value = stack.pop();
    walked += 1;
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const item of value) if (item !== null && typeof item === 'object') stack.push(item);
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      if (key === 'p_id' && typeof item === 'number' && Number.isInteger(item)) ids.add(item);
      else if (item !== null && typeof item === 'object') stack.push(item);
    }
  }
  // A page too big to walk whole counts as showing every product: any stock change renders it.
  return stack.length > 0 ? null : [...ids];
}
