import type { Kysely } from 'kysely';
import { PostgresAdapter, type ColumnDefinitionBuilder } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

const generatedId = (db: Kysely<any>) => {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (col: ColumnDefinitionBuilder) => (pg ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement());
};

/** Keys that may sign release manifests, signatures seen (replays), and what the integrity check found. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('release_signing_keys')
    .addColumn('key_id', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('area', 'text')
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createTable('release_signatures')
    .addColumn('signature_hash', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('part', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('release_integrity_findings')
    .addColumn('finding_id', 'integer', generatedId(db))
    .addColumn('part', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('expected', 'text')
    .addColumn('actual', 'text')
    .addColumn('first_seen', 'text', (c) => c.notNull())
    .addColumn('last_seen', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .execute();
  await db.schema
    .createIndex('release_integrity_findings_subject')
    .on('release_integrity_findings')
    .columns(['part', 'version', 'subject', 'kind'])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('release_integrity_findings').execute();
  await db.schema.dropTable('release_signatures').execute();
  await db.schema.dropTable('release_signing_keys').execute();
}
