/**
 * A call's URL and its resource key, from the call's name and arguments: the path pattern's
 * `:params` filled in (URI-encoded), the query of its defined values. The key is what a page's
 * data is known by (the server render's data, the browser's hydration, the keyed-fetch hook):
 * the same call with the same arguments is the same key wherever it is asked for.
 */
import type { CallName, DownloadName } from '../contract/index.ts';

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue>;
type Params = Record<string, string | number>;

/** "?a=1&b=x" from the defined values of a query object, "" when none. */
export function buildQuery(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The method and the path of a call, its `:params` filled in. */
export function splitCall(
  name: CallName | DownloadName,
  params: Params | undefined,
): { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string } {
  const space = name.indexOf(' ');
  const method = name.slice(0, space) as 'GET' | 'POST' | 'PUT' | 'DELETE';
  const path = name.slice(space + 1).replace(/:([A-Za-z_]+)/g, (_, param: string) => {
    const value = params?.[param];
    if (value === undefined) throw new TypeError(`${name}: missing param ${param}`);
    return encodeURIComponent(String(value));
  });
  return { method, path };
}

/** JSON with object keys sorted, so equal values give equal text. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/**
 * The resource key of a call: "GET /api/product/tehla", "GET /api/products?category=murivo&page=2"
 * (query names sorted), a body's stable JSON after a space.
 */
export function keyOf(name: CallName, args: { params?: object; query?: object; body?: unknown } = {}): string {
  const { method, path } = splitCall(name, args.params as Params | undefined);
  const query = args.query
    ? Object.fromEntries(Object.entries(args.query as Query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : undefined;
  const body = args.body === undefined ? '' : ` ${stableJson(args.body)}`;
  return `${method} ${path}${buildQuery(query)}${body}`;
}
