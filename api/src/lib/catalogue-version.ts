/**
 * The catalogue version: a number that changes whenever this process has changed catalogue data
 * (products, variants and their stock and prices, categories, brands, attributes, …). Caches of
 * catalogue answers (lib/response-cache.ts, the category tree) keep what they computed together
 * with the version it was computed at and throw it away once the version has moved on.
 *
 * The code that changes catalogue rows says so, once the change is visible to other connections:
 * `catalogueChanged()` after a statement that ran on its own, or `inCatalogueTransaction(db, work)`,
 * which moves the version when the transaction has ended (PostgreSQL readers on other connections
 * see the old rows until the commit, and a reader that starts in between must not cache them as
 * the new version; after a failed commit whether it took effect is unknown, so caches start over).
 * Writes by other processes (another server on the same PostgreSQL database, a script on the
 * SQLite file) are not seen here; the caches' short time to live bounds how long they stay unseen.
 */
import type { Transaction } from 'kysely';
import type { Database, Db } from '../db/database.ts';

let version = 0;

/** The current catalogue version of this process. */
export function catalogueVersion(): number {
  return version;
}

/** Marks the catalogue as changed: everything cached at an older version is stale. */
export function catalogueChanged(): void {
  version += 1;
}

/** Runs `work` in one transaction that changes catalogue rows; the version moves once it has ended. */
export async function inCatalogueTransaction<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(work);
  } finally {
    catalogueChanged();
  }
}
