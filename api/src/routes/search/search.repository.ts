import { sql } from 'kysely';
import type { SearchCategory } from '@shop/shared-kernel/contract';
import type { DbOrTrx, DialectName } from '../../db/database.ts';
import { foldText } from '../../lib/format.ts';
import type { CategoryTree } from '../catalog/category-tree.ts';

/** At most this many words of a query count; each is at most MAX_TOKEN characters. */
const MAX_TOKENS = 8;
const MAX_TOKEN = 40;

/**
 * The words of a query, folded to lower-case ASCII without diacritics ("Izolácia 10cm" ->
 * ["izolacia", "10cm"]). Only [a-z0-9] survive, so the words are safe in FTS5 and tsquery syntax.
 */
export function queryTokens(query: string): string[] {
  const words = foldText(query).match(/[a-z0-9]+/g) ?? [];
  return [...new Set(words.map((w) => lightStem(w.slice(0, MAX_TOKEN))))].slice(0, MAX_TOKENS);
}

/**
 * A light Slovak stemmer for prefix matching: a word of four or more letters loses its final
 * vowel, so one form finds the others ("tehla" -> "tehl": tehla, tehly, tehlový;
 * "izolacia" -> "izolaci": izolácia, izolácie).
 */
export function lightStem(word: string): string {
  return /^[a-z]{4,}$/.test(word) && /[aeiouy]$/.test(word) ? word.slice(0, -1) : word;
}

/** FTS5: every word as a prefix, all required: "tehla"* AND "porotherm"*. */
const ftsQuery = (tokens: string[]) => tokens.map((t) => `"${t}"*`).join(' AND ');
/** PostgreSQL: tehla:* & porotherm:* */
const tsQuery = (tokens: string[]) => tokens.map((t) => `${t}:*`).join(' & ');

/**
 * Full-text search over product names, brands, categories and descriptions, ranked (name
 * matches weigh most, then brand, category, description; then popularity). SQLite: FTS5 with
 * bm25; PostgreSQL: a GIN-indexed tsvector over unaccented text with ts_rank.
 */
export class SearchRepository {
  constructor(
    private readonly db: DbOrTrx,
    private readonly dialect: DialectName,
  ) {}

  async count(tokens: string[]): Promise<number> {
    if (tokens.length === 0) return 0;
    const query =
      this.dialect === 'sqlite'
        ? sql<{ n: number }>`select count(*) as n from product_search s join products p on p.p_id = s.rowid
            where product_search match ${ftsQuery(tokens)} and p.p_price is not null`
        : sql<{ n: number }>`select count(*) as n from product_search s join products p on p.p_id = s.p_id
            where s.document @@ to_tsquery('simple', ${tsQuery(tokens)}) and p.p_price is not null`;
    const { rows } = await query.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  /** Product ids of one page of results, best first. */
  async page(tokens: string[], limit: number, offset: number): Promise<number[]> {
    if (tokens.length === 0) return [];
    const query =
      this.dialect === 'sqlite'
        ? sql<{ p_id: number }>`select p.p_id from product_search s join products p on p.p_id = s.rowid
            where product_search match ${ftsQuery(tokens)} and p.p_price is not null
            order by bm25(product_search, 10.0, 4.0, 2.0, 1.0), p.p_popularity desc, p.p_id
            limit ${limit} offset ${offset}`
        : sql<{ p_id: number }>`select p.p_id from product_search s join products p on p.p_id = s.p_id
            where s.document @@ to_tsquery('simple', ${tsQuery(tokens)}) and p.p_price is not null
            order by ts_rank(s.document, to_tsquery('simple', ${tsQuery(tokens)})) desc, p.p_popularity desc, p.p_id
            limit ${limit} offset ${offset}`;
    const { rows } = await query.execute(this.db);
    return rows.map((r) => r.p_id);
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

/** Categories whose name has every query word as the start of one of its words; broader ones first. */
export function matchingCategories(tree: CategoryTree, tokens: string[], limit: number): SearchCategory[] {
  if (tokens.length === 0) return [];
  const out: (SearchCategory & { depth: number })[] = [];
  for (const record of tree.all()) {
    const words = foldText(record.cat_name).match(/[a-z0-9]+/g) ?? [];
    if (tokens.every((t) => words.some((w) => w.startsWith(t)))) {
      out.push({ cat_id: record.cat_id, cat_url: record.cat_url, cat_name: record.cat_name, depth: tree.path(record.cat_id).length });
    }
  }
  return out
    .sort((a, b) => a.depth - b.depth || a.cat_name.localeCompare(b.cat_name, 'sk'))
    .slice(0, limit)
    .map(({ cat_id, cat_url, cat_name }) => ({ cat_id, cat_url, cat_name }));
}
