import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.
//
// PostgreSQL counted a search's listed hits as every hit less the unlisted ones: two counts
// through the GIN index over every search row, each visiting every hit's row in the table
// (each slow for a common word on a large catalogue). The index now holds the listed
// rows only, so one count of `listed and document @@ query` is the total, and the pages, which
// ask for listed hits only, read the same index. Nothing searches the unlisted rows.
// SQLite is unchanged (its FTS5 index holds the listed products only already).

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPg(db)) return;
  await sql`create index product_search_listed_document_idx on product_search using gin (document) where listed`.execute(db);
  await sql`drop index product_search_document_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPg(db)) return;
  await sql`create index product_search_document_idx on product_search using gin (document)`.execute(db);
  await sql`drop index product_search_listed_document_idx`.execute(db);
}
