/**
 * Every route of the shop (spec section 2), the area and exposed module that
 * renders it, and its layout. The shell knows areas only by name and module.
 */
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
