/**
 * The public catalog's response cache: what a CDN or Varnish in front of a shop's catalog
 * does, in the process. The serialized JSON answers of anonymous GET calls (listings, product
 * detail, search, facets, home, categories, brands) are kept as bytes keyed by the normalised URL,
 * so a hit costs no database query and no JSON.stringify.
 *
 * - Fresh for `ttlMs` (10 s by default) and only while nothing it shows has changed since it was
 *   computed (infra/cache/catalog-version.ts): an order taking stock off a product drops the answers that
 *   show that product (found by their `p_id`s), a change of everything drops all. Changes made by
 *   other servers arrive through the broadcast (infra/cache/shared-state.ts); the time to live only bounds
 *   how long a change without one (a script writing the database) stays unseen.
 * - Least recently used entries go first once there are `maxEntries` of them or they hold more
 *   than `maxBytes`.
 * - Concurrent misses of one URL are computed once; the others wait for that answer.
 * - Never cached: requests with Authorization or the session cookie (they may depend on who asks), anything but
 *   GET, any answer but 200. Only the routes of the scope `cachePublicResponses` is added to are
 *   affected (app.ts: the catalog and search).
 *
 * Answers carry `Cache-Control: public, max-age=<ttl>` with `Age` on hits (shared caches and
 * browsers may keep them as long as this cache does, not longer), `private` for requests with
 * credentials, and `X-Cache: HIT | MISS | BYPASS`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasSessionCookie } from '../auth/auth.ts';
import { catalogChanges, type CatalogChanges } from './catalog-version.ts';

export type ResponseCacheOptions = {
  /** How long an answer is served from the cache, in milliseconds. */
  ttlMs: number;
  /** At most this many answers are kept. */
  maxEntries: number;
  /** At most this many bytes of answers are kept; a bigger answer is never cached. */
  maxBytes: number;
};

/**
 * 10 s: changes made in this process show at once anyway; after a change by another process (a
 * second server on the same PostgreSQL database, an import) shoppers see it within seconds, and a
 * URL asked for once a second or more is still answered from memory nine times out of ten.
 * The entry and byte caps hold the pages, searches and products a busy spell touches, with the
 * memory bounded whatever the answers' sizes.
 */
export const DEFAULT_RESPONSE_CACHE: ResponseCacheOptions = { ttlMs: 10_000, maxEntries: 10_000, maxBytes: 64 * 1024 * 1024 };

type Entry = { body: Buffer; contentType: string; point: number; storedAt: number; products: readonly number[] };

export type ResponseCacheStats = { hits: number; misses: number; entries: number; bytes: number };

/** The products an answer shows: every `"p_id":<n>` in its JSON (a product's detail, tiles, related products). */
export function productsIn(body: Buffer): number[] {
  const ids = new Set<number>();
  for (const match of body.toString('latin1').matchAll(/"p_id":(\d{1,9})[,}]/g)) ids.add(Number(match[1]));
  return [...ids];
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  /** The keys of the answers showing each product. */
  private readonly byProduct = new Map<number, Set<string>>();
  private bytes = 0;
  /** The catalog's point up to which the changes are applied to the entries held. */
  private seen: number;
  private hits = 0;
  private misses = 0;

  constructor(
    readonly options: ResponseCacheOptions = DEFAULT_RESPONSE_CACHE,
    private readonly changes: CatalogChanges = catalogChanges,
    private readonly now: () => number = Date.now,
  ) {
    this.seen = changes.point();
  }

  /** The catalog's point now: an answer computed from here on is stored with it. */
  point(): number {
    return this.changes.point();
  }

  /** A fresh answer for the key, or undefined (a miss). */
  get(key: string): Entry | undefined {
    this.applyChanges();
    const entry = this.entries.get(key);
    if (entry && this.now() - entry.storedAt < this.options.ttlMs) {
      // Most recently used last: the Map's order is the eviction order.
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.hits += 1;
      return entry;
    }
    if (entry) this.remove(key, entry);
    this.misses += 1;
    return undefined;
  }

  /** Whether an entry handed out earlier still stands (nothing it shows changed since). */
  holds(key: string, entry: Entry): boolean {
    this.applyChanges();
    return this.entries.get(key) === entry;
  }

  /**
   * Keeps an answer computed from the catalog as it was at `point`; refused (undefined) when a
   * change since then touched what it shows.
   */
  set(key: string, body: Buffer, contentType: string, point: number, storedAt = this.now()): Entry | undefined {
    this.applyChanges();
    if (body.length > this.options.maxBytes || this.options.maxEntries <= 0) return undefined;
    const products = productsIn(body);
    const changed = this.changes.since(point);
    if (changed === 'all' || (changed && products.some((id) => changed.has(id)))) return undefined;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    const entry: Entry = { body, contentType, point, storedAt, products };
    this.entries.set(key, entry);
    this.bytes += body.length;
    for (const id of products) {
      let keys = this.byProduct.get(id);
      if (!keys) this.byProduct.set(id, (keys = new Set()));
      keys.add(key);
    }
    for (const [oldest, evicted] of this.entries) {
      if (this.entries.size <= this.options.maxEntries && this.bytes <= this.options.maxBytes) break;
      this.remove(oldest, evicted);
    }
    return entry;
  }

  clear(): void {
    this.entries.clear();
    this.byProduct.clear();
    this.bytes = 0;
  }

  stats(): ResponseCacheStats {
    return { hits: this.hits, misses: this.misses, entries: this.entries.size, bytes: this.bytes };
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.body.length;
    for (const id of entry.products) {
      const keys = this.byProduct.get(id);
      keys?.delete(key);
      if (keys?.size === 0) this.byProduct.delete(id);
    }
  }

  /** Drops what the catalog's changes since the last look touched: the answers showing changed products, or all. */
  private applyChanges(): void {
    const changed = this.changes.since(this.seen);
    this.seen = this.changes.point();
    if (changed === null) return;
    if (changed === 'all') return this.clear();
    for (const id of changed) {
      for (const key of [...(this.byProduct.get(id) ?? [])]) this.remove(key, this.entries.get(key)!);
    }
  }
}

