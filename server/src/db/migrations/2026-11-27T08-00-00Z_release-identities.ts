import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

const generatedId = (db: Kysely<any>) => {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (col: ColumnDefinitionBuilder) => (pg ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement());
};

/**
 * Release credentials (one area each, secrets stored as hashes, revocable) and the append-only
 * audit log of every release action, allowed or refused.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const id = generatedId(db);
  await db.schema
    .createTable('release_credentials')
    .addColumn('credential_id', 'integer', id)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('area', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createTable('release_audit')
    .addColumn('audit_id', 'integer', id)
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('part', 'text')
    .addColumn('allowed', 'integer', (c) => c.notNull())
    .addColumn('detail', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('release_audit').execute();
  await db.schema.dropTable('release_credentials').execute();
}
