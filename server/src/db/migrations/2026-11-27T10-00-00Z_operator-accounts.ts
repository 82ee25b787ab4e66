import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

const generatedId = (db: Kysely<any>) => {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (col: ColumnDefinitionBuilder) => (pg ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement());
};

/**
 * Operator accounts for /ops (a scrypt password hash with its own salt, revocable), their sessions
 * (only a SHA-256 of the session secret is kept) and the failed sign-ins the rate limit counts, in
 * the database so that every server of a cluster counts the same attempts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const id = generatedId(db);
  await db.schema
    .createTable('operators')
    .addColumn('operator_id', 'integer', id)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createTable('operator_sessions')
    .addColumn('session_id', 'integer', id)
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.operator_id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('operator_sessions_operator').on('operator_sessions').column('operator_id').execute();
  await db.schema
    .createTable('operator_sign_in_failures')
    .addColumn('failure_id', 'integer', id)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('operator_sign_in_failures_name').on('operator_sign_in_failures').columns(['name', 'at']).execute();
  await db.schema.createIndex('operator_sign_in_failures_address').on('operator_sign_in_failures').columns(['address', 'at']).execute();
  await db.schema.createIndex('operator_sign_in_failures_at').on('operator_sign_in_failures').column('at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('operator_sign_in_failures').execute();
  await db.schema.dropTable('operator_sessions').execute();
  await db.schema.dropTable('operators').execute();
}
