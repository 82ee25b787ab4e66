import { sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

/** Feature switches per area: one row per switch the operator or the area's team set (absent: on). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('feature_flags')
    .addColumn('area', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('share', 'integer', (c) => c.notNull().check(sql`share >= 0 and share <= 100`))
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('feature_flags_pk', ['area', 'name'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('feature_flags').execute();
}
