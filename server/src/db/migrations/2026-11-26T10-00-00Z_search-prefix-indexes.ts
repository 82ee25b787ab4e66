import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.
//
// SQLite's search index keeps prefix indexes for every prefix length a query word can have (2 to
// 12 characters; search.service.ts reads at most the first 12 characters of a word). A prefix
// query without its own prefix index merges the lists of every word that starts with it, all of
// them, before the first hit; with the prefix indexes a prefix is one list, several times quicker,
// for an index about half as large again. The rows are copied from the current index, whose
// triggers (migration search-in-popularity-order) stay as they are.

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const COLUMNS = 'name, brand, category, description';

async function rebuild(db: Kysely<any>, prefix: string): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run('drop table if exists product_search_rebuilt');
  await run(`create virtual table product_search_rebuilt using fts5(
    ${COLUMNS}, tokenize = 'unicode61 remove_diacritics 2', prefix = '${prefix}')`);
  // In rowid order: FTS5 builds its index fastest from ascending rowids.
  await run(`insert into product_search_rebuilt (rowid, ${COLUMNS}) select rowid, ${COLUMNS} from product_search order by rowid`);
  await run('drop table product_search');
  // The triggers on products name product_search: renaming with the legacy rule leaves them as they are, checked at their next use.
  await run('pragma legacy_alter_table = on');
  await run('alter table product_search_rebuilt rename to product_search');
  await run('pragma legacy_alter_table = off');
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPg(db)) await rebuild(db, '2 3 4 5 6 7 8 9 10 11 12');
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPg(db)) await rebuild(db, '2 3');
}
