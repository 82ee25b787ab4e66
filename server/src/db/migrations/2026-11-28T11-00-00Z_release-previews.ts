import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

/**
 * Preview links kept in the database, so each is listed, tied to the one browser that opened it and
 * revocable one by one: a random link token and the browser's own token, both stored as SHA-256 only.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('release_previews')
    .addColumn('preview_id', 'text', (c) => c.primaryKey())
    .addColumn('area', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    // ISO UTC times.
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('link_hash', 'text', (c) => c.notNull().unique())
    .addColumn('browser_hash', 'text', (c) => c.unique())
    .addColumn('opened_at', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('ended_by', 'text')
    .execute();
  await db.schema.createIndex('release_previews_area_expires').on('release_previews').columns(['area', 'expires_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('release_previews').execute();
}
