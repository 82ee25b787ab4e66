import { Migrator } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from './database.ts';
import { migrations } from './migrations/index.ts';

/** Runs every pending migration; throws when one fails. Returns the names that ran. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Database migration failed${name}: ${String(error ?? 'unknown error')}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
