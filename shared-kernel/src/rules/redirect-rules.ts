/**
 * Stored redirects (spec: old_url → new_url), matched the same way by the server (a direct load
 * answered 301) and by the shell in the browser (every route change), so both send a visitor to
 * the same place:
 * - an old URL is a path; the query, the fragment and trailing slashes do not take part in the
 *   match, and percent-encoding does not either ("/akcia/", "/akcia?x=1" and "/akcia" are one);
 * - a target is a path of the shop ("/c/tehly") or an absolute http(s) URL an operator set
 *   (anything else, e.g. "//host", "javascript:", is never followed: no open redirect);
 * - a chain (A → B → C) is followed to its end at once; a loop is not followed at all;
 * - an address of the checkout, the payment or the account (`/checkout…`, `/payment…`, `/account…`)
 *   never leads out of the shop: such a redirect is refused when stored and never followed, so no
 *   stored row can send a shopper's basket or sign-in to another site.
 */

export type RedirectPair = { old_url: string; new_url: string };
/** Old path (its key) → the target, as built by `redirectTable`. */
export type RedirectTable = ReadonlyMap<string, string>;

/** Longest old URL or target accepted (the contract's bound). */
export const REDIRECT_URL_MAX = 2000;
/** Links of a chain followed at most; a longer one is treated as a loop. */
const MAX_HOPS = 8;

const ABSOLUTE = /^https?:\/\//i;
// Control characters, spaces and backslashes never belong in a stored path.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\u0000-\u0020\u007f\\]/;

function decoded(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** The key a path is matched by; null when it is not a path of the shop (e.g. "//host", "x"). */
export function redirectKey(path: string): string | null {
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  if (!bare.startsWith('/') || bare.startsWith('//')) return null;
  const key = decoded(bare).replace(/\/+$/, '');
  return key === '' ? '/' : key;
}

/** Addresses whose redirects stay inside the shop: the checkout, the payment pages and the account. */
const KEPT_INSIDE = /^\/(checkout|payment|account)/i;

/** Whether a (safe) target leaves the shop's paths: a full page load in the browser. */
export function isAbsoluteTarget(target: string): boolean {
  return ABSOLUTE.test(target);
}

/**
 * A stored target as it may be sent in a Location header or followed: a path of the shop or an
 * absolute http(s) URL with a host and no credentials, percent-encoded; null for anything else.
 */
export function safeRedirectTarget(target: string): string | null {
  if (target.length === 0 || target.length > REDIRECT_URL_MAX || UNSAFE_CHARS.test(target)) return null;
  if (ABSOLUTE.test(target)) {
    try {
      const url = new URL(target);
      if (!url.hostname || url.username || url.password) return null;
      return url.href;
    } catch {
      return null;
    }
  }
  if (!target.startsWith('/') || target.startsWith('//')) return null;
  try {
    // Resolved against a placeholder origin only to encode it; a path keeps to this shop.
    const url = new URL(target, 'http://shop.invalid');
    if (url.origin !== 'http://shop.invalid') return null;
    return url.pathname + url.search + url.hash;
  } catch {
    return null;
  }
}

/**
 * The table of stored redirects: entries whose old URL is not a plain path (a query or fragment in
 * it, which no request path matches) or whose target is unsafe are left out. With two entries for
 * one key ("/akcia" and "/akcia/"), the first in the list wins.
 */
export function redirectTable(entries: readonly RedirectPair[]): RedirectTable {
  const table = new Map<string, string>();
  for (const { old_url, new_url } of entries) {
    if (/[?#]/.test(old_url)) continue;
    const key = redirectKey(old_url);
    const target = safeRedirectTarget(new_url);
    if (key === null || target === null || table.has(key)) continue;
    if (isAbsoluteTarget(target) && KEPT_INSIDE.test(key)) continue;
    table.set(key, target);
  }
  return table;
}

/**
 * Where a visitor asking for `path` is sent: the end of its chain of redirects, or null when the path
 * did not move, leads back to itself, is part of a loop, or is a checkout, payment or account address
 * whose chain would leave the shop.
 */
export function resolveRedirect(table: RedirectTable, path: string): string | null {
  const start = redirectKey(path);
  if (start === null || table.size === 0) return null;
  const end = chainEnd(table, start);
  return end !== null && isAbsoluteTarget(end) && KEPT_INSIDE.test(start) ? null : end;
}

/**
 * Whether storing a redirect of `oldUrl` to `newUrl` would take a checkout, payment or account
 * address out of the shop, directly or down a chain of the table (the server refuses it).
 */
export function leavesShop(table: RedirectTable, oldUrl: string, newUrl: string): boolean {
  const key = redirectKey(oldUrl);
  const target = safeRedirectTarget(newUrl);
  if (key === null || target === null) return false;
  const next = new Map(table);
  next.set(key, target);
  for (const start of next.keys()) {
    if (!KEPT_INSIDE.test(start)) continue;
    const end = chainEnd(next, start);
    if (end !== null && isAbsoluteTarget(end)) return true;
  }
  return false;
}

/** The end of a path's chain (its key given): null when it did not move or loops. */
function chainEnd(table: RedirectTable, start: string): string | null {
  const seen = new Set<string>([start]);
  let target: string | null = null;
  let key = start;
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    const next = table.get(key);
    if (next === undefined) return target;
    if (isAbsoluteTarget(next)) return next;
    const nextKey = redirectKey(next)!;
    if (seen.has(nextKey)) return null;
    seen.add(nextKey);
    target = next;
    key = nextKey;
  }
  return null;
}
