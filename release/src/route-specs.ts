/**
 * The pages areas ship: each route an area's build declares is checked on
 * its own (a path the router understands, a layout the shell has, a module
 * the build exposes) and against every other area's routes (no two areas
 * claim the same path or route name). The shell's own paths are reserved.
 */
import { ReleaseRefused } from './refusal.ts';
import { LAYOUTS, type AreaName, type RouteSpec } from './registry.ts';

/** Paths the shell and the server own: no area may claim them or anything under them. */
const RESERVED = ['ops', 'preview', 'api', 'builds', 'media', 'consent', 'remotes', 'assets', 'shells'];
const SEGMENT = /^(?:[a-z0-9][a-z0-9-]*|:[A-Za-z][A-Za-z0-9]*)$/;
const NAME = /^[a-z][a-z0-9-]{0,59}$/;
const MAX_ROUTES = 100;

/** The shape of a path for comparison: parameters are equal whatever their name. */
export const pathShape = (path: string) =>
  path
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? ':' : segment))
    .join('/');

function refuse(area: AreaName, message: string): never {
  throw new ReleaseRefused('broken_build', `${area}: ${message} Nothing was changed.`);
}

/** Reads an area build's declared routes, refusing any that the shell could not serve. */
export function parseRouteSpecs(area: AreaName, raw: unknown, exposes: string[]): RouteSpec[] {
  if (!Array.isArray(raw)) refuse(area, 'the build declares no routes (area.json "routes").');
  if (raw.length > MAX_ROUTES) refuse(area, `the build declares ${raw.length} routes; at most ${MAX_ROUTES}.`);
  const routes: RouteSpec[] = [];
  for (const item of raw as Record<string, unknown>[]) {
    const { name, path, module, layout } = item ?? {};
    if (typeof name !== 'string' || !NAME.test(name)) refuse(area, `a route has no valid name (${JSON.stringify(name)}).`);
    if (typeof path !== 'string' || !path.startsWith('/') || path.length > 200) refuse(area, `route ${name} has no valid path.`);
    const segments = path.split('/').filter(Boolean);
    if (!segments.every((segment) => SEGMENT.test(segment)) || (path !== '/' && path.endsWith('/'))) {
      refuse(area, `route ${name} has a path the router cannot match: ${path}.`);
    }
    if (segments.length > 0 && RESERVED.includes(segments[0]!)) refuse(area, `route ${name} claims ${path}, which the shell owns.`);
    if (typeof module !== 'string' || !exposes.includes(module)) {
      throw new ReleaseRefused(
        'missing_module',
        `${area}: route ${name} needs ${String(module)}, which the build does not expose. Nothing was changed.`,
      );
    }
    if (typeof layout !== 'string' || !(LAYOUTS as readonly string[]).includes(layout))
      refuse(area, `route ${name} names an unknown layout ${String(layout)}.`);
    routes.push({
      name,
      path,
      module,
      layout: layout as RouteSpec['layout'],
      ...(item.requiresBasket === true ? { requiresBasket: true } : {}),
      ...(item.requiresSignIn === true ? { requiresSignIn: true } : {}),
      ...(item.noConsent === true ? { noConsent: true } : {}),
      ...(item.serverRender === true ? { serverRender: true } : {}),
    });
  }
  const names = new Set<string>();
  const shapes = new Set<string>();
  for (const route of routes) {
    if (names.has(route.name)) refuse(area, `route name ${route.name} is declared twice.`);
    if (shapes.has(pathShape(route.path))) refuse(area, `path ${route.path} is declared twice.`);
    names.add(route.name);
    shapes.add(pathShape(route.path));
  }
  return routes;
}

/** Refuses route tables in which two areas claim one path or one route name. */
export function checkRouteClashes(tables: { area: AreaName; routes: RouteSpec[] }[]): void {
  const byShape = new Map<string, { area: AreaName; route: RouteSpec }>();
  const byName = new Map<string, AreaName>();
  for (const { area, routes } of tables) {
    for (const route of routes) {
      const shape = pathShape(route.path);
      const other = byShape.get(shape);
      if (other && other.area !== area) {
        throw new ReleaseRefused(
          'route_clash',
          `${area} claims ${route.path}, which ${other.area} already serves (${other.route.name}). Nothing was changed.`,
        );
      }
      const named = byName.get(route.name);
      if (named && named !== area) {
        throw new ReleaseRefused('route_clash', `${area} names a route ${route.name}, a name ${named} already uses. Nothing was changed.`);
      }
      byShape.set(shape, { area, route });
      byName.set(route.name, area);
    }
  }
}
