import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.
//
// The sale listing's facets are summed from counts kept per category and brand too (kinds sale_*
// in category_facet_counts, routes/catalog/repository/facet-counts.ts): counted over its products,
// about a quarter of the catalogue, they were far too slow. Its availability counts the discounted variants only,
// so a change of a variant's discount (v_sale) moves its product's category's revision as well.
// Every category is counted again when next asked for, with its sale counts.

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (isPg(db)) {
    // shop_facets_updated_of_products (migration category-facet-counts) moves the variant's product's category.
    await sql`create trigger variants_sale_update after update of v_sale on variants for each row
      when (old.v_sale is distinct from new.v_sale) execute function shop_facets_updated_of_products()`.execute(db);
  } else {
    await sql`create trigger variants_sale_update after update of v_sale on variants
      when old.v_sale is not new.v_sale
      begin
        insert into category_facet_revs (cat_id, rev) select cat_id, 1 from products where p_id = old.p_id and cat_id is not null
        on conflict (cat_id) do update set rev = rev + 1;
      end`.execute(db);
  }
  await db.deleteFrom('category_facet_computed').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(isPg(db) ? 'drop trigger if exists variants_sale_update on variants' : 'drop trigger if exists variants_sale_update').execute(db);
  await db.deleteFrom('category_facet_counts').where('kind', 'like', 'sale_%').execute();
}
