import { sql } from 'kysely';
import type { DbOrTrx, DialectName } from '../../../db/database.ts';

/*
 * The tokens are the words of a query as search.service.ts reads them (queryTokens): only [a-z0-9],
 * so they are safe in FTS5 and tsquery syntax. A word of two or more characters matches as a prefix
 * (the index keeps two- and three-character prefixes); a one-character word matches whole words
 * only: as a prefix it would stand for most of the index, many times slower than the whole word.
 */
const prefixed = (token: string, prefix: string) => (token.length > 1 ? prefix : '');
/** FTS5: every word required: "tehla"* AND "8". */
export const ftsQuery = (tokens: string[]) => tokens.map((t) => `"${t}"${prefixed(t, '*')}`).join(' AND ');
/** PostgreSQL, for ranking against the document: tehla:* & 8 */
export const tsQuery = (tokens: string[]) => tokens.map((t) => `${t}${prefixed(t, ':*')}`).join(' & ');
/**
 * PostgreSQL, for matching against the search rows' prefixes (every prefix of 2 to 12 characters of
 * each word, and one-character words whole: migration search-prefix-lexemes): tehla & 8. The same
 * rows as tsQuery against the document, each word one lookup in the index instead of a prefix scan.
 */
export const prefixQuery = (tokens: string[]) => tokens.join(' & ');

/**
 * The hits ranked by relevance: the first this many listed hits in popularity order (10 pages).
 * Ranking is bounded: the index scores these, never every hit of a common word.
 */
export const RANKED_HITS = 150;

/**
 * The hits a search counts and pages through at most (67 pages of 15): past that, the answer says
 * "more than 1,000" instead of counting every hit of a common word. PostgreSQL's count visits every
 * hit's row, which for a common word on a large catalog dominates the search; up to this bound it stays quick.
 * No shopper pages that far: a common word is narrowed by another word or a category instead.
 */
export const COUNTED_HITS = 1000;

/** SQLite: product_search's rowid is products.p_search_key, in popularity order; its low 32 bits are p_id (migration search-in-popularity-order). */
const HIT_ID = 's.rowid & 4294967295';

/**
 * Full-text search over product names, brands, categories and descriptions. SQLite: FTS5 with
 * bm25 (name matches weigh most, then brand, category, description) over the listed products
 * only (migration search-index-listed-only); PostgreSQL: a tsvector over unaccented text ranked
 * with ts_rank (name weighs most), matched through a GIN index of its words' prefixes (migration
 * search-prefix-lexemes); its rows carry their product's popularity and whether it is listed,
 * with an index in that order over the listed ones (migration search-order-in-index).
 *
 * Only listed products (with a price) are results. The order: the RANKED_HITS most popular listed
 * hits (popularity desc, id), ranked by score, then popularity, then id; after them every other
 * listed hit by popularity, then id. The index hands its hits over in popularity order (SQLite:
 * the rowid is the popularity key; PostgreSQL: the search rows in their order index), so only the ranked
 * hits are scored and a later page reads hits in that order. The total is the index's own count
 * (PostgreSQL: its GIN index holds the listed rows only, migration search-listed-document-index).
 */
export class SearchRepository {
  constructor(
    private readonly db: DbOrTrx,
    private readonly dialect: DialectName,
    private readonly rankedHits = RANKED_HITS,
    private readonly countedHits = COUNTED_HITS,
  ) {}

  /**
   * One page of product ids, best first, and the number of results up to countedHits (`capped`:
   * there are more, which no page reaches). PostgreSQL counts and reads the page at once, on two
   * connections; SQLite (one connection) skips the page past the end.
   */
  async results(tokens: string[], limit: number, offset: number): Promise<{ ids: number[]; total: number; capped: boolean }> {
    if (tokens.length === 0) return { ids: [], total: 0, capped: false };
    if (this.dialect === 'postgres') {
      // No page reaches past the bound: a page from there (…&page=1000000) reads no hit at all.
      const pageLimit = Math.min(limit, this.countedHits - offset);
      const [counted, ids] = await Promise.all([this.countListed(tokens), pageLimit > 0 ? this.page(tokens, pageLimit, offset) : []]);
      return { ...counted, ids: counted.total <= offset ? [] : ids.slice(0, counted.total - offset) };
    }
    const counted = await this.countListed(tokens);
    if (counted.total <= offset) return { ...counted, ids: [] };
    return { ...counted, ids: await this.page(tokens, Math.min(limit, counted.total - offset), offset) };
  }

