import { sql } from 'kysely';
import type { DbOrTrx, DialectName } from '../../db/database.ts';

/*
 * The tokens are the words of a query as search.service.ts reads them (queryTokens): only [a-z0-9],
 * so they are safe in FTS5 and tsquery syntax.
 */
/** FTS5: every word as a prefix, all required: "tehla"* AND "porotherm"*. */
const ftsQuery = (tokens: string[]) => tokens.map((t) => `"${t}"*`).join(' AND ');
/** PostgreSQL: tehla:* & porotherm:* */
const tsQuery = (tokens: string[]) => tokens.map((t) => `${t}:*`).join(' & ');

/**
 * Full-text search over product names, brands, categories and descriptions, ranked (name
 * matches weigh most, then brand, category, description; then popularity). SQLite: FTS5 with
 * bm25; PostgreSQL: a GIN-indexed tsvector over unaccented text with ts_rank.
 *
 * Only listed products (with a price) are results, ranked by (score, popularity desc, id). The
 * products table is read only for the hits that can be on the page: the index scores its hits once
 * (a materialised CTE), the score of the page's last possible hit is the bound (counting the
 * unlisted products among the hits, normally none), and only hits scoring at least as well are
 * joined for the tie-break. The total is the index's own count less the unlisted hits. Results,
 * order and totals are those of joining and ranking every hit.
 */
export class SearchRepository {
  constructor(
    private readonly db: DbOrTrx,
    private readonly dialect: DialectName,
  ) {}

  /** One page of product ids, best first, and the number of all results. */
  async results(tokens: string[], limit: number, offset: number): Promise<{ ids: number[]; total: number }> {
    if (tokens.length === 0) return { ids: [], total: 0 };
    const [hits, unlisted] = await Promise.all([this.countHits(tokens), this.countUnlisted(tokens)]);
    const total = hits - unlisted;
    if (total <= offset) return { ids: [], total };
    return { ids: await this.rankedPage(tokens, limit, offset, unlisted), total };
  }

  /** Product ids of one page of results, best first. */
  async page(tokens: string[], limit: number, offset: number): Promise<number[]> {
    if (tokens.length === 0) return [];
    return this.rankedPage(tokens, limit, offset, await this.countUnlisted(tokens));
  }

  private async rankedPage(tokens: string[], limit: number, offset: number, unlisted: number): Promise<number[]> {
    // Among the `needed` best hits are at least offset + limit listed ones: the page is within them and their ties.
    const needed = offset + limit + unlisted;
    const query =
      this.dialect === 'sqlite'
        ? sql<{ p_id: number }>`with h as materialized (
              select rowid as id, bm25(product_search, 10.0, 4.0, 2.0, 1.0) as score from product_search
              where product_search match ${ftsQuery(tokens)}),
            b as (select score from h order by score limit 1 offset ${needed - 1})
            select p.p_id from h join products p on p.p_id = h.id
            where h.score <= coalesce((select score from b), 1e308) and p.p_price is not null
            order by h.score, p.p_popularity desc, p.p_id limit ${limit} offset ${offset}`
        : sql<{ p_id: number }>`with h as materialized (
              select s.p_id as id, ts_rank(s.document, to_tsquery('simple', ${tsQuery(tokens)})) as rank from product_search s
              where s.document @@ to_tsquery('simple', ${tsQuery(tokens)})),
            b as (select rank from h order by rank desc limit 1 offset ${needed - 1})
            select p.p_id from h join products p on p.p_id = h.id
            where (not exists (select 1 from b) or h.rank >= (select rank from b)) and p.p_price is not null
            order by h.rank desc, p.p_popularity desc, p.p_id limit ${limit} offset ${offset}`;
    const { rows } = await query.execute(this.db);
    return rows.map((r) => r.p_id);
  }

  /** Every hit of the index, listed or not (counted inside the index, no join). */
  private async countHits(tokens: string[]): Promise<number> {
    const query =
      this.dialect === 'sqlite'
        ? sql<{ n: number }>`select count(*) as n from product_search where product_search match ${ftsQuery(tokens)}`
        : sql<{ n: number }>`select count(*) as n from product_search s where s.document @@ to_tsquery('simple', ${tsQuery(tokens)})`;
    const { rows } = await query.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  /** Hits that are not listed (products without a price): from the few such products, each looked up in the index. */
  private async countUnlisted(tokens: string[]): Promise<number> {
    const query =
      this.dialect === 'sqlite'
        ? sql<{ n: number }>`select count(*) as n from products p where p.p_price is null
            and exists (select 1 from product_search s where s.rowid = p.p_id and product_search match ${ftsQuery(tokens)})`
        : sql<{ n: number }>`select count(*) as n from products p join product_search s on s.p_id = p.p_id
            where p.p_price is null and s.document @@ to_tsquery('simple', ${tsQuery(tokens)})`;
    const { rows } = await query.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  /** Suggestions: the best few products with their tile price. */
  async suggestions(tokens: string[], limit: number) {
    const ids = await this.page(tokens, limit, 0);
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('products')
      .select(['p_id', 'p_url', 'p_name', 'p_price'])
      .where('p_id', 'in', ids)
      .execute();
    const byId = new Map(rows.map((r) => [r.p_id, r]));
    return ids.flatMap((id) => {
      const r = byId.get(id);
      return r && r.p_price !== null ? [{ p_id: r.p_id, p_url: r.p_url, p_name: r.p_name, price: r.p_price }] : [];
    });
  }
}
