import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

/**
 * The shoppers' Web Vitals as distributions: a count per server hour, part, version, route, metric
 * and log-spaced bucket of the value (domains/ops/telemetry/vitals.repository.ts), so a percentile
 * over any range of hours is a sum of counts, the same on both engines.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('client_vitals')
    // ISO UTC, minutes and seconds zero (`2026-11-27T13:00:00.000Z`): text sorts in time order.
    .addColumn('hour', 'text', (c) => c.notNull())
    .addColumn('part', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('bucket', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    // The hour first: every read is a range of hours.
    .addPrimaryKeyConstraint('client_vitals_pk', ['hour', 'part', 'version', 'route', 'metric', 'bucket'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('client_vitals').execute();
}
