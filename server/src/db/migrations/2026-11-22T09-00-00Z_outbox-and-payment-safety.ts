import { PostgresAdapter } from 'kysely';
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

function generatedId(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (col: ColumnDefinitionBuilder) =>
    pg ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();
}

/**
 * The outbox (side effects recorded in the transaction of their cause, carried out by a worker),
 * refunds of payments that arrive for an order already paid, and e-mail changes confirmed by a
 * link sent to the new address.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const id = generatedId(db);

  await db.schema
    .createTable('outbox')
    .addColumn('job_id', 'integer', id)
    .addColumn('topic', 'text', (c) => c.notNull())
    // One job per cause: a second enqueue with the same key is a no-op.
    .addColumn('job_key', 'text', (c) => c.notNull().unique())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_after', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('done_at', 'text')
    .execute();
  await db.schema.createIndex('outbox_due_idx').on('outbox').columns(['status', 'run_after']).execute();

  // A card payment that succeeded for an order already paid is refunded: refund_status pending → refunded | failed.
  await db.schema.alterTable('payments').addColumn('refund_status', 'text').execute();
  await db.schema.alterTable('payments').addColumn('refund_reason', 'text').execute();
  await db.schema.alterTable('payments').addColumn('refunded_at', 'text').execute();

  await db.schema
    .createTable('email_changes')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('new_email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('email_changes_user_idx').on('email_changes').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('email_changes').execute();
  await db.schema.alterTable('payments').dropColumn('refunded_at').execute();
  await db.schema.alterTable('payments').dropColumn('refund_reason').execute();
  await db.schema.alterTable('payments').dropColumn('refund_status').execute();
  await db.schema.dropTable('outbox').execute();
}
