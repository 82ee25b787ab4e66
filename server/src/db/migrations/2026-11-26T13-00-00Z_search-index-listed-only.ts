import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.
//
// SQLite's search index (FTS5, product_search) held every product, listed or not, so each search
// joined its hits to products for their price: the ranked page looked up 150 product rows, the
// count needed a second query for the unlisted hits. The index now holds the listed products
// (with a price) only, kept so by the triggers: a product enters it when it gets a price and
// leaves it when it loses it. The ranked page reads the index alone, with no product rows, and
// the index's own count is the total.
// A change of price that keeps a product listed no longer rewrites its row of the index.
// PostgreSQL is unchanged (its search rows carry `listed`, migration search-order-in-index).

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Names of the category and its two ancestors (the tree is three levels deep), for search. */
const CATEGORY_TEXT = (catId: string) => `(
  select c.cat_name || coalesce(' ' || c1.cat_name, '') || coalesce(' ' || c2.cat_name, '')
  from categories c
  left join categories c1 on c1.cat_id = c.cat_parent_id
  left join categories c2 on c2.cat_id = c1.cat_parent_id
  where c.cat_id = ${catId})`;
const BRAND_TEXT = (bId: string) => `coalesce((select b.b_name from brands b where b.b_id = ${bId}), '')`;
const values = (p: string) =>
  `${p}.p_search_key, ${p}.p_name, ${BRAND_TEXT(`${p}.b_id`)}, coalesce(${CATEGORY_TEXT(`${p}.cat_id`)}, ''), ${p}.p_description`;
const INSERT = 'insert into product_search (rowid, name, brand, category, description)';

const TRIGGERS = ['products_search_insert', 'products_search_update', 'products_search_delete'];

async function dropTriggers(db: Kysely<any>): Promise<void> {
  for (const trigger of TRIGGERS) await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (isPg(db)) return;
  const run = (text: string) => sql.raw(text).execute(db);
  await dropTriggers(db);
  await run(`create trigger products_search_insert after insert on products when new.p_price is not null begin
    ${INSERT} select ${values('new')}; end`);
  // Only what the index holds or orders by: its text, the popularity key, being listed.
  await run(`create trigger products_search_update after update of p_name, p_description, b_id, cat_id, p_popularity, p_price on products
    when old.p_name is not new.p_name or old.p_description is not new.p_description or old.b_id is not new.b_id
      or old.cat_id is not new.cat_id or old.p_popularity is not new.p_popularity or (old.p_price is null) <> (new.p_price is null)
    begin
      delete from product_search where rowid = old.p_search_key;
      ${INSERT} select ${values('new')} where new.p_price is not null;
    end`);
  await run(`create trigger products_search_delete after delete on products begin
    delete from product_search where rowid = old.p_search_key; end`);
  await run('delete from product_search where rowid in (select p_search_key from products where p_price is null)');
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPg(db)) return;
  const run = (text: string) => sql.raw(text).execute(db);
  await dropTriggers(db);
  await run(`create trigger products_search_insert after insert on products begin ${INSERT} select ${values('new')}; end`);
  await run(`create trigger products_search_update after update of p_name, p_description, b_id, cat_id, p_popularity on products begin
    delete from product_search where rowid = old.p_search_key;
    ${INSERT} select ${values('new')}; end`);
  await run(`create trigger products_search_delete after delete on products begin
    delete from product_search where rowid = old.p_search_key; end`);
  await run(`${INSERT} select ${values('p')} from products p where p.p_price is null order by 1`);
}
