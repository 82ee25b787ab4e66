import { matchRoutes, type RouteObject } from 'react-router';
import { pathShapeMemo } from './path-key.ts';

/** Where a path's matched routes sit: from the root down, each an index into its parent's children; null when none match. */
type Positions = number[] | null;

/**
 * The branch of a route tree that a path renders, as a tree of its own: the matched routes, each
 * with the next as its only child. `useRoutes` on it renders what it renders on the whole tree.
 *
 * react-router flattens, compiles and ranks every route of a tree each time it matches, and
 * `<Routes>` matches on every render: a server render of a page (two to four renders) spent
 * a large share of the server's time there. A branch is looked up once per shape of path (see
 * path-key.ts) and route table, and kept by position, so each render's own route objects (with
 * its elements and props) are used.
 */
export function createBranchMatcher(limit = 200) {
  const remembered = pathShapeMemo<Positions>(limit);
  /** `table`: what the tree's shape follows (the shop's route table); a new one forgets the paths matched. */
  return function branchFor(tree: RouteObject[], pathname: string, table: unknown): RouteObject[] {
    const positions = remembered(
      table,
      () => allRoutes(tree),
      pathname,
      () => positionsOf(tree, pathname),
    );
    return positions ? (nested(tree, positions) ?? tree) : tree;
  };
}

function allRoutes(tree: RouteObject[]): RouteObject[] {
  return tree.flatMap((route) => [route, ...allRoutes(route.children ?? [])]);
}

function positionsOf(tree: RouteObject[], pathname: string): Positions {
  const matches = matchRoutes(tree, pathname);
  if (!matches) return null;
  let level = tree;
  const positions: number[] = [];
  for (const { route } of matches) {
    const index = level.indexOf(route);
    if (index < 0) return null;
    positions.push(index);
    level = route.children ?? [];
  }
  return positions;
}

/** The routes at these positions, each given the next as its only child; undefined when the tree no longer has them. */
function nested(tree: RouteObject[], positions: number[]): RouteObject[] | undefined {
  const chain: RouteObject[] = [];
  let level: RouteObject[] | undefined = tree;
  for (const index of positions) {
    const route: RouteObject | undefined = level?.[index];
    if (!route) return undefined;
    chain.push(route);
    level = route.children;
  }
  let branch = chain.pop()!;
  for (const parent of chain.reverse()) branch = { ...parent, index: false, children: [branch] };
  return [branch];
}
