import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

/**
 * Client errors grouped by area, version, route and top frame of the stack mapped with the
 * version's source maps: what /ops lists and what a canary's abort names.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('client_error_groups')
    .addColumn('group_key', 'text', (c) => c.primaryKey())
    .addColumn('area', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('top_frame', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('stack', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    // ISO UTC times.
    .addColumn('first_at', 'text', (c) => c.notNull())
    .addColumn('last_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('client_error_groups_version').on('client_error_groups').columns(['area', 'version', 'last_at']).execute();
  await db.schema.createIndex('client_error_groups_last_at').on('client_error_groups').column('last_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('client_error_groups').execute();
}
