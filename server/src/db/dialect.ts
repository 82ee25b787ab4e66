import { PostgresAdapter } from 'kysely';
import type { Kysely } from 'kysely';
import type { DialectName } from './database.ts';

/** Which dialect a Kysely instance (or transaction) talks to. */
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
