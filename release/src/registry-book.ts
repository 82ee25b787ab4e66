/**
 * Where the registry in force is kept and moved: a "book". Every release operation (deploy.ts,
 * rollback.ts, pins.ts, canary-finish.ts) reads and commits through one, so the same checks run
 * whoever keeps it:
 * - the shop's server keeps it in its database (server/src/domains/releases/registry.repository.ts):
 *   the state in force with a revision that only grows, the moves, the floors. That is the one the
 *   shop trusts; the origin's `builds/latest.json` and `builds/history.jsonl` are its export.
 * - `originBook`: the registry files on an origin, read and written directly under the origin's
 *   release lock. No server trusts it; the release tool's own tests and a bare origin use it.
 */
import {
  readHistory,
  readRegistry,
  registryExists,
  writeRegistry,
  appendHistory,
  type HistoryEntry,
  type PartName,
  type Registry,
} from './registry.ts';
import { withReleaseLock } from './lock.ts';
import type { ReleaseStorage } from './storage.ts';

/** A version of a part marked never to be put in force again. */
export type Floor = { part: PartName; version: string; at: string; by: string; reason: string | null };
/** A floor a move sets along with itself (a rollback marks the version it left). */
export type FloorChange = { part: PartName; version: string; by: string; reason: string | null };

export type RegistryBook = {
  /** The registry in force (its revision included). */
  read(): Promise<Registry>;
  /** Every move, oldest first. */
  history(): Promise<HistoryEntry[]>;
  /** The versions floored now (of one part, or of all). */
  floors(part?: PartName): Promise<Floor[]>;
  /** Whether a registry was ever written (a new origin has none). */
  exists(): Promise<boolean>;
  /** Runs a move alone: no other move of this book runs meanwhile. */
  exclusive<T>(what: string, action: () => Promise<T>): Promise<T>;
  /**
   * Writes `next` (a new revision) with its moves and floors, if the registry is still at
   * `base.revision`; otherwise refused (`registry_moved`) and nothing is written.
   */
  commit(base: Registry, next: Registry, entries: HistoryEntry[], floors?: FloorChange[]): Promise<Registry>;
};

/** The registry files of an origin as a book (untrusted: anyone who writes the origin writes it). */
export function originBook(storage: ReleaseStorage): RegistryBook {
  return {
    read: () => readRegistry(storage),
    history: () => readHistory(storage),
    floors: async () => [],
    exists: () => registryExists(storage),
    exclusive: (what, action) => withReleaseLock(storage, what, action),
    async commit(_base, next, entries) {
      const written = await writeRegistry(storage, next);
      for (const entry of entries) await appendHistory(storage, { ...entry, at: written.updatedAt });
      return written;
    },
  };
}