/** The cache key: the path with its query parameters sorted, so `?b=2&a=1` and `?a=1&b=2` share an entry. */
export function cacheKey(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const params = new URLSearchParams(url.slice(mark + 1));
  params.sort();
  const query = params.toString();
  return query ? `${url.slice(0, mark)}?${query}` : url.slice(0, mark);
}

type Pending = { point: number; promise: Promise<Entry | undefined>; resolve: (entry: Entry | undefined) => void };
type RequestState =
  { kind: 'bypass'; credentials: boolean } | { kind: 'hit' } | { kind: 'miss'; key: string; point: number; pending: Pending | null };

/** How long a request waits for a concurrent identical one before computing its own answer. */
const WAIT_FOR_TWIN_MS = 3_000;

/**
 * Adds the cache to every GET route of `app`'s scope (and of plugins registered in it afterwards).
 * With `cache` null nothing is stored, but the answers still carry their Cache-Control.
 */
export function cachePublicResponses(app: FastifyInstance, cache: ResponseCache | null): void {
  const maxAge = Math.max(0, Math.floor((cache?.options.ttlMs ?? DEFAULT_RESPONSE_CACHE.ttlMs) / 1000));
  const publicControl = `public, max-age=${maxAge}`;
  const privateControl = `private, max-age=${maxAge}`;
  const states = new WeakMap<FastifyRequest, RequestState>();
  const pending = new Map<string, Pending>();

  const settle = (key: string, own: Pending, entry: Entry | undefined) => {
    if (pending.get(key) === own) pending.delete(key);
    own.resolve(entry);
  };

  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET') return;
    // Of the cookies only the session is a credential (a browser sends its consent cookies on every call too).
    const credentials = request.headers.authorization !== undefined || hasSessionCookie(request);
    if (credentials || !cache) {
      states.set(request, { kind: 'bypass', credentials });
      return;
    }
    const key = cacheKey(request.url);
    let entry = cache.get(key);
    const point = cache.point();
    if (!entry) {
      const twin = pending.get(key);
      if (twin && twin.point === point) {
        entry = await waitFor(twin.promise);
        if (entry && !cache.holds(key, entry)) entry = undefined;
      }
    }
    if (entry) {
      states.set(request, { kind: 'hit' });
      const age = Math.max(0, Math.floor((Date.now() - entry.storedAt) / 1000));
      return reply
        .header('content-type', entry.contentType)
        .header('cache-control', publicControl)
        .header('age', String(age))
        .header('x-cache', 'HIT')
        .send(entry.body);
    }
    let own: Pending | null = null;
    if (!pending.has(key)) {
      let resolve!: (entry: Entry | undefined) => void;
      const promise = new Promise<Entry | undefined>((done) => (resolve = done));
      own = { point, promise, resolve };
      pending.set(key, own);
    }
    states.set(request, { kind: 'miss', key, point, pending: own });
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const state = states.get(request);
    if (!state || state.kind === 'hit') return payload;
    const ok = reply.statusCode === 200;
    if (state.kind === 'bypass') {
      if (ok)
        reply
          .header('cache-control', state.credentials ? privateControl : publicControl)
          .header('x-cache', state.credentials ? 'BYPASS' : 'MISS');
      return payload;
    }
    let entry: Entry | undefined;
    if (ok && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      reply.header('cache-control', publicControl).header('x-cache', 'MISS');
      const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
      entry = cache!.set(state.key, body, String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'), state.point);
    }
    if (state.pending) settle(state.key, state.pending, entry);
    return payload;
  });

  const release = async (request: FastifyRequest) => {
    const state = states.get(request);
    if (state?.kind === 'miss' && state.pending) settle(state.key, state.pending, undefined);
  };
  app.addHook('onResponse', release);
  app.addHook('onRequestAbort', release);
}

/** The twin's answer, or undefined when it failed or takes too long. */
function waitFor(promise: Promise<Entry | undefined>): Promise<Entry | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), WAIT_FOR_TWIN_MS);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
