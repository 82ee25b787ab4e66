/**
 * Who a call is sent as, a fact of the API the browser's client follows (no schema here, so the
 * page may import it):
 *   'public'  the answer is the same for everyone: sent without the session cookie, so shared
 *             caches may answer it;
 *   'ops'     the operator console's calls: on the operator origin only (its own client, server/console);
 *             never with the shopper's session, never from a cache;
 *   'session' the shopper's session cookie, if any.
 */
import type { CallName, DownloadName } from './api.ts';

export type CallAccess = 'public' | 'ops' | 'session';

const publicCalls: ReadonlySet<CallName | DownloadName> = new Set<CallName>([
  'GET /api/menu',
  'GET /api/site',
  'GET /api/home',
  'GET /api/category/:url',
  'GET /api/brand/:url',
  'GET /api/products',
  'GET /api/products/facets',
  'GET /api/product/:url',
  'GET /api/search',
  'GET /api/search/suggest',
  'GET /api/pickup-points',
  'GET /api/redirect/list',
]);

/** The operator console's calls (the operator origin's). */
const OPS_CALL = /^[A-Z]+ \/api\/ops\//;

export function accessOf(name: CallName | DownloadName): CallAccess {
  if (publicCalls.has(name)) return 'public';
  return OPS_CALL.test(name) ? 'ops' : 'session';
}
