import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.
//
// The sale listing (the products with a discounted variant) is read in SQL. Its page was sorted
// after reading every sale product (about a quarter of the catalogue) for the first page, and a
// read of each product's row for the other sorts. One partial index per sort over the sale
// products only, in exactly the listing's orders (catalog.repository.ts, LISTING_ORDER), reads a
// page from the index, whatever the sort and page.

const INDEXES = {
  products_sale_order_popular_idx: 'p_popularity desc, p_id',
  products_sale_order_price_idx: 'p_price, p_id',
  products_sale_order_price_desc_idx: 'p_price desc, p_id',
  products_sale_order_name_idx: 'p_name_sort, p_id',
  products_sale_order_newest_idx: 'p_created_at desc, p_id desc',
};

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of Object.entries(INDEXES)) {
    await sql.raw(`create index ${name} on products (${columns}) where p_sale_price is not null`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of Object.keys(INDEXES)) await db.schema.dropIndex(name).execute();
}
