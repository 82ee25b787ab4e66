/**
 * The shop's route table, built at boot from the routes the areas in force
 * ship (each area's build declares its pages; the registry carries them). The
 * shell owns only its own pages (/ops, not found) and the layouts.
 */
import { matchRoutes } from 'react-router';
import type { AreaName, AreaRelease } from '../areas/registry.ts';
import { pathShapeMemo } from './path-key.ts';

export type LayoutName = 'default' | 'checkout' | 'account';
export const LAYOUTS: readonly LayoutName[] = ['default', 'checkout', 'account'];

export type ShopRoute = {
  name: string;
  path: string;
  area: AreaName;
  module: string;
  layout: LayoutName;
  /** The step needs a non-empty basket. */
  requiresBasket?: boolean;
  /** The page is for signed-in shoppers (the shell sends guests to sign in). */
  requiresSignIn?: boolean;
  /** No consent notice and no analytics. */
  noConsent?: boolean;
  /** The shop's server renders the page's first view. */
  serverRender?: boolean;
};

let table: ShopRoute[] = [];
let tableKey = '[]';
let ranked: { id: string; path: string }[] = [];
/** The route names of the shapes of path matched lately (see path-key.ts): react-router flattens and ranks every route on each match. */
const matched = pathShapeMemo<string | undefined>(200);

/** Builds the table from the releases this page loads; routes with an unknown layout are left out. */
export function setRouteTable(releases: Partial<Record<AreaName, AreaRelease>>): void {
  table = (Object.entries(releases) as [AreaName, AreaRelease | undefined][]).flatMap(([area, release]) =>
    (release?.routes ?? []).filter((route) => LAYOUTS.includes(route.layout)).map((route) => ({ ...route, area })),
  );
  ranked = table.map((route) => ({ id: route.name, path: route.path }));
  // The server sets the table on every request: the paths matched stay valid while the routes are the same.
  tableKey = JSON.stringify(table);
}

export function shopRoutes(): readonly ShopRoute[] {
  return table;
}

export function routeByName(name: string): ShopRoute | undefined {
  return table.find((route) => route.name === name);
}

/** The table route a path renders, ranked as the router ranks them (/s/kontakt before /s/:site). */
export function routeForPath(pathname: string): ShopRoute | undefined {
  const id = matched(tableKey, () => ranked, pathname, () => matchRoutes(ranked, pathname)?.[0]?.route.id);
  return id ? routeByName(id) : undefined;
}
