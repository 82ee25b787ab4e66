/**
 * Every route of the shop (spec section 2), the area and exposed module that
 * renders it, and its layout. The shell knows areas only by name and module.
 */
import { matchPath } from 'react-router';
import type { AreaName } from '../areas/registry.ts';

export type LayoutName = 'default' | 'checkout' | 'account';

export type ShopRoute = {
  name: string;
  path: string;
  area: AreaName;
  module: string;
  layout: LayoutName;
  /** checkout-contact and checkout-order need a non-empty basket. */
  requiresBasket?: true;
};

export const shopRoutes: ShopRoute[] = [
  { name: 'home', path: '/', area: 'catalog', module: './HomePage', layout: 'default' },
  { name: 'category', path: '/c/:category', area: 'catalog', module: './CategoryPage', layout: 'default' },
  { name: 'product', path: '/p/:product', area: 'catalog', module: './ProductPage', layout: 'default' },
  { name: 'brand', path: '/b/:brand', area: 'catalog', module: './BrandPage', layout: 'default' },
  { name: 'sale', path: '/vypredaj', area: 'catalog', module: './SalePage', layout: 'default' },
  { name: 'site', path: '/s/:site', area: 'content', module: './StaticPage', layout: 'default' },
  { name: 'checkout-cart', path: '/checkout/cart', area: 'checkout', module: './CartPage', layout: 'checkout' },
  { name: 'account-login', path: '/account/login', area: 'account', module: './LoginPage', layout: 'account' },
  { name: 'account-profile', path: '/account/profile', area: 'account', module: './ProfilePage', layout: 'account' },
];

export function routeByName(name: string): ShopRoute | undefined {
  return shopRoutes.find((route) => route.name === name);
}

/** Utility routes without consent notice and analytics (spec section 2). */
const NO_CONSENT_ROUTES = ['generate', 'pdf'];

/** The route name of a path: a table route's name, or a utility route's. */
export function routeNameForPath(pathname: string): string | null {
  const route = shopRoutes.find((candidate) => matchPath(candidate.path, pathname));
  if (route) return route.name;
  const first = pathname.split('/')[1] ?? '';
  return NO_CONSENT_ROUTES.includes(first) ? first : null;
}

/** The area page a same-origin URL leads to, for preloading. */
export function routeForPath(pathname: string): ShopRoute | undefined {
  return shopRoutes.find((candidate) => matchPath(candidate.path, pathname));
}
