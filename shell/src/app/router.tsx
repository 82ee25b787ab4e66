import { Component, createContext, useContext, type ReactNode } from 'react';
import { createRoutesFromChildren, Route, useLocation, useRoutes, type RouteObject } from 'react-router';
import type { LayoutName } from '@shop/shared-kernel/contract';
import { routeForPath, shopRoutes, type ShopRoute } from './route-table.ts';
import { guarded } from './route-guards.tsx';
import { AreaRoute } from '../areas/area-route.tsx';
import { AreaRouting } from '../areas/area-routing.tsx';
import { DefaultLayout } from '../layouts/default-layout.tsx';
import { CheckoutLayout } from '../layouts/checkout-layout.tsx';
import { AccountLayout } from '../layouts/account-layout.tsx';
import { ErrorLayout } from '../layouts/error-layout.tsx';
import { NotFoundPage } from '../pages/not-found-page.tsx';
import { ShellRoot } from './shell-root.tsx';
import { createBranchMatcher } from './route-branch.ts';
import { PageSkeleton } from '../components/page-skeleton.tsx';
import { ClientOnly } from './client-only.tsx';
import type { ShellConfig } from '../config.ts';

const layouts: Record<LayoutName, (props: { children?: ReactNode }) => React.JSX.Element> = {
  default: DefaultLayout,
  checkout: CheckoutLayout,
  account: AccountLayout,
};

/**
 * A route of the table: its page, behind the guards its entry asks for (requiresBasket,
 * requiresSignIn). A page its area does not render on the server comes after hydration.
 */
function areaRoute(route: ShopRoute) {
  const page = guarded(route, <AreaRoute route={route} />);
  return (
    <Route
      key={route.name}
      path={route.path}
      element={route.serverRender ? page : <ClientOnly fallback={<PageSkeleton />}>{page}</ClientOnly>}
    />
  );
}

type BoundaryState = { error: unknown; at: string | null };

/** Last resort for a failure outside any area; the next navigation tries again. */
class ShellBoundary extends Component<{ pathname: string; children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null, at: null };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(props: { pathname: string }, state: BoundaryState): Partial<BoundaryState> | null {
    if (state.error === null) return state.at === props.pathname ? null : { at: props.pathname };
    return state.at === props.pathname ? null : { error: null, at: props.pathname };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.error === null ? this.props.children : <ErrorLayout />;
  }
}

const branchFor = createBranchMatcher();

/** The routes of the tree that the current path renders (matched once per shape of path, see route-branch.ts). */
function MatchedRoutes({ tree }: { tree: RouteObject[] }) {
  const { pathname } = useLocation();
  return useRoutes(branchFor(tree, pathname, shopRoutes()));
}

/** The page's shell configuration, for the shell root: the route tree itself does not depend on it. */
const ShellConfigContext = createContext<ShellConfig | null>(null);

function ConfiguredShellRoot() {
  const config = useContext(ShellConfigContext);
  if (!config) throw new Error('ShopRoutes provides the shell configuration');
  return <ShellRoot config={config} />;
}

let builtTree: { table: readonly ShopRoute[]; tree: RouteObject[] } | null = null;

/**
 * The shop's route tree: the shell root, one layout per group of routes, area pages inside. Built
 * once per route table (a server render built it anew on every page, a visible share of its time).
 */
function shopRouteTree(): RouteObject[] {
  const table = shopRoutes();
  if (builtTree?.table !== table) builtTree = { table, tree: buildRouteTree() };
  return builtTree.tree;
}

function buildRouteTree(): RouteObject[] {
  return createRoutesFromChildren(
    <Route element={<ConfiguredShellRoot />}>
      {(Object.keys(layouts) as LayoutName[]).map((layout) => {
        const Layout = layouts[layout];
        return (
          <Route key={layout} element={<Layout />}>
            {shopRoutes()
              .filter((route) => route.layout === layout)
              .map(areaRoute)}
          </Route>
        );
      })}
      <Route element={<DefaultLayout />}>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Route>,
  );
}

/**
 * Matches a path against the route table and the route tree ahead of rendering it, so the first
 * render finds both remembered, each in a task of its own. The first match of a page load compiles
 * and ranks every route (slow on a phone's main thread, in code run for the first time);
 * inside the hydration they were one unit of work React cannot split, and made its task long.
 */
export async function matchRoutesAhead(pathname: string, nextTask: () => Promise<void>): Promise<void> {
  routeForPath(pathname);
  await nextTask();
  branchFor(shopRouteTree(), pathname, shopRoutes());
}

/** The page at the current path: the matched branch of the route tree, inside the shell's boundaries. */
export function ShopRoutes({ config }: { config: ShellConfig }) {
  const { pathname } = useLocation();
  return (
    <ShellConfigContext.Provider value={config}>
      <AreaRouting>
        <ShellBoundary pathname={pathname}>
          <MatchedRoutes tree={shopRouteTree()} />
        </ShellBoundary>
      </AreaRouting>
    </ShellConfigContext.Provider>
  );
}
