import { PostgresAdapter } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

/**
 * Server renders that failed in the sandbox (a part threw, ran past its time or memory, its
 * renderer hung or died), the newest few hundred, from every server: what /ops lists.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('render_failures')
    .addColumn('failure_id', 'integer', (c) => (pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()))
    // ISO UTC time.
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('part', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('server', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('render_failures').execute();
}
