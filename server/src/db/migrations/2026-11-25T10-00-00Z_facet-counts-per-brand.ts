import type { CreateTableBuilder, Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.
//
// The counts kept per category (migration category-facet-counts) are kept per category and brand:
// a product has one brand (b_id 0: none), so a category's counts are the sum over its brands, and
// a category page filtered by brands sums only theirs (the brand facet itself, disjunctive, sums
// them all). The table is made anew and every category is counted again when next asked for.

async function createCounts(db: Kysely<any>, perBrand: boolean): Promise<void> {
  let table: CreateTableBuilder<'category_facet_counts', string> = db.schema
    .createTable('category_facet_counts')
    .addColumn('cat_id', 'integer', (c) => c.notNull());
  if (perBrand) table = table.addColumn('b_id', 'integer', (c) => c.notNull());
  await table
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ref_id', 'integer', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('lo', 'bigint')
    .addColumn('hi', 'bigint')
    .addPrimaryKeyConstraint('category_facet_counts_pk', (perBrand ? ['cat_id', 'b_id', 'kind', 'ref_id', 'value'] : ['cat_id', 'kind', 'ref_id', 'value']))
    .execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('category_facet_counts').execute();
  await createCounts(db, true);
  await db.deleteFrom('category_facet_computed').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('category_facet_counts').execute();
  await createCounts(db, false);
  await db.deleteFrom('category_facet_computed').execute();
}
