/**
 * Every route of the shop (spec section 2), the area and exposed module that
 * renders it, and its layout. The shell knows areas only by name and module.
 */
import { matchRoutes } from 'react-router';
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
  { name: 'search', path: '/search/:search', area: 'catalog', module: './SearchPage', layout: 'default' },
  { name: 'site', path: '/s/:site', area: 'content', module: './StaticPage', layout: 'default' },
  { name: 'contact', path: '/s/kontakt', area: 'content', module: './ContactPage', layout: 'default' },
  { name: 'loyalty', path: '/s/vernostny-program', area: 'content', module: './LoyaltyPage', layout: 'default' },
  { name: 'blog', path: '/blog', area: 'content', module: './BlogPage', layout: 'default' },
  { name: 'blog-tag', path: '/blog/:tag', area: 'content', module: './BlogPage', layout: 'default' },
  { name: 'blog-post', path: '/blog/clanok/:post', area: 'content', module: './BlogPostPage', layout: 'default' },
  { name: 'shipping-payment', path: '/doprava-a-platba', area: 'content', module: './ShippingPaymentPage', layout: 'default' },
  { name: 'checkout-cart', path: '/checkout/cart', area: 'checkout', module: './CartPage', layout: 'checkout' },
  { name: 'checkout-contact', path: '/checkout/contact', area: 'checkout', module: './ContactPage', layout: 'checkout', requiresBasket: true },
  { name: 'checkout-order', path: '/checkout/order', area: 'checkout', module: './OrderPage', layout: 'checkout', requiresBasket: true },
  { name: 'checkout-thankyou', path: '/checkout/thankyou/:orderToken', area: 'checkout', module: './ThankYouPage', layout: 'checkout' },
  { name: 'payment-pending', path: '/payment/pending', area: 'checkout', module: './PaymentPage', layout: 'checkout' },
  { name: 'payment-success', path: '/payment/success', area: 'checkout', module: './PaymentPage', layout: 'checkout' },
  { name: 'payment-cancelled', path: '/payment/cancelled', area: 'checkout', module: './PaymentPage', layout: 'checkout' },
  // The operator's document tools (spec's utility routes); 'generate' and 'pdf' run without consent and analytics.
  { name: 'pdf', path: '/pdf', area: 'checkout', module: './OperatorPage', layout: 'checkout' },
  { name: 'generate', path: '/generate', area: 'checkout', module: './OperatorPage', layout: 'checkout' },
  { name: 'email', path: '/email', area: 'checkout', module: './OperatorPage', layout: 'checkout' },
  { name: 'send', path: '/send', area: 'checkout', module: './OperatorPage', layout: 'checkout' },
  { name: 'paid', path: '/paid', area: 'checkout', module: './OperatorPage', layout: 'checkout' },
  { name: 'account-login', path: '/account/login', area: 'account', module: './LoginPage', layout: 'account' },
  { name: 'account-profile', path: '/account/profile', area: 'account', module: './ProfilePage', layout: 'account' },
  // account area (issue 6): every page but sign-in, sign-up and password reset sends a guest to sign in
  { name: 'account-register', path: '/account/register', area: 'account', module: './RegisterPage', layout: 'account' },
  { name: 'account-password-reset', path: '/account/password-reset', area: 'account', module: './PasswordResetPage', layout: 'account' },
  { name: 'account-address', path: '/account/address', area: 'account', module: './AddressPage', layout: 'account' },
  { name: 'account-orders', path: '/account/orders', area: 'account', module: './OrdersPage', layout: 'account' },
  { name: 'account-order', path: '/account/orders/:ordertoken', area: 'account', module: './OrderDetailPage', layout: 'account' },
  { name: 'account-complaints', path: '/account/complaints', area: 'account', module: './ComplaintsPage', layout: 'account' },
];

export function routeByName(name: string): ShopRoute | undefined {
  return shopRoutes.find((route) => route.name === name);
}

/** Utility routes without consent notice and analytics (spec section 2). */
const NO_CONSENT_ROUTES = ['generate', 'pdf'];

const rankedRoutes = shopRoutes.map((route) => ({ id: route.name, path: route.path }));

/** The table route a path renders, ranked as the router ranks them (/s/kontakt before /s/:site). */
export function routeForPath(pathname: string): ShopRoute | undefined {
  const id = matchRoutes(rankedRoutes, pathname)?.[0]?.route.id;
  return id ? shopRoutes.find((route) => route.name === id) : undefined;
}

/** The route name of a path: a table route's name, or a utility route's. */
export function routeNameForPath(pathname: string): string | null {
  const route = routeForPath(pathname);
  if (route) return route.name;
  const first = pathname.split('/')[1] ?? '';
  return NO_CONSENT_ROUTES.includes(first) ? first : null;
}
