import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.
//
// The sale listing's total is summed from counts kept per category and brand (kind sale_price in
// category_facet_counts, routes/catalog/repository/facet-counts.ts) instead of counted over its
// products: on PostgreSQL, counting a quarter of the catalogue through their index was a large
// share of every sale page. Whether a product is on sale (products.p_sale_price) can change without its
// price (a variant other than the tile's gets a discount), so that change moves its category's
// revision too. Every category is counted again when next asked for, with its sale count.

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (isPg(db)) {
    // shop_facets_updated_products (migration category-facet-counts) moves the product's category.
    await sql`create trigger products_sale_update after update of p_sale_price on products for each row
      when (old.p_sale_price is distinct from new.p_sale_price) execute function shop_facets_updated_products()`.execute(db);
  } else {
    await sql`create trigger products_sale_update after update of p_sale_price on products
      when old.p_sale_price is not new.p_sale_price
      begin
        insert into category_facet_revs (cat_id, rev) select old.cat_id, 1 where old.cat_id is not null
        on conflict (cat_id) do update set rev = rev + 1;
      end`.execute(db);
  }
  await db.deleteFrom('category_facet_computed').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(isPg(db) ? 'drop trigger if exists products_sale_update on products' : 'drop trigger if exists products_sale_update').execute(db);
  await db.deleteFrom('category_facet_counts').where('kind', '=', 'sale').execute();
}
