import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

/** When the integrity watch last finished a check, and how it ended: every server shows the same. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('release_integrity_checks')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('checked_at', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('revision', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('release_integrity_checks').execute();
}
