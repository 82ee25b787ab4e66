import { join } from 'node:path';
import { openDatabase } from './connect.ts';
import type { OpenedDatabase } from './connect.ts';
import { migrateToLatest } from './migrate.ts';
import { seedIfEmpty } from './seed/index.ts';

export type CreateDatabaseOptions = {
  /** Directory of the SQLite file (shop.sqlite) when no databaseUrl is given. */
  dataDir: string;
  /** PostgreSQL connection string; when set, PostgreSQL is used. */
  databaseUrl?: string;
};

export type CreatedDatabase = OpenedDatabase & {
  /** True when this call seeded an empty database. */
  seeded: boolean;
  /** Time the seed step took (also when it only found data already there). */
  seedMs: number;
};

/** The embedded SQLite database of a data directory. */
export const sqliteFileOf = (dataDir: string) => join(dataDir, 'shop.sqlite');

/** Opens the database, runs pending migrations and seeds it when empty. */
export async function createDatabase(opts: CreateDatabaseOptions): Promise<CreatedDatabase> {
  const opened = await openDatabase(opts.databaseUrl ? { url: opts.databaseUrl } : { sqliteFile: sqliteFileOf(opts.dataDir) });
  try {
    await migrateToLatest(opened.db);
    const { seeded, ms } = await seedIfEmpty(opened.db);
    return { ...opened, seeded, seedMs: ms };
  } catch (err) {
    await opened.close();
    throw err;
  }
}
