import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

/**
 * The pages' Content-Security-Policy violations, counted per server day, page type, part,
 * directive and blocked origin (no address path, no query, no shopper): what /ops shows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('csp_violations')
    // ISO UTC date (`2026-11-27`): text sorts in time order.
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('page', 'text', (c) => c.notNull())
    .addColumn('part', 'text', (c) => c.notNull())
    .addColumn('directive', 'text', (c) => c.notNull())
    .addColumn('blocked_origin', 'text', (c) => c.notNull())
    .addColumn('violations', 'integer', (c) => c.notNull())
    .addColumn('first_seen', 'text', (c) => c.notNull())
    .addColumn('last_seen', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('csp_violations_pk', ['day', 'page', 'part', 'directive', 'blocked_origin'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('csp_violations').execute();
}
