/**
 * What a page declares it needs, for the shop's server to load all of it before its one render:
 * the layout's data (menu and site, site-data.ts) and the route's data from its area's route
 * table (`src/route-data.ts` of the area, module './routeData' of its server build).
 */
import { matchPath } from 'react-router';
import type { AreaRouteData, DeclaredLoad, DeclaredPageData, PageRequest } from '@shop/shared-kernel/contract';
import { routeForPath } from './route-table.ts';
import { layoutLoads } from './site-data.ts';
import { importAreaModule } from '../areas/module-source.server.ts';

/** The route data of each area this shell instance renders with (one area version each): loaded once. */
const tables = new Map<string, Promise<AreaRouteData | null>>();

function routeDataOf(area: string): Promise<AreaRouteData | null> {
  let table = tables.get(area);
  if (!table) {
    table = importAreaModule<{ routeData?: AreaRouteData }>(`${area}/routeData`).then(
      (module) => module?.routeData ?? null,
      () => null,
    );
    tables.set(area, table);
  }
  return table;
}

/**
 * The page's declared data, or null when its route has none (an area build from before route data,
 * or a route its table leaves out): then the server discovers the data by rendering.
 */
export async function pageData(url: string, request: PageRequest = {}): Promise<DeclaredPageData | null> {
  const [pathname = '/', query = ''] = url.split('?', 2) as [string?, string?];
  const loads: DeclaredLoad[] = [...layoutLoads()];
  const route = routeForPath(pathname);
  if (!route) return { loads, headBeforeData: false };
  if (!route.serverRender) return { loads, headBeforeData: false };
  const declared = (await routeDataOf(route.area))?.[route.name];
  const match = matchPath(route.path, pathname);
  if (!declared || !match) return null;
  const routeLoads = declared.loads({ params: match.params, search: new URLSearchParams(query), basket: request.basket ?? [] });
  return { loads: [...loads, ...routeLoads], headBeforeData: declared.headBeforeData === true };
}
