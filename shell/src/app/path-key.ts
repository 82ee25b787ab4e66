/**
 * A key for a path such that two paths with the same key match the same routes of a table, for
 * keeping what a match found: react-router flattens, compiles and ranks the routes on every
 * match, and the shop's paths are many (100,000 products) while their shapes are few.
 *
 * Each segment a route names literally stays (as the router compares it: decoded, in lower case);
 * any other becomes `*`, since a parameter or a splat takes any segment. A table with a route the
 * key cannot stand for (a parameter inside a segment, a case-sensitive route, other characters)
 * keys each path by itself.
 */
export function pathKeyFor(routes: { path?: string; caseSensitive?: boolean }[]): (pathname: string) => string {
  const literals = new Set<string>();
  let byItself = false;
  for (const route of routes) {
    if (route.caseSensitive) byItself = true;
    for (const segment of (route.path ?? '').split('/')) {
      const name = segment.replace(/\?$/, '');
      if (name === '' || name === '*' || /^:[\w-]+$/.test(name)) continue;
      if (/^[\w.~-]+$/.test(name)) literals.add(name.toLowerCase());
      else byItself = true;
    }
  }
  if (byItself) return (pathname) => `path:${pathname}`;
  return (pathname) => {
    const key: string[] = [];
    for (const raw of pathname.split('/')) {
      let segment: string;
      try {
        segment = decodeURIComponent(raw).toLowerCase();
      } catch {
        return `path:${pathname}`;
      }
      key.push(segment === '' || literals.has(segment) ? segment : '*');
    }
    return `shape:${key.join('/')}`;
  };
}

/**
 * Keeps what was found for each shape of path of one route table (see pathKeyFor): at most
 * `limit` shapes, the oldest forgotten first; a new table (any other `table` value) forgets them.
 * `routes` is read only when the table changes; `find` runs once per shape.
 */
export function pathShapeMemo<T>(limit: number) {
  let table: unknown = {};
  let keyOf: (pathname: string) => string = (pathname) => pathname;
  let found = new Map<string, T>();
  return function remembered(
    tableNow: unknown,
    routes: () => { path?: string; caseSensitive?: boolean }[],
    pathname: string,
    find: () => T,
  ): T {
    if (tableNow !== table) {
      table = tableNow;
      found = new Map();
      keyOf = pathKeyFor(routes());
    }
    const key = keyOf(pathname);
    if (found.has(key)) return found.get(key) as T;
    const value = find();
    if (found.size >= limit) found.delete(found.keys().next().value!);
    found.set(key, value);
    return value;
  };
}
