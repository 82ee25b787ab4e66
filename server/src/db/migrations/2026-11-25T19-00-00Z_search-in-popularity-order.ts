import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.
//
// Search ranks a bounded set of hits (search.repository.ts): the most popular listed hits, in the
// order a search index can hand them over without reading the rest. PostgreSQL orders its hits by
// products.p_popularity through the join it already makes; SQLite's FTS5 hands hits over in rowid
// order, so product_search's rowid becomes a key in popularity order (most popular first, ties by
// p_id), kept as a generated column of products:
//   p_search_key = ((1073741823 - popularity clamped to [-2^30, 2^30 - 1]) << 32) | p_id
// (p_id = rowid & 4294967295). A change of popularity moves the product's row in the index.

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const SEARCH_KEY = `(((1073741823 - max(-1073741824, min(p_popularity, 1073741823))) << 32) | p_id)`;

/** Names of the category and its two ancestors (the tree is three levels deep), for search. */
const CATEGORY_TEXT = (catId: string) => `(
  select c.cat_name || coalesce(' ' || c1.cat_name, '') || coalesce(' ' || c2.cat_name, '')
  from categories c
  left join categories c1 on c1.cat_id = c.cat_parent_id
  left join categories c2 on c2.cat_id = c1.cat_parent_id
  where c.cat_id = ${catId})`;
const BRAND_TEXT = (bId: string) => `coalesce((select b.b_name from brands b where b.b_id = ${bId}), '')`;
const values = (p: string, rowid: string) =>
  `${rowid}, ${p}.p_name, ${BRAND_TEXT(`${p}.b_id`)}, coalesce(${CATEGORY_TEXT(`${p}.cat_id`)}, ''), ${p}.p_description`;

const TRIGGERS = ['products_search_insert', 'products_search_update', 'products_search_delete'];

async function rebuild(db: Kysely<any>, key: (p: string) => string, updateOf: string): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  for (const trigger of TRIGGERS) await run(`drop trigger if exists ${trigger}`);
  await run('drop table if exists product_search');
  await run(`create virtual table product_search using fts5(
    name, brand, category, description,
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')`);
  await run(`create trigger products_search_insert after insert on products begin
    insert into product_search (rowid, name, brand, category, description) select ${values('new', key('new'))}; end`);
  await run(`create trigger products_search_update after update of ${updateOf} on products begin
    delete from product_search where rowid = ${key('old')};
    insert into product_search (rowid, name, brand, category, description) select ${values('new', key('new'))}; end`);
  await run(`create trigger products_search_delete after delete on products begin
    delete from product_search where rowid = ${key('old')}; end`);
  // In rowid order: FTS5 builds its index fastest from ascending rowids.
  await run(`insert into product_search (rowid, name, brand, category, description)
    select ${values('p', key('p'))} from products p order by 1`);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (isPg(db)) return;
  await sql.raw(`alter table products add column p_search_key integer generated always as ${SEARCH_KEY} virtual`).execute(db);
  await rebuild(db, (p) => `${p}.p_search_key`, 'p_name, p_description, b_id, cat_id, p_popularity');
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPg(db)) return;
  await rebuild(db, (p) => `${p}.p_id`, 'p_name, p_description, b_id, cat_id');
  await sql.raw('alter table products drop column p_search_key').execute(db);
}
