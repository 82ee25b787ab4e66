import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { useBasketStore } from '@shop/shared-kernel';
import { shopRoutes, type LayoutName, type ShopRoute } from './route-table.ts';
import { AreaRoute } from '../areas/area-route.tsx';
import { DefaultLayout } from '../layouts/default-layout.tsx';
import { CheckoutLayout } from '../layouts/checkout-layout.tsx';
import { AccountLayout } from '../layouts/account-layout.tsx';
import { ErrorLayout } from '../layouts/error-layout.tsx';
import { NotFoundPage } from '../pages/not-found-page.tsx';
import { ShellRoot } from './shell-root.tsx';
import { OpsPage } from '../pages/ops-page.tsx';
import type { ShellConfig } from '../config.ts';

/** Checkout steps need a non-empty basket; otherwise the visitor goes to the basket. */
function basketGuard() {
  return useBasketStore.getState().lines.length === 0 ? redirect('/checkout/cart') : null;
}

function toRouteObject(route: ShopRoute): RouteObject {
  return {
    id: route.name,
    path: route.path,
    element: <AreaRoute route={route} />,
    ...(route.requiresBasket ? { loader: basketGuard } : {}),
  };
}

const layouts: Record<LayoutName, (props: { children?: React.ReactNode }) => React.JSX.Element> = {
  default: DefaultLayout,
  checkout: CheckoutLayout,
  account: AccountLayout,
};

export function buildRoutes(config: ShellConfig): RouteObject[] {
  const byLayout = (layout: LayoutName) => shopRoutes.filter((route) => route.layout === layout).map(toRouteObject);
  return [
    {
      element: <ShellRoot config={config} />,
      errorElement: <ErrorLayout />,
      children: [
        ...(Object.keys(layouts) as LayoutName[]).map((layout) => {
          const Layout = layouts[layout];
          return { element: <Layout />, children: byLayout(layout) };
        }),
        {
          element: <DefaultLayout />,
          children: [
            { path: '/ops', element: <OpsPage /> },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ];
}

export function createShopRouter(config: ShellConfig) {
  return createBrowserRouter(buildRoutes(config));
}
