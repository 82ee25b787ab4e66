/**
 * Prefetch on intent: when a shopper hovers, focuses or touches a link of the shop, or scrolls one
 * into view (looked at when the browser is idle), the target route's area module is loaded ahead of
 * the click (executed, not rendered) and the data its route declares (the area's route data, the
 * same calls the page makes) is asked for, so the page's own requests find it in the browser's HTTP
 * cache (public catalog answers may be kept for seconds). At most 4 loads at once (requirements
 * R9.13), each target once, within a budget per page, and never when the shopper's browser asks to
 * save data or is on a slow (2g) connection. Nothing of it is a script the page did not have: the
 * modules load through the federation runtime, checked against the import map like any other.
 */
import { matchPath } from 'react-router';
import { loadAreaModule, loadRouteData, prefetchAreaModule } from './area-loader.ts';
import { useAuthStore } from '@shop/shared-kernel';
import { isAuthenticated } from '@shop/shared-kernel/rules';
import { routeForPath, type ShopRoute } from '../app/route-table.ts';

export const PRELOAD_CONCURRENCY = 4;
/** Targets warmed per page view on intent (hover, focus, touch). */
export const INTENT_BUDGET = 8;
/** Targets warmed per page view because their links came into view. */
export const VIEW_BUDGET = 4;
/** How long a link stays in view before it counts as seen. */
export const VIEW_DWELL_MS = 1000;
/**
 * The bench's switch for its "before" column (`localStorage['shop:prefetch'] = 'off'`): it can only
 * turn prefetching off, never load anything.
 */
export const PREFETCH_SWITCH = 'shop:prefetch';

let running = 0;
const queue: (() => Promise<unknown>)[] = [];
/** Area modules asked for (once per page load). */
const requested = new Set<string>();
/** Paths whose data was warmed in this page view. */
const warmed = new Set<string>();
const spent = { intent: 0, view: 0 };

function pump(): void {
  while (running < PRELOAD_CONCURRENCY && queue.length > 0) {
    const task = queue.shift()!;
    running += 1;
    void task()
      .catch(() => undefined)
      .finally(() => {
        running -= 1;
        pump();
      });
  }
}

type Connection = { saveData?: boolean; effectiveType?: string };

/** Whether this browser may prefetch at all: not when it asks to save data, on a 2g connection, or switched off. */
export function mayPrefetch(): boolean {
  const connection = (navigator as Navigator & { connection?: Connection }).connection;
  if (connection?.saveData === true || /(^|-)2g$/.test(connection?.effectiveType ?? '')) return false;
  try {
    return localStorage.getItem(PREFETCH_SWITCH) !== 'off';
  } catch {
    return true;
  }
}

/** The route of a path whose page may render for this shopper (a guest is sent to sign in from some: their code would be loaded for nothing). */
function routeToLoad(pathname: string): ShopRoute | null {
  const route = routeForPath(pathname);
  return !route || (route.requiresSignIn && !isAuthenticated(useAuthStore.getState().auth)) ? null : route;
}

/**
 * Starts loading the page's own area module with the page: at boot, while the shell's own tasks
 * run, not when hydration first renders the page (its files were preloaded with the shell's).
 */
export function startPageArea(pathname: string): void {
  const route = routeToLoad(pathname);
  if (!route) return;
  requested.add(`${route.area}/${route.module}`);
  // A failure is contained and reported where the page renders it (area-route.tsx).
  loadAreaModule(route.area, route.module).catch(() => undefined);
}

/** Asks for the data a server-rendered route declares, as its page will (the answers land in the HTTP cache). */
async function warmRouteData(route: ShopRoute, pathname: string, search: string): Promise<void> {
  if (!route.serverRender) return;
  const declared = (await loadRouteData(route.area))?.[route.name];
  const match = matchPath(route.path, pathname);
  if (!declared || !match) return;
  const controller = new AbortController();
  await Promise.all(
    declared
      .loads({ params: match.params, search: new URLSearchParams(search) })
      .map((load) => load.load(controller.signal).catch(() => undefined)),
  );
}

