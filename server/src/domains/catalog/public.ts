/**
 * The catalog's public entry: what code outside the domain may use of it (the page host in web/
 * answers a direct load of a moved address from the stored redirects kept in memory). Nothing else
 * of domains/catalog/ is imported from web/ (tools/scripts/folder-graph.mjs).
 */
export { onRedirectsChanged, REDIRECTS_MAX_AGE_MS, RedirectLookup } from './redirect/redirect-lookup.ts';
