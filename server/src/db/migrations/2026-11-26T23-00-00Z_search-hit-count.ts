import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.
//
// A search counts its listed hits up to a bound (search.repository.ts, COUNTED_HITS). Written as
// `count(*) from (… limit bound)`, PostgreSQL planned a common word's count as a sequential scan
// that stops at the bound: it expects a hit every few rows, but matching each row's document
// costs far more than it assumes (slower than the GIN index warm, much slower cold). This
// function counts through the index: its own setting leaves the sequential scan out
// for its query only. SQLite needs nothing (its FTS5 index is the only way to a hit).

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPg(db)) return;
  await sql`create function search_hit_count(query tsquery, bound integer) returns bigint
    language sql stable parallel safe set enable_seqscan = off
    as $$ select count(*) from (select 1 from product_search where listed and document @@ query limit bound) hits $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPg(db)) return;
  await sql`drop function search_hit_count(tsquery, integer)`.execute(db);
}
