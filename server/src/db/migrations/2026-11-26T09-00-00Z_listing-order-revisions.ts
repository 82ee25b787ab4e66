import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.
//
// A filtered category listing is read from memory (routes/catalog/repository/listing-index.ts),
// kept per category at its revision (category_facet_revs, migration category-facet-counts). Its
// order also depends on the sort columns, so a change of a product's popularity, sort name or date
// moves its category's revision too (an update that changes none of them moves nothing).

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const COLUMNS = ['p_popularity', 'p_name_sort', 'p_created_at'];

export async function up(db: Kysely<any>): Promise<void> {
  if (isPg(db)) {
    // shop_facets_updated_products (migration category-facet-counts) moves the old and the new category.
    await sql.raw(`create trigger products_order_update after update of ${COLUMNS.join(', ')} on products for each row
      when (${COLUMNS.map((c) => `old.${c} is distinct from new.${c}`).join(' or ')}) execute function shop_facets_updated_products()`).execute(db);
    return;
  }
  await sql.raw(`create trigger products_order_update after update of ${COLUMNS.join(', ')} on products
    when ${COLUMNS.map((c) => `old.${c} is not new.${c}`).join(' or ')}
    begin
      insert into category_facet_revs (cat_id, rev) select old.cat_id, 1 where old.cat_id is not null
      on conflict (cat_id) do update set rev = rev + 1;
    end`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(isPg(db) ? 'drop trigger if exists products_order_update on products' : 'drop trigger if exists products_order_update').execute(db);
}
