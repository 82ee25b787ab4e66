/**
 * Search: the words of a query (folded, lightly stemmed), ranked results with the categories whose
 * names match, and suggestions while typing. Queries through SearchRepository and CatalogRepository.
 */
import type { SearchCategory, SearchResults, SearchSuggestions } from '@shop/shared-kernel/contract';
import { PAGE_SIZE } from '@shop/shared-kernel/rules';
import { foldText } from '../../../infra/pure/format.ts';
import type { CatalogRepository } from '../products/repository/catalog.repository.ts';
import type { CategoryTree } from '../products/repository/category-tree.ts';
import { productImageUrl } from '../products/repository/mappers.ts';
import type { SearchRepository } from './search.repository.ts';

const SUGGESTED_PRODUCTS = 6;
const SUGGESTED_CATEGORIES = 4;
const RESULT_CATEGORIES = 8;

/** At most this many words of a query count; each is read up to MAX_WORD characters. */
const MAX_TOKENS = 8;
const MAX_WORD = 40;
/**
 * A word matches by its first MAX_TOKEN characters (after stemming): the longest prefix SQLite's
 * search index keeps its own list for (migration search-prefix-indexes), and PostgreSQL's search
 * rows hold (migration search-prefix-lexemes; both fixed at 12 there). Slovak words differ in
 * their endings, so a longer word's other forms match as well ("tepelnoizolačný" and
 * "tepelnoizolačná" alike).
 */
export const MAX_TOKEN = 12;

/**
 * Slovak one-letter conjunctions and prepositions ("omietka a lepidlo", "tehla s drážkou"): in
 * nearly every description, they narrow nothing ("II/A-S" is read as "ii").
 */
const STOP_WORDS = new Set(['a', 'i', 'k', 'o', 's', 'u', 'v', 'z']);

/**
 * The words of a query, folded to lower-case ASCII without diacritics, stemmed and cut to
 * MAX_TOKEN characters ("Izolácia 10cm" -> ["izolaci", "10cm"]), without one-letter stop words.
 * Only [a-z0-9] survive, so the words are safe in FTS5 and tsquery syntax.
 */
export function queryTokens(query: string): string[] {
  const words = (foldText(query).match(/[a-z0-9]+/g) ?? []).filter((w) => !STOP_WORDS.has(w));
  return [...new Set(words.map((w) => lightStem(w.slice(0, MAX_WORD)).slice(0, MAX_TOKEN)))].slice(0, MAX_TOKENS);
}

/**
 * A light Slovak stemmer for prefix matching: a word of four or more letters loses its final
 * vowel, so one form finds the others ("tehla" -> "tehl": tehla, tehly, tehlový;
 * "izolacia" -> "izolaci": izolácia, izolácie).
 */
export function lightStem(word: string): string {
  return /^[a-z]{4,}$/.test(word) && /[aeiouy]$/.test(word) ? word.slice(0, -1) : word;
}

/** Categories whose name has every query word as the start of one of its words; broader ones first. */
export function matchingCategories(tree: CategoryTree, tokens: string[], limit: number): SearchCategory[] {
  if (tokens.length === 0) return [];
  const out: (SearchCategory & { depth: number })[] = [];
  for (const record of tree.all()) {
    const words = tree.nameWords(record.cat_id);
    if (tokens.every((t) => words.some((w) => w.startsWith(t)))) {
      out.push({ cat_id: record.cat_id, cat_url: record.cat_url, cat_name: record.cat_name, depth: tree.path(record.cat_id).length });
    }
  }
  return out
    .sort((a, b) => a.depth - b.depth || a.cat_name.localeCompare(b.cat_name, 'sk'))
    .slice(0, limit)
    .map(({ cat_id, cat_url, cat_name }) => ({ cat_id, cat_url, cat_name }));
}

export class SearchService {
  constructor(
    private readonly catalog: CatalogRepository,
    private readonly search: SearchRepository,
  ) {}

  /** One page of results (PAGE_SIZE tiles, best first) and the categories whose names match. */
  async results(q: string, page = 1): Promise<SearchResults> {
    const tokens = queryTokens(q);
    const [tree, { ids, total, capped }] = await Promise.all([
      this.catalog.categoryTree(),
      this.search.results(tokens, PAGE_SIZE, (page - 1) * PAGE_SIZE),
    ]);
    return {
      data: await this.catalog.summaries(ids),
      meta: { page, pageSize: PAGE_SIZE, total, pageCount: Math.max(1, Math.ceil(total / PAGE_SIZE)) },
      categories: matchingCategories(tree, tokens, RESULT_CATEGORIES),
      moreThanTotal: capped,
    };
  }

  /** The best few products with their tile price, and the best few categories. */
  async suggestions(q: string): Promise<SearchSuggestions> {
    const tokens = queryTokens(q);
    const [tree, products] = await Promise.all([this.catalog.categoryTree(), this.search.suggestions(tokens, SUGGESTED_PRODUCTS)]);
    return {
      products: products.map((p) => ({ ...p, p_image: productImageUrl(p.p_id) })),
      categories: matchingCategories(tree, tokens, SUGGESTED_CATEGORIES),
    };
  }
}
