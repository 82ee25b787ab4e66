import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.
//
// A search word matches as a prefix ("tehl" finds tehla, tehly, tehlový). On PostgreSQL a prefix
// query (tehl:*) makes the GIN index find every word that starts with it and merge their lists:
// "30:*" alone stands for hundreds of words, which made "tehla porotherm 30" slow to count and to
// rank on a large catalogue. Each search row now also holds every prefix of its words, 2 to 12
// characters (a word counts by its first 12, as on SQLite, whose FTS5 index keeps the same
// prefixes), and words of one character whole: a search looks its words up whole in that column's
// index, one list each, several times quicker. The same rows match: a word
// is a prefix of a document's word exactly when it is one of that word's prefixes. The document
// stays as it was, for ranking (ts_rank) and for the words' positions. SQLite needs nothing.

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPg(db)) return;
  await sql`create function shop_prefix_lexemes(document tsvector) returns tsvector
    language sql immutable parallel safe strict
    as $$ select array_to_tsvector(coalesce(array_agg(distinct left(word.lexeme, n)), '{}'))
      from unnest(tsvector_to_array(document)) as word(lexeme),
        generate_series(case when length(word.lexeme) = 1 then 1 else 2 end, least(length(word.lexeme), 12)) as n $$`.execute(db);
  await sql`alter table product_search add column prefixes tsvector generated always as (shop_prefix_lexemes(document)) stored`.execute(db);
  await sql`create index product_search_listed_prefixes_idx on product_search using gin (prefixes) where listed`.execute(db);
  await sql`drop index product_search_listed_document_idx`.execute(db);
  // The bounded count (migration search-hit-count), through the prefixes' index.
  await sql`create or replace function search_hit_count(query tsquery, bound integer) returns bigint
    language sql stable parallel safe set enable_seqscan = off
    as $$ select count(*) from (select 1 from product_search where listed and prefixes @@ query limit bound) hits $$`.execute(db);
  await sql`analyze product_search`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPg(db)) return;
  await sql`create or replace function search_hit_count(query tsquery, bound integer) returns bigint
    language sql stable parallel safe set enable_seqscan = off
    as $$ select count(*) from (select 1 from product_search where listed and document @@ query limit bound) hits $$`.execute(db);
  await sql`create index product_search_listed_document_idx on product_search using gin (document) where listed`.execute(db);
  await sql`drop index product_search_listed_prefixes_idx`.execute(db);
  await sql`alter table product_search drop column prefixes`.execute(db);
  await sql`drop function shop_prefix_lexemes(tsvector)`.execute(db);
}
