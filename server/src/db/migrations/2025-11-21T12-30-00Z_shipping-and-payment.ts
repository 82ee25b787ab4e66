import { PostgresAdapter } from 'kysely';
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
    .createTable('shipping_methods')
    .addColumn('sm_id', 'integer', id)
    .addColumn('sm_code', 'text', (c) => c.notNull().unique())
    .addColumn('sm_name', 'text', (c) => c.notNull())
    .addColumn('sm_description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sm_price', 'integer', (c) => c.notNull())
    .addColumn('sm_vat', 'integer', (c) => c.notNull().defaultTo(23))
    .addColumn('sm_free_from', 'integer')
    .addColumn('sm_max_weight', 'integer')
    .addColumn('sm_position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sm_active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('payment_methods')
    .addColumn('pm_id', 'integer', id)
    .addColumn('pm_code', 'text', (c) => c.notNull().unique())
    .addColumn('pm_name', 'text', (c) => c.notNull())
    .addColumn('pm_description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('pm_price', 'integer', (c) => c.notNull())
    .addColumn('pm_vat', 'integer', (c) => c.notNull().defaultTo(23))
    .addColumn('pm_position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pm_active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_methods').execute();
  await db.schema.dropTable('shipping_methods').execute();
}
