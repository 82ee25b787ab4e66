import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

/** The last successful and the last failed backup (one row per outcome), shown by every server. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('backup_status')
    .addColumn('outcome', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    // A database dump may outgrow a 32-bit integer.
    .addColumn('bytes', 'bigint')
    .addColumn('error', 'text')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('backup_status').execute();
}
