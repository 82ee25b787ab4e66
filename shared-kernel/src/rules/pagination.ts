/**
 * Listing pagination (requirements R2.9): page size 15, page links show
 * the current page ± 2, the neighbouring pages get rel prev/next, and a page
 * above the page count resets to 1 with the page query removed.
 */

export const PAGE_SIZE = 15;
export const PAGINATION_WINDOW = 2;

export type Pagination = {
  /** The page to show (1 after a reset). */
  page: number;
  pageCount: number;
  /** Page links: current page ± PAGINATION_WINDOW clipped to [1, pageCount]. */
  pages: number[];
  /** The page for rel="prev", null on the first page. */
  prev: number | null;
  /** The page for rel="next", null on the last page. */
  next: number | null;
  /** True when the requested page was invalid and reset to 1: drop the page query. */
  reset: boolean;
};

/** Number of pages; at least 1, so an empty listing is one empty page. */
export function pageCount(total: number, pageSize = PAGE_SIZE): number {
  const size = pageSize > 0 ? Math.floor(pageSize) || 1 : PAGE_SIZE;
  const count = Number.isFinite(total) && total > 0 ? Math.ceil(total / size) : 0;
  return Math.max(1, count);
}

/**
 * Pagination of a listing. A page that is not an integer, below 1 or above
 * the page count resets to 1 (reset = true), e.g. page 9 of 3.
 */
export function paginate(page: number, total: number, pageSize = PAGE_SIZE): Pagination {
  const count = pageCount(total, pageSize);
  const valid = Number.isInteger(page) && page >= 1 && page <= count;
  const current = valid ? page : 1;
  const first = Math.max(1, current - PAGINATION_WINDOW);
  const last = Math.min(count, current + PAGINATION_WINDOW);
  const pages: number[] = [];
  for (let p = first; p <= last; p += 1) pages.push(p);
  return {
    page: current,
    pageCount: count,
    pages,
    prev: current > 1 ? current - 1 : null,
    next: current < count ? current + 1 : null,
    reset: !valid,
  };
}

function serialise(params: URLSearchParams): string {
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** The search string without the page parameter ("" or "?a=b"). */
export function withoutPageQuery(search: string): string {
  const params = new URLSearchParams(search);
  params.delete('page');
  return serialise(params);
}

/**
 * Link to a page of a listing: keeps the other query parameters, sets
 * `page`, and drops it for page 1 so the first page has one canonical URL.
 */
export function pageHref(pathname: string, search: string, page: number): string {
  const params = new URLSearchParams(search);
  if (page <= 1) params.delete('page');
  else params.set('page', String(page));
  return `${pathname}${serialise(params)}`;
}
