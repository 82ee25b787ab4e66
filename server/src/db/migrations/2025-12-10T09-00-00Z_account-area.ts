import { PostgresAdapter } from 'kysely';
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

function generatedId(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (col: ColumnDefinitionBuilder) =>
    pg ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();
}

/**
 * The account area (issue 6): profile columns, password resets, addresses, order state history,
 * withdrawals from the contract, complaints with photos.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const id = generatedId(db);

  await db.schema.alterTable('users').addColumn('phone', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('users').addColumn('company_json', 'text').execute();
  await db.schema.alterTable('users').addColumn('newsletter', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('users').addColumn('deleted_at', 'text').execute();
  // Tokens issued before this moment are refused (password change, reset, account deletion).
  await db.schema.alterTable('users').addColumn('sessions_valid_after', 'text').execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('password_resets_user_idx').on('password_resets').column('user_id').execute();

  await db.schema
    .createTable('addresses')
    .addColumn('address_id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('street', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('zip', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('addresses_user_idx').on('addresses').column('user_id').execute();

  await db.schema
    .createTable('order_status_history')
    .addColumn('history_id', 'integer', id)
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.order_id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_status_history_order_idx').on('order_status_history').column('order_id').execute();

  await db.schema
    .createTable('withdrawals')
    .addColumn('withdrawal_id', 'integer', id)
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.order_id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.user_id').onDelete('set null'))
    .addColumn('whole_order', 'integer', (c) => c.notNull())
    .addColumn('refund', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('withdrawals_order_idx').on('withdrawals').column('order_id').execute();
  await db.schema
    .createTable('withdrawal_items')
    .addColumn('withdrawal_id', 'integer', (c) => c.notNull().references('withdrawals.withdrawal_id').onDelete('cascade'))
    // A line is withdrawn from at most once.
    .addColumn('item_id', 'integer', (c) => c.primaryKey().references('order_items.item_id').onDelete('cascade'))
    .execute();

  await db.schema
    .createTable('complaints')
    .addColumn('complaint_id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.references('users.user_id').onDelete('set null'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.order_id').onDelete('cascade'))
    .addColumn('item_id', 'integer', (c) => c.notNull().references('order_items.item_id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('resolution', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('settle_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('complaints_user_idx').on('complaints').column('user_id').execute();

  await db.schema
    .createTable('complaint_photos')
    .addColumn('photo_id', 'integer', id)
    .addColumn('complaint_id', 'integer', (c) => c.notNull().references('complaints.complaint_id').onDelete('cascade'))
    /** Random name of the file in the data directory's complaints folder. */
    .addColumn('file_name', 'text', (c) => c.notNull().unique())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('complaint_photos_complaint_idx').on('complaint_photos').column('complaint_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['complaint_photos', 'complaints', 'withdrawal_items', 'withdrawals', 'order_status_history', 'addresses', 'password_resets']) {
    await db.schema.dropTable(table).execute();
  }
  for (const column of ['sessions_valid_after', 'deleted_at', 'newsletter', 'company_json', 'phone']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
