/**
 * One migrated and seeded database per test run, which every shop a test starts is a copy of: a
 * SQLite file copied in milliseconds, or a PostgreSQL database created with it as TEMPLATE, in place
 * of running every migration and the seed again for each (a second or more apiece). Made by the
 * global setup (test/global-setup.ts); a test that makes its own database from nothing (migrations,
 * the seed) still calls createDatabase on an empty one.
 */
import { copyFileSync } from 'node:fs';
import { inject } from 'vitest';
import { sqliteFileOf } from '../../src/db/create-database.ts';

export type DatabaseTemplate = { kind: 'sqlite'; file: string } | { kind: 'postgres'; name: string };

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate | null;
  }
}

/** The run's template, or null (a config without the global setup). */
export function databaseTemplate(): DatabaseTemplate | null {
  try {
    return inject('databaseTemplate') ?? null;
  } catch {
    return null;
  }
}

/** Puts a copy of the SQLite template where a shop in `dataDir` opens its database. */
export function copySqliteTemplate(template: { file: string }, dataDir: string): void {
  copyFileSync(template.file, sqliteFileOf(dataDir));
}
