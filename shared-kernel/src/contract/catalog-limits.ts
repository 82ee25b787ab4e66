/**
 * How much one catalog or search request may ask for: the one place these limits are set. The
 * call schemas (catalog-types.ts, catalog-calls.ts) carry them, and the API checks the counts the
 * schemas cannot (api/src/routes/catalog/listing-filter.service.ts). Past a limit the request is
 * refused with 400 (`validation_failed`) and a Slovak message, before any query runs.
 *
 * Each limit bounds the work of a request: an attribute filter adds one EXISTS condition to the
 * listing's queries and one more count query to the facets (so the facets run at most
 * 4 + `attributeFilters` queries; on SQLite one more, and each attribute count split into
 * product-id ranges). Attribute ids that do not exist or are not filterable are dropped with one
 * query for all of them.
 *
 * The limits are set so that whatever the shop's filter panel offers fits: a listing without a
 * category (brand page, sale) offers every filterable attribute (16 in the seed), each with at
 * most `valuesPerFilter` values (the facets show no more), and every brand of the listing (31 in
 * the seed).
 */
import { SEARCH_TEXT_MAX } from '../rules/search-rules.ts';

export const LISTING_LIMITS = {
  /** Attribute filters (f… and r… together) in one request. */
  attributeFilters: 20,
  /** Values ticked in one attribute filter; the facets show at most this many values of an attribute. */
  valuesPerFilter: 30,
  /** Brands ticked at once (`brands`). */
  brands: 50,
  /** Characters of one filter value or brand. */
  valueLength: 100,
  /**
   * Query parameters in all (the fixed ones, page and sort, and the attribute filters): a backstop
   * checked by the schema before the filters are read. The fixed parameters are 8, so a request
   * can only pass it with more attribute filters than allowed.
   */
  parameters: 30,
  /** The last page a listing can be asked for. */
  page: 1_000_000,
} as const;

/** Longest text one `f…` or `brands` parameter can hold within the limits above ('|' between values). */
export const MULTI_VALUE_LENGTH = LISTING_LIMITS.valuesPerFilter * (LISTING_LIMITS.valueLength + 1);
export const BRANDS_LENGTH = LISTING_LIMITS.brands * (LISTING_LIMITS.valueLength + 1);

export const SEARCH_LIMITS = {
  /**
   * Characters of the search text. Only its first words count (8 words of up to 40 characters,
   * api/src/routes/search/search.service.ts), so a longer text would cost nothing more; the limit
   * keeps URLs sane.
   */
  textLength: SEARCH_TEXT_MAX,
  /** The last page of results that can be asked for (past the results it answers an empty page). */
  page: 1_000_000,
  /** Query parameters in all (q and page; unknown ones are dropped). */
  parameters: 10,
} as const;
