import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

/**
 * What the canary watch judges a version on: per telemetry session (a random id the server issued
 * to one browser for a short while, nothing else about it) and part version, whether the session
 * showed it, met an error in it, and its worst LCP and INP (ms). Each session counts once, however
 * many reports it sends (domains/ops/telemetry/client-sessions.repository.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('client_sessions')
    .addColumn('session', 'text', (c) => c.notNull())
    .addColumn('part', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    // ISO UTC: text sorts in time order.
    .addColumn('first_seen', 'text', (c) => c.notNull())
    .addColumn('last_seen', 'text', (c) => c.notNull())
    .addColumn('viewed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('errored', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lcp', 'integer')
    .addColumn('inp', 'integer')
    .addPrimaryKeyConstraint('client_sessions_pk', ['session', 'part', 'version'])
    .execute();
  // Every read is one part's versions since a moment; the prune is by time.
  await db.schema.createIndex('client_sessions_by_version').on('client_sessions').columns(['part', 'version', 'last_seen']).execute();
  await db.schema.createIndex('client_sessions_by_time').on('client_sessions').column('last_seen').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('client_sessions').execute();
}
