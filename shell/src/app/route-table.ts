/**
 * The shop's route table, built at boot from the routes the areas in force
 * ship (each area's build declares its pages; the registry carries them). The
 * shell owns only its own pages (not found) and the layouts.
 */
import { matchRoutes } from 'react-router';
import { isLayout, type ShellRoute } from '@shop/shared-kernel/contract';
import type { AreaName, AreaRelease } from '../areas/registry.ts';
import { pathShapeMemo } from './path-key.ts';

/** A route of the table: an area's declared page (the contract's AreaRoute) and its area. */
export type ShopRoute = ShellRoute;

let table: ShopRoute[] = [];
let tableKey = '[]';
let ranked: { id: string; path: string }[] = [];
/** The route names of the shapes of path matched lately (see path-key.ts): react-router flattens and ranks every route on each match. */
const matched = pathShapeMemo<string | undefined>(200);

/** Builds the table from the releases this page loads; routes with an unknown layout are left out. */
export function setRouteTable(releases: Partial<Record<AreaName, AreaRelease>>): void {
  table = (Object.entries(releases) as [AreaName, AreaRelease | undefined][]).flatMap(([area, release]) =>
    (release?.routes ?? []).filter((route) => isLayout(route.layout)).map((route) => ({ ...route, area })),
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
  const id = matched(
    tableKey,
    () => ranked,
    pathname,
    () => matchRoutes(ranked, pathname)?.[0]?.route.id,
  );
  return id ? routeByName(id) : undefined;
}
