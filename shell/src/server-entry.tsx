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

/** The shell's own pages that render in the browser only (the operators' console). */
const CLIENT_ONLY = /^\/ops(\/|$)/;

export type ShellServer = {
  /** The table route a path renders (undefined: the shell's own pages or not found). */
  routeForPath(pathname: string): ShopRoute | undefined;
  /** A page of the shell's own that is never rendered on the server. */
  isClientOnly(pathname: string): boolean;
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
    isClientOnly: (pathname) => CLIENT_ONLY.test(pathname),
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