  /** Product ids of one page of results, best first: from the ranked hits, then from the rest in popularity order. */
  async page(tokens: string[], limit: number, offset: number): Promise<number[]> {
    if (tokens.length === 0) return [];
    const ranked = offset < this.rankedHits ? await this.rankedPage(tokens, Math.min(limit, this.rankedHits - offset), offset) : [];
    const restFrom = Math.max(offset, this.rankedHits);
    const restCount = offset + limit - restFrom;
    return restCount > 0 ? [...ranked, ...(await this.popularPage(tokens, restCount, restFrom))] : ranked;
  }

  /** Part of the ranked hits, from `offset` (< rankedHits). */
  private async rankedPage(tokens: string[], limit: number, offset: number): Promise<number[]> {
    const query =
      this.dialect === 'sqlite'
        ? sql<{ p_id: number }>`with w as materialized (
              select s.rowid as k, bm25(product_search, 10.0, 4.0, 2.0, 1.0) as score
              from product_search s where product_search match ${ftsQuery(tokens)}
              order by s.rowid limit ${this.rankedHits})
            select k & 4294967295 as p_id from w order by score, k limit ${limit} offset ${offset}`
        : sql<{ p_id: number }>`with w as materialized (
              select s.p_id, s.document, s.p_popularity from product_search s
              where s.prefixes @@ to_tsquery('simple', ${prefixQuery(tokens)}) and s.listed
              order by s.p_popularity desc, s.p_id limit ${this.rankedHits})
            select p_id from w order by ts_rank(document, to_tsquery('simple', ${tsQuery(tokens)})) desc, p_popularity desc, p_id
            limit ${limit} offset ${offset}`;
    const { rows } = await query.execute(this.db);
    return rows.map((r) => r.p_id);
  }

  /** Listed hits in popularity order, from `offset` (past the ranked ones). */
  private async popularPage(tokens: string[], limit: number, offset: number): Promise<number[]> {
    const query =
      this.dialect === 'sqlite'
        ? sql<{ p_id: number }>`select ${sql.raw(HIT_ID)} as p_id from product_search s
            where product_search match ${ftsQuery(tokens)} order by s.rowid limit ${limit} offset ${offset}`
        : sql<{ p_id: number }>`select s.p_id from product_search s
            where s.prefixes @@ to_tsquery('simple', ${prefixQuery(tokens)}) and s.listed
            order by s.p_popularity desc, s.p_id limit ${limit} offset ${offset}`;
    const { rows } = await query.execute(this.db);
    return rows.map((r) => r.p_id);
  }

  /**
   * The listed hits up to countedHits, counted inside the index (no join): both indexes hold the
   * listed products only (SQLite's FTS5 index; PostgreSQL's GIN index over its listed search rows).
   * One hit past the bound tells that there are more.
   */
  private async countListed(tokens: string[]): Promise<{ total: number; capped: boolean }> {
    const bound = this.countedHits + 1;
    const query =
      this.dialect === 'sqlite'
        ? sql<{
            n: number;
          }>`select count(*) as n from (select 1 from product_search where product_search match ${ftsQuery(tokens)} limit ${bound})`
        : // Through the prefixes' GIN index, never a sequential scan (migrations search-hit-count, search-prefix-lexemes).
          sql<{ n: number }>`select search_hit_count(to_tsquery('simple', ${prefixQuery(tokens)}), ${bound}) as n`;
    const n = Number((await query.execute(this.db)).rows[0]?.n ?? 0);
    return { total: Math.min(n, this.countedHits), capped: n > this.countedHits };
  }

  /** Suggestions: the best few products with their tile price. */
  async suggestions(tokens: string[], limit: number) {
    const ids = await this.page(tokens, limit, 0);
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('products').select(['p_id', 'p_url', 'p_name', 'p_price']).where('p_id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.p_id, r]));
    return ids.flatMap((id) => {
      const r = byId.get(id);
      return r && r.p_price !== null ? [{ p_id: r.p_id, p_url: r.p_url, p_name: r.p_name, price: r.p_price }] : [];
    });
  }
}
