import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

/**
 * Page views and client errors the shoppers' browsers report, counted per minute, area and the
 * area's version (what the operator and the canary watchdog compare between versions).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('client_metrics')
    // ISO UTC truncated to the minute: text sorts in time order.
    .addColumn('minute', 'text', (c) => c.notNull())
    .addColumn('area', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('errors', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('client_metrics_pk', ['minute', 'area', 'version'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('client_metrics').execute();
}
