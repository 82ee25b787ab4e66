import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.
//
// PostgreSQL's search read its hits in popularity order through products (its popularity index,
// each product's row for its price, then its search row through the primary key, then the match):
// slow for the ranked page of a common or a two-word query on a large catalogue. The search
// row now carries its product's popularity and whether it is listed (has a price), with an index
// in the results' order over the listed rows: the ranked and the later pages read the search rows
// alone, in order, and stop at the page's end. Kept by triggers: the document's trigger
// writes them with the document; a change of popularity or of being listed writes them alone.
// SQLite is unchanged (its FTS5 rowid is the popularity key already).

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPg(db)) return;
  const run = (text: string) => sql.raw(text).execute(db);
  await run('alter table product_search add column p_popularity integer not null default 0, add column listed boolean not null default false');
  await run('update product_search s set p_popularity = p.p_popularity, listed = p.p_price is not null from products p where p.p_id = s.p_id');
  await run('create index product_search_listed_order_idx on product_search (p_popularity desc, p_id) where listed');
  await run(`create or replace function shop_products_search_changed() returns trigger language plpgsql as $$
    begin
      insert into product_search (p_id, document, p_popularity, listed)
      values (new.p_id, shop_product_document(new.p_id), new.p_popularity, new.p_price is not null)
      on conflict (p_id) do update set document = excluded.document, p_popularity = excluded.p_popularity, listed = excluded.listed;
      return null;
    end $$`);
  await run(`create function shop_products_search_order() returns trigger language plpgsql as $$
    begin
      update product_search set p_popularity = new.p_popularity, listed = new.p_price is not null where p_id = new.p_id;
      return null;
    end $$`);
  await run(`create trigger products_search_order after update of p_popularity, p_price on products for each row
    when (old.p_popularity is distinct from new.p_popularity or (old.p_price is null) <> (new.p_price is null))
    execute function shop_products_search_order()`);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPg(db)) return;
  const run = (text: string) => sql.raw(text).execute(db);
  await run('drop trigger if exists products_search_order on products');
  await run('drop function if exists shop_products_search_order()');
  await run(`create or replace function shop_products_search_changed() returns trigger language plpgsql as $$
    begin
      insert into product_search (p_id, document) values (new.p_id, shop_product_document(new.p_id))
      on conflict (p_id) do update set document = excluded.document;
      return null;
    end $$`);
  await run('drop index if exists product_search_listed_order_idx');
  await run('alter table product_search drop column p_popularity, drop column listed');
}
