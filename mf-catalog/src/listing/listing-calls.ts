import { resource } from '@shop/shared-kernel';
import type { ListingQuery } from '@shop/shared-kernel/contract';
import { readFilters, readPage, readSort } from './listing-params.ts';

export type ListingScope = Pick<ListingQuery, 'category' | 'brand' | 'sale'>;

/** The listing's two calls for a scope and the URL's query: the page asks for them, and its route data declares them (route-data.ts). */
export function listingCalls(filter: ListingScope, params: URLSearchParams) {
  const page = readPage(params);
  const sort = readSort(params);
  const facetQuery: ListingQuery = { ...filter, ...readFilters(params) };
  const query: ListingQuery = { ...facetQuery, page, sort };
  return {
    listing: resource('GET /api/products', { query }),
    facets: resource('GET /api/products/facets', { query: facetQuery }),
    page,
    sort,
  };
}
