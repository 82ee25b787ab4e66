import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

/**
 * The commerce guardrail of the canary watch (domains/releases/commerce-judge.ts): per telemetry
 * session and part version, whether the session showed the checkout's order step; and per order,
 * the version of each judged part the placing browser was served, as the server decided it at
 * placement (its canary bucket and the registry in force), recorded in the order's transaction.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('client_sessions')
    .addColumn('order_step', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('order_versions')
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.order_id').onDelete('cascade'))
    .addColumn('part', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    // ISO UTC: text sorts in time order.
    .addColumn('placed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_versions_pk', ['order_id', 'part'])
    .execute();
  // Every read is one part version's orders since a moment.
  await db.schema.createIndex('order_versions_by_version').on('order_versions').columns(['part', 'version', 'placed_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('order_versions').execute();
  await db.schema.alterTable('client_sessions').dropColumn('order_step').execute();
}
