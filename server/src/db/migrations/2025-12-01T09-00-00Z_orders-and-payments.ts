import { PostgresAdapter } from 'kysely';
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

function generatedId(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (col: ColumnDefinitionBuilder) =>
    pg ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();
}

/** Courier price bands by basket weight (grams; price without VAT, thousandths). */
const COURIER_BANDS = [
  { sm_code: 'courier', max_weight: 5_000, price: 3_984 }, // 4,90 € with VAT
  { sm_code: 'courier', max_weight: 10_000, price: 4_797 }, // 5,90 €
  { sm_code: 'courier', max_weight: 20_000, price: 6_423 }, // 7,90 €
  { sm_code: 'courier', max_weight: 30_000, price: 8_049 }, // 9,90 €
];

export async function up(db: Kysely<any>): Promise<void> {
  const id = generatedId(db);

  await db.schema
    .createTable('orders')
    .addColumn('order_id', 'integer', id)
    .addColumn('order_number', 'text', (c) => c.notNull().unique())
    .addColumn('order_token', 'text', (c) => c.notNull().unique())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.user_id').onDelete('set null'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('contact_json', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('shipping_code', 'text', (c) => c.notNull())
    .addColumn('shipping_name', 'text', (c) => c.notNull())
    .addColumn('shipping_price', 'integer', (c) => c.notNull())
    .addColumn('shipping_vat', 'integer', (c) => c.notNull())
    .addColumn('payment_code', 'text', (c) => c.notNull())
    .addColumn('payment_name', 'text', (c) => c.notNull())
    .addColumn('payment_price', 'integer', (c) => c.notNull())
    .addColumn('payment_vat', 'integer', (c) => c.notNull())
    .addColumn('coupon_code', 'text')
    .addColumn('items_total', 'integer', (c) => c.notNull())
    .addColumn('discount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('amount_due', 'integer', (c) => c.notNull())
    .addColumn('weight', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payment_status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('paid_at', 'text')
    .execute();
  await db.schema.createIndex('orders_user_idx').on('orders').column('user_id').execute();

  await db.schema
    .createTable('order_items')
    .addColumn('item_id', 'integer', id)
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.order_id').onDelete('cascade'))
    .addColumn('v_id', 'integer', (c) => c.notNull())
    .addColumn('v_code', 'text', (c) => c.notNull())
    .addColumn('p_name', 'text', (c) => c.notNull())
    .addColumn('v_name', 'text', (c) => c.notNull())
    .addColumn('v_unit', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('unit_price', 'integer', (c) => c.notNull())
    .addColumn('vat', 'integer', (c) => c.notNull())
    .addColumn('line_total', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_items_order_idx').on('order_items').column('order_id').execute();

  await db.schema
    .createTable('payments')
    .addColumn('payment_id', 'integer', id)
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.order_id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('gateway_ref', 'text', (c) => c.notNull().unique())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('redirect_url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payments_order_idx').on('payments').column('order_id').execute();

  await db.schema
    .createTable('payment_notifications')
    .addColumn('notification_id', 'text', (c) => c.primaryKey())
    .addColumn('gateway_ref', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('shipping_weight_bands')
    .addColumn('band_id', 'integer', id)
    .addColumn('sm_code', 'text', (c) => c.notNull())
    .addColumn('max_weight', 'integer', (c) => c.notNull())
    .addColumn('price', 'integer', (c) => c.notNull())
    .execute();
  await db.insertInto('shipping_weight_bands').values(COURIER_BANDS).execute();

  // The pickup point joins the shipping methods (the seed of an empty database adds the rest).
  await db
    .insertInto('shipping_methods')
    .values({
      sm_code: 'pickup-point',
      sm_name: 'Výdajné miesto',
      sm_description: 'Balíky do 15 kg na výdajnom mieste podľa vášho výberu, do 3 pracovných dní.',
      sm_price: 2_358, // 2,90 € with VAT
      sm_vat: 23,
      sm_free_from: null,
      sm_max_weight: 15_000,
      sm_position: 3,
      sm_active: 1,
    })
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('shipping_methods').where('sm_code', '=', 'pickup-point').execute();
  for (const table of ['shipping_weight_bands', 'payment_notifications', 'payments', 'order_items', 'orders']) {
    await db.schema.dropTable(table).execute();
  }
}
