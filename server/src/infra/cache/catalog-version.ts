/**
 * What changed in the catalog, and since when. Caches of catalog answers (infra/cache/response-cache.ts,
 * the category tree, the page cache) keep what they computed together with the point it was
 * computed at, and throw away what a later change touched:
 *
 * - a change of **some products** (an order taking stock off their variants) touches only the
 *   answers that contain one of those products (their detail, the listing and search pages that
 *   show them); facets, categories and brands do not depend on stock amounts and stay;
 * - a change of **everything** (`catalogChanged()`: prices, an import, a failed commit whose
 *   effect is unknown) moves the catalog version, and every cached answer starts over.
 *
 * The code that changes catalog rows says so once the change is visible to other connections:
 * `inCatalogTransaction(db, work)` records the change when the transaction has ended (PostgreSQL
 * readers on other connections see the old rows until the commit, and a reader that starts in
 * between must not cache them as new). `work` names the products it changes with
 * `change.products(ids)`; one that names none changed everything.
 *
 * Other servers of the shop learn of every change through the broadcast (infra/cache/shared-state.ts: Redis
 * publish/subscribe) and apply it to their own caches as if it had been made there; the caches'
 * short time to live bounds how long a change stays unseen where there is no broadcast (a script
 * writing the SQLite file).
 */
import type { Transaction } from 'kysely';
import type { Database, Db } from '../../db/database.ts';

/** A change of the catalog: of everything, or of some products only. */
export type CatalogChange = { kind: 'all' } | { kind: 'products'; ids: number[] };

/** A bounded change log: the products changed since a point, or 'all' when that is unknown or true. */
export class CatalogChanges {
  private sequence = 0;
  private allVersion = 0;
  /** The most recent product changes, oldest first; anything older than the first is 'all'. */
  private readonly log: { seq: number; ids: readonly number[] }[] = [];
  /** Product changes before this point are no longer in the log. */
  private forgottenBefore = 0;
  private lastAll = 0;
  private readonly listeners = new Set<(change: CatalogChange) => void>();

  constructor(private readonly keep = 2_000) {}

  /** The point reached: every change moves it on. */
  point(): number {
    return this.sequence;
  }

  /** Moves on with every change of everything (not with product changes). */
  version(): number {
    return this.allVersion;
  }

  /** Records a change made here or told by another server; `listeners` hear only the ones made here. */
  record(change: CatalogChange, origin: 'here' | 'elsewhere' = 'here'): void {
    if (change.kind === 'products' && change.ids.length === 0) return;
    this.sequence += 1;
    if (change.kind === 'all') {
      this.allVersion += 1;
      this.lastAll = this.sequence;
      this.log.length = 0;
      this.forgottenBefore = this.sequence;
    } else {
      this.log.push({ seq: this.sequence, ids: [...new Set(change.ids)] });
      if (this.log.length > this.keep) this.forgottenBefore = this.log.shift()!.seq;
    }
    if (origin === 'here') for (const listener of this.listeners) listener(change);
  }

  /** What changed after `point`: nothing (null), some products, or everything. */
  since(point: number): null | 'all' | Set<number> {
    if (point >= this.sequence) return null;
    if (this.lastAll > point || this.forgottenBefore > point) return 'all';
    const ids = new Set<number>();
    for (let i = this.log.length - 1; i >= 0 && this.log[i]!.seq > point; i--) for (const id of this.log[i]!.ids) ids.add(id);
    return ids;
  }

  /** Hears every change made in this process (the broadcast publishes them); answers the unsubscribe. */
  onLocalChange(listener: (change: CatalogChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The process's catalog: one per process, as the database is. */
export const catalogChanges = new CatalogChanges();

/** The catalog version: moves on with every change of everything (caches that hold whole-catalog answers). */
export function catalogVersion(): number {
  return catalogChanges.version();
}

/**
 * A value loaded from the catalog and kept until the catalog version moves (a change of
 * everything), then loaded again when next asked for; a failed load is not kept. For reference data
 * every server keeps in memory: the category tree, brands and attributes.
 */
export function perCatalogVersion<T>(load: () => Promise<T>): () => Promise<T> {
  let kept: { version: number; value: Promise<T> } | null = null;
  return () => {
    const version = catalogVersion();
    if (kept?.version !== version) {
      const value = load();
      const entry = { version, value };
      kept = entry;
      value.catch(() => {
        if (kept === entry) kept = null;
      });
    }
    return kept.value;
  };
}

/** Marks the whole catalog as changed: everything cached before is stale. */
export function catalogChanged(): void {
  catalogChanges.record({ kind: 'all' });
}

/** What the work of `inCatalogTransaction` tells about its change. */
export type ChangeScope = {
  /** The work changes these products only (their variants' stock); named with none, it changes nothing. */
  products(ids: Iterable<number>): void;
};

/** Runs `work` in one transaction that changes catalog rows; the change is recorded once it has ended. */
export async function inCatalogTransaction<T>(db: Db, work: (trx: Transaction<Database>, change: ChangeScope) => Promise<T>): Promise<T> {
  let products: Set<number> | null = null;
  const scope: ChangeScope = {
    products(ids) {
      products ??= new Set();
      for (const id of ids) products.add(id);
    },
  };
  try {
    return await db.transaction().execute((trx) => work(trx, scope));
  } finally {
    // Also after a failure: whether a failed commit took effect is unknown, so what it touched starts over.
    const touched = products as Set<number> | null;
    catalogChanges.record(touched ? { kind: 'products', ids: [...touched] } : { kind: 'all' });
  }
}
