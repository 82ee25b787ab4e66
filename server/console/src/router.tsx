/**
 * The console's pages by address, routed in the browser (the server answers the console's HTML for
 * every /ops/… address): the releases, an order's documents and states, the stored redirects.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type MouseEvent, type ReactNode } from 'react';

export const DOCUMENT_TOOLS = ['pdf', 'generate', 'email', 'send', 'paid'] as const;
export type DocumentTool = (typeof DOCUMENT_TOOLS)[number];

export type Page = { kind: 'releases' } | { kind: 'documents'; tool: DocumentTool } | { kind: 'redirects' } | { kind: 'unknown' };

export function pageOf(pathname: string): Page {
  const path = pathname.replace(/\/+$/, '') || '/ops';
  if (path === '/ops') return { kind: 'releases' };
  if (path === '/ops/presmerovania') return { kind: 'redirects' };
  const tool = /^\/ops\/doklady(?:\/([a-z]+))?$/.exec(path);
  if (tool) {
    const named = (tool[1] ?? 'pdf') as DocumentTool;
    return DOCUMENT_TOOLS.includes(named) ? { kind: 'documents', tool: named } : { kind: 'unknown' };
  }
  return { kind: 'unknown' };
}

type Location = { pathname: string; search: string };
const LocationContext = createContext<{ location: Location; go: (href: string) => void } | null>(null);

export function Router({ children }: { children: ReactNode }) {
  const read = () => ({ pathname: window.location.pathname, search: window.location.search });
  const [location, setLocation] = useState<Location>(read);
  useEffect(() => {
    const moved = () => setLocation(read());
    window.addEventListener('popstate', moved);
    return () => window.removeEventListener('popstate', moved);
  }, []);
  const go = useCallback((href: string) => {
    window.history.pushState(null, '', href);
    setLocation(read());
    window.scrollTo(0, 0);
  }, []);
  const value = useMemo(() => ({ location, go }), [location, go]);
  return <LocationContext.Provider value={value}>{children}</LocationContext.Provider>;
}

export function useLocation() {
  const value = useContext(LocationContext);
  if (!value) throw new Error('useLocation is used inside Router');
  return value;
}

/** A link within the console: a page change without a new load (a plain link with a modifier key). */
export function Link({ href, children, current }: { href: string; children: ReactNode; current?: boolean }) {
  const { go } = useLocation();
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    go(href);
  };
  return (
    <a href={href} onClick={follow} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}
