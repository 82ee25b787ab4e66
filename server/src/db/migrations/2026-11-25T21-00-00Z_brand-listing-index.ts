import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.
//
// A category listing narrowed to brands reads its products through (b_id, cat_id, p_price). To
// sort them it read each product's row, past its description (on SQLite in overflow pages), slow
// for a large brand in a large category, slower with more brands and filters. With every sort
// column in the index the
// page is sorted from the index alone.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('products_brand_listing_idx')
    .on('products')
    .columns(['b_id', 'cat_id', 'p_price', 'p_popularity', 'p_name_sort', 'p_created_at'])
    .execute();
  await db.schema.dropIndex('products_brand_cat_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('products_brand_cat_idx').on('products').columns(['b_id', 'cat_id', 'p_price']).execute();
  await db.schema.dropIndex('products_brand_listing_idx').execute();
}
