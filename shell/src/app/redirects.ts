/**
 * Stored redirects in the browser (spec: on every route change the stored redirects are checked
 * for the new path; an external target is a full page load), without a request per navigation:
 * the shell fetches `GET /api/redirect/list` once, when the first page has loaded and the browser
 * is idle (never ahead of the page itself), keeps it, and checks every route change against it with
 * the server's rule (`resolveRedirect`: the same match the server answers a direct load with, 301).
 *
 * The kept list is revalidated at most every `REDIRECTS_REFRESH_MS` while the tab is visible
 * (timer, focus, the tab shown again): the answer carries an ETag, so an unchanged list costs a
 * 304 without a body. An open tab therefore follows an operator's change within that bound; a
 * page load is always current within the server's own bound.
 */
import { useEffect, useLayoutEffect, useSyncExternalStore } from 'react';
import { useLocation, useNavigate, type NavigateFunction } from 'react-router';
import { call } from '@shop/shared-kernel';
import { isAbsoluteTarget, redirectTable, resolveRedirect, type RedirectTable } from '@shop/shared-kernel/rules';

/** The longest a visible tab keeps the list without asking whether it changed (ms). */
export const REDIRECTS_REFRESH_MS = 60_000;

/** 'idle': not asked yet; 'ready': a list is kept (perhaps older than a failed refresh); 'failed': none could be had. */
export type RedirectsStatus = 'idle' | 'loading' | 'ready' | 'failed';
type State = { status: RedirectsStatus; table: RedirectTable; at: number };

const NONE: State = { status: 'idle', table: new Map(), at: 0 };
let state: State = NONE;
let inFlight: Promise<void> | null = null;
const listeners = new Set<() => void>();

function update(next: State): void {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Fetches the list (revalidated by the browser's cache with its ETag); a failure is ignored (requirements R8.4). */
export function loadRedirects(): Promise<void> {
  if (inFlight) return inFlight;
  if (state.status === 'idle' || state.status === 'failed') update({ ...state, status: 'loading' });
  inFlight = call('GET /api/redirect/list')
    .then(
      ({ data }) => update({ status: 'ready', table: redirectTable(data), at: Date.now() }),
      () => update({ ...state, status: state.table.size > 0 || state.at > 0 ? 'ready' : 'failed', at: Date.now() }),
    )
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

/** Whether the kept list has been checked for the current path (it arrived, or could not be had). */
export function useRedirectsChecked(): boolean {
  const status = useSyncExternalStore(
    subscribe,
    () => state.status,
    () => NONE.status,
  );
  return status === 'ready' || status === 'failed';
}

/** Goes to a redirect's target: in place for a path of the shop, with a full page load elsewhere. */
export function followRedirect(target: string, navigate: NavigateFunction): void {
  if (isAbsoluteTarget(target)) {
    const url = new URL(target);
    if (url.origin !== window.location.origin) {
      window.location.replace(url.href);
      return;
    }
    target = url.pathname + url.search + url.hash;
  }
  void navigate(target, { replace: true });
}

/** Runs `work` once the page has loaded and the browser is idle; answers the cancel. */
function whenIdle(work: () => void): () => void {
  let cancel = () => undefined as void;
  const schedule = () => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(work, { timeout: 3000 });
      cancel = () => window.cancelIdleCallback(id);
    } else {
      const id = window.setTimeout(work, 1);
      cancel = () => window.clearTimeout(id);
    }
  };
  if (document.readyState === 'complete') {
    schedule();
    return () => cancel();
  }
  window.addEventListener('load', schedule, { once: true });
  return () => {
    window.removeEventListener('load', schedule);
    cancel();
  };
}

/** Test seam: forgets the kept list. */
export function resetRedirects(): void {
  inFlight = null;
  update(NONE);
}

/**
 * Every route change (and the list's arrival) checks the current path against the kept list and
 * follows a match before the page is painted.
 */
export function useStoredRedirects(): void {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const table = useSyncExternalStore(
    subscribe,
    () => state.table,
    () => NONE.table,
  );

  useLayoutEffect(() => {
    const target = resolveRedirect(table, pathname);
    if (target !== null) followRedirect(target, navigate);
  }, [pathname, table, navigate]);

  useEffect(() => {
    // Asked once; the not-found page may have asked already.
    const stopIdle = whenIdle(() => {
      if (state.status === 'idle') void loadRedirects();
    });
    const refresh = () => {
      if (document.visibilityState !== 'visible' || state.status === 'idle') return;
      if (Date.now() - state.at >= REDIRECTS_REFRESH_MS) void loadRedirects();
    };
    const timer = window.setInterval(refresh, REDIRECTS_REFRESH_MS);
    window.addEventListener('focus', refresh);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      stopIdle();
      window.clearInterval(timer);
      window.removeEventListener('focus', refresh);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, []);
}
