/**
 * The stored redirects kept in memory where every page load consults them (the page host answers a
 * direct load of an old address with 301 before rendering): the list is small, so a page costs a
 * map lookup, not a query. The kept table is at most `REDIRECTS_MAX_AGE_MS` old (then the next
 * page load reloads it once, every load in between sharing that one query), and is dropped at once
 * when the operator changes a redirect on this server. Another server of a cluster sees such a
 * change within that bound.
 */
import { redirectTable, type RedirectPair, type RedirectTable } from '@shop/shared-kernel/rules';

/** How old the kept table may be before a page load reloads it (ms). */
export const REDIRECTS_MAX_AGE_MS = 10_000;

const changeListeners = new Set<() => void>();

/** Hears every change of the stored redirects made in this process (the operator's API). */
export function onRedirectsChanged(listener: () => void): () => void {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

/** Tells this process's kept tables that the stored redirects changed. */
export function redirectsChanged(): void {
  for (const listener of changeListeners) listener();
}

export class RedirectLookup {
  private kept: { table: RedirectTable; at: number } | null = null;
  private loading: Promise<RedirectTable> | null = null;
  /** Moves on with every invalidation, so a load begun before a change is not kept after it. */
  private generation = 0;

  constructor(
    private readonly load: () => Promise<readonly RedirectPair[]>,
    private readonly maxAgeMs = REDIRECTS_MAX_AGE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The stored redirects, at most `maxAgeMs` old; a failed load leaves the last table (or none) in use. */
  table(): Promise<RedirectTable> {
    const kept = this.kept;
    if (kept && this.now() - kept.at < this.maxAgeMs) return Promise.resolve(kept.table);
    this.loading ??= this.reload();
    return this.loading;
  }

  /** Drops the kept table: the next page load reads the redirects again. */
  invalidate(): void {
    this.generation += 1;
    this.kept = null;
    this.loading = null;
  }

  private async reload(): Promise<RedirectTable> {
    const generation = this.generation;
    const startedAt = this.now();
    try {
      const table = redirectTable(await this.load());
      if (generation === this.generation) this.kept = { table, at: startedAt };
      return table;
    } catch {
      // Spec: a failed load of the redirect list is ignored; pages are served as they are.
      return this.kept?.table ?? new Map();
    } finally {
      if (generation === this.generation) this.loading = null;
    }
  }
}
