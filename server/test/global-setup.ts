/**
 * Makes the run's template database once (test/helpers/database-template.ts): on SQLite a file in a
 * temporary directory, on PostgreSQL (DATABASE_URL) a database of its own; both removed at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDatabase, sqliteFileOf } from '../src/db/create-database.ts';
import { throwawayPostgres } from './helpers/throwaway-database.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.DATABASE_URL) {
    const template = (await throwawayPostgres())!;
    const database = await createDatabase({ dataDir: tmpdir(), databaseUrl: template.url });
    await database.close();
    project.provide('databaseTemplate', { kind: 'postgres', name: new URL(template.url).pathname.slice(1) });
    return () => template.drop();
  }
  const dir = mkdtempSync(join(tmpdir(), 'shop-test-template-'));
  const database = await createDatabase({ dataDir: dir });
  await database.close();
  project.provide('databaseTemplate', { kind: 'sqlite', file: sqliteFileOf(dir) });
  return async () => rmSync(dir, { recursive: true, force: true });
}
