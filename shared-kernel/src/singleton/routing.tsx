/**
 * Routing primitives for the areas. An area page reads the URL and moves the
 * shopper through these, never through a router library: the shell provides
 * them (backed by its router) with <RoutingProvider>, and standalone harnesses
 * and component tests with '@shop/shared-kernel/standalone'. Keeping the
 * router out of the shared singletons lets the shell's bundler tree-shake it.
 * This module is part of the singleton: the context the shell provides and
 * the one the areas read must be the same object.
 */
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';

export type ShopLocation = { readonly pathname: string; readonly search: string; readonly hash: string };
export type NavigateOptions = {
  readonly replace?: boolean;
  /** Keep the scroll position (e.g. a filter changed the query), instead of starting the new page at the top. */
  readonly preventScrollReset?: boolean;
};
export type Navigate = (to: string, options?: NavigateOptions) => void;
export type RouteParams = Readonly<Record<string, string | undefined>>;

/** What the host gives an area page: where the shopper is and how to move on. */
export type ShopRouting = {
  readonly location: ShopLocation;
  /** The values of the route pattern's `:name` segments. */
  readonly params: RouteParams;
  /** Client-side navigation to a same-origin path (with query and hash). */
  readonly navigate: Navigate;
};

const RoutingContext = createContext<ShopRouting | null>(null);

export function RoutingProvider({ value, children }: { value: ShopRouting; children?: ReactNode }) {
  return <RoutingContext.Provider value={value}>{children}</RoutingContext.Provider>;
}

export function useRouting(): ShopRouting {
  const routing = useContext(RoutingContext);
  if (!routing) throw new Error('Routing is not provided: render area pages inside <RoutingProvider>.');
  return routing;
}

export const useLocation = (): ShopLocation => useRouting().location;
export const useParams = (): RouteParams => useRouting().params;
export const useNavigate = (): Navigate => useRouting().navigate;

type SetSearchParams = (next: URLSearchParams | Record<string, string>, options?: NavigateOptions) => void;

/** The query of the current URL, and a setter that keeps the path. */
export function useSearchParams(): [URLSearchParams, SetSearchParams] {
  const { location, navigate } = useRouting();
  const { pathname, search } = location;
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback<SetSearchParams>(
    (next, options) => {
      const query = new URLSearchParams(next).toString();
      navigate(`${pathname}${query ? `?${query}` : ''}`, options);
    },
    [pathname, navigate],
  );
  return [params, setParams];
}

const OTHER_ORIGIN = /^(?:[a-z][a-z\d+.-]*:|\/\/)/i;

/** True when a click on a link should become a client-side navigation. */
function isPlainClick(event: MouseEvent<HTMLAnchorElement>, target: string | undefined): boolean {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    (!target || target === '_self') &&
    !event.metaKey &&
    !event.altKey &&
    !event.ctrlKey &&
    !event.shiftKey
  );
}

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  /** A same-origin path, e.g. `/p/tehla?v=2`. */
  readonly to: string;
  readonly replace?: boolean;
};

/** An ordinary link (works without JavaScript, opens in a new tab) that navigates client-side on a plain click. */
export function Link({ to, replace, onClick, target, download, ...rest }: LinkProps) {
  const { navigate } = useRouting();
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (download !== undefined || OTHER_ORIGIN.test(to) || !isPlainClick(event, target)) return;
    event.preventDefault();
    navigate(to, { replace });
  };
  return <a {...rest} href={to} target={target} download={download} onClick={handleClick} />;
}

const pathOf = (to: string) => to.replace(/[?#].*$/, '').replace(/(.)\/$/, '$1');

/** A link that marks itself current (`aria-current="page"`, class `active`) on its path, or below it unless `end` (the root only on itself). */
export function NavLink({ end, className, ...props }: LinkProps & { readonly end?: boolean }) {
  const current = pathOf(useLocation().pathname);
  const path = pathOf(props.to);
  const active = current === path || (!end && path !== '/' && current.startsWith(`${path}/`));
  const classes = [className, active ? 'active' : null].filter(Boolean).join(' ');
  return <Link {...props} className={classes || undefined} aria-current={active ? 'page' : undefined} />;
}

/** Navigates once, after rendering (e.g. a redirect to the canonical URL). */
export function Navigate({ to, replace }: { to: string; replace?: boolean }): null {
  const { navigate } = useRouting();
  useEffect(() => {
    navigate(to, { replace });
  }, [navigate, to, replace]);
  return null;
}
