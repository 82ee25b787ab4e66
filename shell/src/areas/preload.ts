/**
 * Route preloading: hovering or focusing a link loads the target route's
 * area module ahead of the click, at most 4 at once (requirements R9.13).
 */
import { loadAreaModule } from './area-loader.ts';
import { useAuthStore } from '@shop/shared-kernel';
import { isAuthenticated } from '@shop/shared-kernel/rules';
import { routeForPath } from '../app/route-table.ts';

export const PRELOAD_CONCURRENCY = 4;

let running = 0;
const queue: (() => Promise<unknown>)[] = [];
const requested = new Set<string>();

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

/** The route of a path whose page may render for this shopper (a guest is sent to sign in from some: their code would be loaded for nothing). */
function routeToLoad(pathname: string) {
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

export function preloadPath(pathname: string): void {
  const route = routeToLoad(pathname);
  if (!route) return;
  const key = `${route.area}/${route.module}`;
  if (requested.has(key)) return;
  requested.add(key);
  queue.push(() => loadAreaModule(route.area, route.module));
  pump();
}

/** Preloads on hover and keyboard focus of same-origin links anywhere in the page. */
export function installLinkPreloading(root: Document = document): () => void {
  const onIntent = (event: Event) => {
    const link = (event.target as Element | null)?.closest?.('a[href]');
    if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin) return;
    preloadPath(link.pathname);
  };
  root.addEventListener('mouseover', onIntent, { passive: true });
  root.addEventListener('focusin', onIntent);
  root.addEventListener('touchstart', onIntent, { passive: true });
  return () => {
    root.removeEventListener('mouseover', onIntent);
    root.removeEventListener('focusin', onIntent);
    root.removeEventListener('touchstart', onIntent);
  };
}
