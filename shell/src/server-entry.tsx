/**
 * The shell on the shop's server: renders the first view of a public page with the area
 * versions of one registry choice. The server evaluates this build once per choice (shell
 * version and area versions), so the route table and the area loader below are that choice's.
 * Nothing here is per request but the element's props, and the feature switches the page's
 * config carries (set before each render, decided with that browser's bucket as the browser will).
 */
import { StrictMode, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { useFlagStore } from '@shop/shared-kernel';
import type { MenuData, SiteData } from '@shop/shared-kernel/contract';
import type { ShellServer, ShellServerOptions } from '@shop/shared-kernel/contract';
import { registerAreas } from './areas/area-loader.ts';
import { setServerModuleLoader } from './areas/module-source.server.ts';
import { routeForPath, setRouteTable } from './app/route-table.ts';
import { pageData } from './app/page-data.server.ts';
import { ShopRoutes } from './app/router.tsx';
import { ServerDataScope } from './app/server-data-scope.tsx';
import { AreaRouting } from './areas/area-routing.tsx';
import type { ShellConfig } from './config.ts';
import { layoutLoads } from './app/site-data.ts';
import { MenuLinks } from './components/header.tsx';
import { FooterDetails } from './components/footer.tsx';
import { footerKey, layoutHtml, menuKey, rememberLayoutHtml } from './components/layout-html.ts';

export function createShellServer(options: ShellServerOptions): ShellServer<ShellConfig> {
  setServerModuleLoader(options.loadModule);
  registerAreas(options.releases, options.assetOrigin);
  setRouteTable(options.releases);
  return {
    routeForPath,
    isPage: (pathname) => routeForPath(pathname) !== undefined,
    pageData,
    prepare: ({ url, server }) => {
      const pathname = url.split('?')[0] ?? '/';
      const [menuLoad, siteLoad] = layoutLoads().map((source) => server.data.get(source.key));
      const keep = (key: string, part: ReactNode) => {
        if (layoutHtml(key) === undefined)
          rememberLayoutHtml(
            key,
            renderToString(
              <StaticRouter location={pathname}>
                <AreaRouting>{part}</AreaRouting>
              </StaticRouter>,
            ),
          );
      };
      if (menuLoad?.ok) {
        const menu = (menuLoad.data as { data: MenuData }).data;
        keep(menuKey(menu, pathname), <MenuLinks menu={menu} />);
      }
      if (siteLoad?.ok) {
        const site = (siteLoad.data as { data: SiteData }).data;
        keep(footerKey(site), <FooterDetails site={site} />);
      }
    },
    page: ({ url, config, server }) => {
      useFlagStore.setState({ flags: config.flags ?? {}, bucket: config.bucket ?? null });
      return (
        <StrictMode>
          <StaticRouter location={url}>
            <ServerDataScope value={server}>
              <ShopRoutes config={config} />
            </ServerDataScope>
          </StaticRouter>
        </StrictMode>
      );
    },
  };
}
