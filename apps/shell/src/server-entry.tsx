/**
 * The shell on the shop's server: renders the first view of a public page with the area
 * versions of one registry choice. The server evaluates this build once per choice (shell
 * version and area versions), so the route table and the area loader below are that choice's.
 * Nothing here is per request but the element's props.
 */
import { StrictMode } from 'react';
import { StaticRouter } from 'react-router';
import type { ServerRender } from '@shop/shared-kernel/react';
import type { AreaName, AreaRelease } from './areas/registry.ts';
import { registerAreas } from './areas/area-loader.ts';
import { setServerModuleLoader, type ServerModuleLoader } from './areas/module-source.server.ts';
import { routeForPath, setRouteTable, type ShopRoute } from './app/route-table.ts';
import { ShopRoutes } from './app/router.tsx';
import { ServerDataScope } from './app/server-data-scope.tsx';
import type { ShellConfig } from './config.ts';

/** The shell's own pages beside the areas' routes (the operators' console). */
const SHELL_PAGES = /^\/ops\/?$/;

export type ShellServer = {
  /** The table route a path renders (undefined: the shell's own pages or not found). */
  routeForPath(pathname: string): ShopRoute | undefined;
  /** Whether a path is a page at all (an area's route or the shell's own): otherwise the 404 page. */
  isPage(pathname: string): boolean;
  /** The page's React tree for one request. */
  page(props: { url: string; config: ShellConfig; server: ServerRender }): React.JSX.Element;
};

export function createShellServer(options: {
  releases: Partial<Record<AreaName, AreaRelease>>;
  assetOrigin: string;
  loadModule: ServerModuleLoader;
}): ShellServer {
  setServerModuleLoader(options.loadModule);
  registerAreas(options.releases, options.assetOrigin);
  setRouteTable(options.releases);
  return {
    routeForPath,
    isPage: (pathname) => routeForPath(pathname) !== undefined || SHELL_PAGES.test(pathname),
    page: ({ url, config, server }) => (
      <StrictMode>
        <StaticRouter location={url}>
          <ServerDataScope value={server}>
            <ShopRoutes config={config} />
          </ServerDataScope>
        </StaticRouter>
      </StrictMode>
    ),
  };
}