/** Loads a path's area module and warms its route's data, once each, within the page view's budget of `kind`. */
export function preloadPath(pathname: string, search = '', kind: keyof typeof spent = 'intent'): void {
  if (!mayPrefetch()) return;
  const route = routeToLoad(pathname);
  if (!route) return;
  const target = `${pathname}?${search}`;
  const key = `${route.area}/${route.module}`;
  const needsModule = !requested.has(key);
  const needsData = route.serverRender === true && !warmed.has(target);
  if (!needsModule && !needsData) return;
  if (spent[kind] >= (kind === 'intent' ? INTENT_BUDGET : VIEW_BUDGET)) return;
  spent[kind] += 1;
  requested.add(key);
  warmed.add(target);
  queue.push(() => Promise.all([prefetchAreaModule(route.area, route.module), needsData ? warmRouteData(route, pathname, search) : null]));
  pump();
}

/** A new page was shown: its links get a budget of their own. */
export function newPageView(): void {
  spent.intent = 0;
  spent.view = 0;
  warmed.clear();
}

const shopLink = (target: EventTarget | null): HTMLAnchorElement | null => {
  const link = (target as Element | null)?.closest?.('a[href]');
  return link instanceof HTMLAnchorElement && link.origin === window.location.origin && !link.hasAttribute('download') ? link : null;
};

const whenIdle = (work: () => void) =>
  typeof window.requestIdleCallback === 'function' ? window.requestIdleCallback(work, { timeout: 2000 }) : window.setTimeout(work, 200);

/**
 * Prefetches on hover, keyboard focus and touch of same-origin links anywhere in the page, and, once
 * the first page is interactive and the browser is idle, for the page's links that came into view.
 */
export function installLinkPreloading(root: Document = document): () => void {
  const onIntent = (event: Event) => {
    const link = shopLink(event.target);
    if (link) preloadPath(link.pathname, link.search.slice(1));
  };
  root.addEventListener('mouseover', onIntent, { passive: true });
  root.addEventListener('focusin', onIntent);
  root.addEventListener('touchstart', onIntent, { passive: true });
  const stopWatching = watchLinksInView(root);
  return () => {
    root.removeEventListener('mouseover', onIntent);
    root.removeEventListener('focusin', onIntent);
    root.removeEventListener('touchstart', onIntent);
    stopWatching();
  };
}

/** The page's links of the shop that come into view, looked at when the browser is idle (new links: a mutation observer, scanned once idle). */
function watchLinksInView(root: Document): () => void {
  if (typeof IntersectionObserver !== 'function' || typeof MutationObserver !== 'function' || !mayPrefetch()) return () => undefined;
  const seen = new WeakSet<Element>();
  const visible = new Set<HTMLAnchorElement>();
  let pending = false;
  // Links still in view after a moment (a link scrolled past is no intent), once the browser is idle.
  const flush = () => {
    pending = false;
    for (const link of visible) {
      preloadPath(link.pathname, link.search.slice(1), 'view');
      inView.unobserve(link);
    }
    visible.clear();
  };
  const inView = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const link = entry.target as HTMLAnchorElement;
      if (entry.isIntersecting) visible.add(link);
      else visible.delete(link);
    }
    if (visible.size > 0 && !pending) {
      pending = true;
      window.setTimeout(() => whenIdle(flush), VIEW_DWELL_MS);
    }
  });
  let scanning = false;
  const scan = () => {
    scanning = false;
    // The page's own links (not the header's and footer's, always there): what the shopper is looking at.
    for (const element of root.querySelectorAll('.area-outlet a[href]')) {
      if (seen.has(element)) continue;
      seen.add(element);
      if (shopLink(element)) inView.observe(element);
    }
  };
  const added = new MutationObserver(() => {
    if (scanning) return;
    scanning = true;
    whenIdle(scan);
  });
  const start = () => {
    added.observe(root.body ?? root.documentElement, { childList: true, subtree: true });
    whenIdle(scan);
  };
  // Not before the first page is interactive (`<html data-interactive>`): nothing competes with its own loading.
  const html = root.documentElement;
  const interactive = new MutationObserver(() => {
    if (html.dataset.interactive === undefined) return;
    interactive.disconnect();
    start();
  });
  if (html.dataset.interactive !== undefined) start();
  else interactive.observe(html, { attributes: true, attributeFilter: ['data-interactive'] });
  return () => {
    interactive.disconnect();
    added.disconnect();
    inView.disconnect();
  };
}
