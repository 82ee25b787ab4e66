import { PostgresAdapter, sql } from 'kysely';
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

function generatedId(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (col: ColumnDefinitionBuilder) =>
    pg ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  const id = generatedId(db);

  await db.schema
    .createTable('users')
    .addColumn('user_id', 'integer', id)
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('revoked_tokens')
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('coupons')
    .addColumn('coupon_id', 'integer', id)
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('percent', 'amount')`))
    .addColumn('value', 'integer', (c) => c.notNull().check(sql`value >= 0`))
    .addColumn('min_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('valid_from', 'text', (c) => c.notNull())
    .addColumn('valid_to', 'text', (c) => c.notNull())
    .addColumn('max_uses', 'integer')
    .addColumn('once_per_customer', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('user_coupons')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.user_id').onDelete('cascade'))
    .addColumn('coupon_id', 'integer', (c) => c.notNull().references('coupons.coupon_id').onDelete('cascade'))
    .addColumn('applied_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('coupon_redemptions')
    .addColumn('redemption_id', 'integer', id)
    .addColumn('coupon_id', 'integer', (c) => c.notNull().references('coupons.coupon_id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('order_ref', 'text')
    .addColumn('redeemed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('coupon_redemptions_coupon_user_idx')
    .on('coupon_redemptions')
    .columns(['coupon_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['coupon_redemptions', 'user_coupons', 'coupons', 'revoked_tokens', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
