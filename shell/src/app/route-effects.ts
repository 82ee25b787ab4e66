/**
 * Effects of every route change: stored redirects, focus, scrolling, device state. Every route
 * change checks the stored redirects (requirements R2.8) against the list the shell keeps
 * (redirects.ts), so a navigation costs no request for them.
 */
import { useEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';
import { useDeviceStore } from '@shop/shared-kernel';

export { useStoredRedirects } from './redirects.ts';

/** After a navigation, focus moves to the new page's main heading (once it has rendered). */
export function useFocusOnNavigation(): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const main = document.getElementById('main');
    if (!main) return;
    const focusHeading = () => {
      const heading = main.querySelector<HTMLElement>('h1');
      if (!heading || main.querySelector('[aria-busy="true"]')) return false;
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => focusHeading() && observer.disconnect());
    observer.observe(main, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
    const stop = window.setTimeout(() => observer.disconnect(), 5000);
    return () => {
      observer.disconnect();
      window.clearTimeout(stop);
    };
  }, [pathname]);
}

/** Navigation state that keeps the scroll position (e.g. a listing filter changed the query). */
export const KEEP_SCROLL = { keepScroll: true } as const;

/** A page reached by a link starts at the top; back and forward leave scrolling to the browser. */
export function useScrollReset(): void {
  const location = useLocation();
  const type = useNavigationType();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const keep = (location.state as Partial<typeof KEEP_SCROLL> | null)?.keepScroll === true;
    if (type !== 'POP' && !keep) window.scrollTo(0, 0);
  }, [location, type]);
}

/** Device state is refreshed after a resize, debounced by 50 ms (requirements R9.12). */
export const RESIZE_DEBOUNCE_MS = 50;

export function useDeviceRefresh(): void {
  useEffect(() => {
    let timer = 0;
    const onResize = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => useDeviceStore.getState().refresh(), RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      window.clearTimeout(timer);
    };
  }, []);
}
