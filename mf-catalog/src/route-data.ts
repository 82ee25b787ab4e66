/**
 * The data of the catalog's server-rendered routes (the route names of vite.config.ts): the same
 * calls the pages give `useResource`, so the shop's server loads all of a page's data at once and
 * renders it a single time. route-data.test.tsx renders every route with only this data.
 */
import { resource } from '@shop/shared-kernel';
import { searchTermProblem } from '@shop/shared-kernel/rules';
import type { AreaRouteData, RouteMatch } from '@shop/shared-kernel/contract';
import { listingCalls, type ListingScope } from './listing/listing-calls.ts';
import { readPage } from './listing/listing-params.ts';

const listing = (scope: ListingScope, { search }: RouteMatch) => {
  const calls = listingCalls(scope, search);
  return [calls.listing, calls.facets];
};

/** The search page's call, or none when the term is not one the shop searches for (the page says why). */
function searchLoads({ params, search }: RouteMatch) {
  const term = (params.search ?? '').trim();
  if (searchTermProblem(term)) return [];
  return [resource('GET /api/search', { query: { q: term, page: readPage(search) } })];
}

export const routeData: AreaRouteData = {
  home: { loads: () => [resource('GET /api/home'), resource('GET /api/blog', { query: { page: 1 } })] },
  category: {
    loads: (match) => {
      const url = match.params.category ?? '';
      return [...listing({ category: url }, match), resource('GET /api/category/:url', { params: { url } })];
    },
  },
  product: { loads: ({ params }) => [resource('GET /api/product/:url', { params: { url: params.product ?? '' } })] },
  brand: {
    loads: (match) => {
      const url = match.params.brand ?? '';
      return [...listing({ brand: url }, match), resource('GET /api/brand/:url', { params: { url } })];
    },
  },
  sale: { loads: (match) => listing({ sale: 1 }, match) },
  // A search page's title is its term: its head leaves while the search runs.
  search: { loads: searchLoads, headBeforeData: true },
  'search-empty': { loads: searchLoads, headBeforeData: true },
};
