/**
 * A small router that provides the kernel's routing primitives outside the
 * shell: an area's component tests (in memory) and its standalone dev harness
 * (browser history). It matches a flat list of path patterns (`/p/:product`,
 * `*`) and renders the first match.
 */
import { useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { RoutingProvider, type NavigateOptions, type RouteParams, type ShopLocation } from '../singleton/routing.tsx';

export type StandaloneRoute = { readonly path: string; readonly element: ReactNode };

export type StandaloneRouter = {
  readonly location: ShopLocation;
  /** Every location visited, oldest first (memory history only). */
  readonly entries: readonly ShopLocation[];
  navigate(to: string, options?: NavigateOptions): void;
  subscribe(listener: () => void): () => void;
  readonly routes: readonly StandaloneRoute[];
};

function parse(to: string, from: ShopLocation): ShopLocation {
  const url = new URL(to, `http://shop.invalid${from.pathname}${from.search}`);
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

/** The params of `pattern` in `pathname`, or null when it does not match. */
export function matchPath(pattern: string, pathname: string): RouteParams | null {
  if (pattern === '*') return {};
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  const rest = want.at(-1) === '*';
  if (rest ? have.length < want.length - 1 : have.length !== want.length) return null;
  const params: Record<string, string> = {};
  for (const [index, segment] of want.entries()) {
    if (segment === '*') break;
    const value = have[index]!;
    if (segment.startsWith(':')) params[segment.slice(1)] = decodeURIComponent(value);
    else if (segment !== value) return null;
  }
  return params;
}

/**
 * `history: 'memory'` (default) starts at `initialEntry` and keeps every move
 * in `entries`; `history: 'browser'` follows the address bar.
 */
export function createStandaloneRouter(
  routes: readonly StandaloneRoute[],
  options: { initialEntry?: string; history?: 'memory' | 'browser' } = {},
): StandaloneRouter {
  const browser = options.history === 'browser';
  const start: ShopLocation = { pathname: '/', search: '', hash: '' };
  const current = () => (browser ? parse(window.location.href, start) : entries.at(-1)!);
  const entries: ShopLocation[] = browser ? [] : [parse(options.initialEntry ?? '/', start)];
  const listeners = new Set<() => void>();
  let snapshot = current();
  const changed = () => {
    snapshot = current();
    for (const listener of listeners) listener();
  };
  if (browser) window.addEventListener('popstate', changed);
  return {
    routes,
    entries,
    get location() {
      return snapshot;
    },
    navigate(to, navigateOptions) {
      const next = parse(to, snapshot);
      if (browser) {
        const url = `${next.pathname}${next.search}${next.hash}`;
        if (navigateOptions?.replace) window.history.replaceState(null, '', url);
        else window.history.pushState(null, '', url);
      } else if (navigateOptions?.replace) entries[entries.length - 1] = next;
      else entries.push(next);
      changed();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function useRouterLocation(router: StandaloneRouter): ShopLocation {
  return useSyncExternalStore(router.subscribe, () => router.location);
}

/** Renders the router's first matching route with the kernel's routing provided. */
export function StandaloneRoutes({ router }: { router: StandaloneRouter }) {
  const location = useRouterLocation(router);
  const match = useMemo(() => {
    for (const route of router.routes) {
      const params = matchPath(route.path, location.pathname);
      if (params) return { route, params };
    }
    return null;
  }, [router, location]);
  const value = useMemo(() => ({ location, params: match?.params ?? {}, navigate: router.navigate }), [location, match, router]);
  return <RoutingProvider value={value}>{match?.route.element ?? null}</RoutingProvider>;
}

/** The common test case: children rendered at one URL (params from `path`), navigation kept in memory. */
export function StandaloneRouting({ at = '/', path = '*', children }: { at?: string; path?: string; children?: ReactNode }) {
  const [router] = useState(() => createStandaloneRouter([], { initialEntry: at }));
  const location = useRouterLocation(router);
  const value = useMemo(
    () => ({ location, params: matchPath(path, location.pathname) ?? {}, navigate: router.navigate }),
    [location, path, router],
  );
  return <RoutingProvider value={value}>{children}</RoutingProvider>;
}
