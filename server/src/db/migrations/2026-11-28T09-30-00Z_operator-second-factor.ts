import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

const generatedId = (db: Kysely<any>) => {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (col: ColumnDefinitionBuilder) => (pg ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement());
};

/**
 * The operators' second factor and the machines' credentials:
 * - an operator's TOTP secret (pending until a first code confirms it), the last time step a code was
 *   taken for (a code is taken once), and ten one-time recovery codes kept as SHA-256 hashes;
 * - a session's last use (the idle timeout slides with it), when it passed the second factor and when
 *   it last re-authenticated (release actions need a fresh one). Sessions opened before have none of
 *   these and end here: every operator signs in again, with the second factor;
 * - machine credentials (Prometheus's metrics credential): one scope each, a SHA-256 of the secret,
 *   revocable;
 * - failed sign-ins counted per name and address together.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const id = generatedId(db);
  for (const column of ['totp_secret', 'totp_pending', 'totp_confirmed_at'])
    await db.schema.alterTable('operators').addColumn(column, 'text').execute();
  await db.schema.alterTable('operators').addColumn('totp_last_step', 'bigint').execute();
  for (const column of ['last_seen_at', 'second_factor_at', 'reauth_at'])
    await db.schema.alterTable('operator_sessions').addColumn(column, 'text').execute();
  await db
    .updateTable('operator_sessions')
    .set({ revoked_at: sql`coalesce(revoked_at, created_at)` })
    .execute();
  await db.schema
    .createTable('operator_recovery_codes')
    .addColumn('code_id', 'integer', id)
    .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.operator_id'))
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('operator_recovery_codes_operator').on('operator_recovery_codes').column('operator_id').execute();
  await db.schema
    .createTable('machine_credentials')
    .addColumn('credential_id', 'integer', id)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createIndex('operator_sign_in_failures_name_address')
    .on('operator_sign_in_failures')
    .columns(['name', 'address', 'at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('operator_sign_in_failures_name_address').execute();
  await db.schema.dropTable('machine_credentials').execute();
  await db.schema.dropTable('operator_recovery_codes').execute();
  for (const column of ['last_seen_at', 'second_factor_at', 'reauth_at'])
    await db.schema.alterTable('operator_sessions').dropColumn(column).execute();
  for (const column of ['totp_secret', 'totp_pending', 'totp_confirmed_at', 'totp_last_step'])
    await db.schema.alterTable('operators').dropColumn(column).execute();
}
