/**
 * The shop's pages as paths: every link from one part to another's page, and every URL the
 * server writes (sitemap, feeds, structured data, e-mails, payment returns), is built here.
 * `shopRoutePatterns` holds the same pages as React Router patterns: the areas declare their
 * routes with them, so the path a builder writes is the path an area's route matches
 * (shop-paths.test.ts checks every pair). Plain values only: vite configs and pages import this.
 */

/** A slug or token as one path segment. Slugs are ASCII `[a-z0-9-]` today (so this changes nothing), but the contract allows any text. */
const segment = (value: string): string => encodeURIComponent(value);

/** The page patterns an area's route table declares (`:name` is one path segment). */
export const shopRoutePatterns = {
  home: '/',
  category: '/c/:category',
  product: '/p/:product',
  brand: '/b/:brand',
  sale: '/vypredaj',
  search: '/search/:search',
  searchEmpty: '/search',
  cart: '/checkout/cart',
  checkoutContact: '/checkout/contact',
  checkoutOrder: '/checkout/order',
  thankYou: '/checkout/thankyou/:orderToken',
  paymentPending: '/payment/pending',
  paymentSuccess: '/payment/success',
  paymentCancelled: '/payment/cancelled',
  signIn: '/account/login',
  register: '/account/register',
  passwordReset: '/account/password-reset',
  profile: '/account/profile',
  addresses: '/account/address',
  orders: '/account/orders',
  order: '/account/orders/:ordertoken',
  complaints: '/account/complaints',
  page: '/s/:site',
  contact: '/s/kontakt',
  loyalty: '/s/vernostny-program',
  blog: '/blog',
  blogTag: '/blog/:tag',
  blogPost: '/blog/clanok/:post',
  shippingPayment: '/doprava-a-platba',
} as const;

export type ShopPage = keyof typeof shopRoutePatterns;

const p = shopRoutePatterns;

/** `?name=value` for the values given and not empty (encoded), or nothing. */
function query(values: Record<string, string | null | undefined>): string {
  const pairs = Object.entries(values).filter((pair): pair is [string, string] => typeof pair[1] === 'string' && pair[1] !== '');
  return pairs.length === 0 ? '' : `?${pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`;
}

export const shopPaths = {
  home: () => p.home,
  category: (slug: string) => `/c/${segment(slug)}`,
  product: (slug: string) => `/p/${segment(slug)}`,
  brand: (slug: string) => `/b/${segment(slug)}`,
  sale: () => p.sale,
  /** The results for a term (trimmed by the caller); an empty term is `/search/`, the page that asks for one. */
  search: (term: string) => `/search/${segment(term)}`,

  cart: () => p.cart,
  checkoutContact: () => p.checkoutContact,
  checkoutOrder: () => p.checkoutOrder,
  thankYou: (orderToken: string) => `/checkout/thankyou/${segment(orderToken)}`,
  /** Where the payment gateway sends the shopper back, and where the payment page goes once it knows. */
  payment: (state: 'pending' | 'success' | 'cancelled', orderToken: string) => `/payment/${state}${query({ order: orderToken })}`,

  /** `next`: the same-origin path (and query) to come back to after signing in; `email`: the address to fill in. */
  signIn: (next?: string | null, email?: string) => `${p.signIn}${query({ email, next })}`,
  register: (next?: string | null) => `${p.register}${query({ next })}`,
  /** `token`: the link e-mailed to reset a forgotten password. */
  passwordReset: (token?: string) => `${p.passwordReset}${query({ token })}`,
  /** `emailToken`: the link e-mailed to confirm a new address. */
  profile: (emailToken?: string) => `${p.profile}${query({ emailToken })}`,
  addresses: () => p.addresses,
  orders: () => p.orders,
  order: (orderToken: string) => `/account/orders/${segment(orderToken)}`,
  /** With an order's line: the form to complain about that line. */
  complaints: (about?: { orderToken: string; itemId: number }) =>
    `${p.complaints}${about ? query({ order: about.orderToken, item: String(about.itemId) }) : ''}`,

  /** A content page by its slug (terms, privacy, …: the slugs are the content's). */
  page: (slug: string) => `/s/${segment(slug)}`,
  contact: () => p.contact,
  loyalty: () => p.loyalty,
  blog: () => p.blog,
  blogTag: (slug: string) => `/blog/${segment(slug)}`,
  blogPost: (slug: string) => `/blog/clanok/${segment(slug)}`,
  shippingPayment: () => p.shippingPayment,
} satisfies Partial<Record<ShopPage | 'payment', (...args: never[]) => string>>;

/** The kinds of shop page, for what is counted per page (renders, policy violations). */
export const PAGE_TYPES = ['home', 'category', 'product', 'cart', 'checkout', 'account', 'content', 'other'] as const;
export type PageType = (typeof PAGE_TYPES)[number];

const firstSegment = (pattern: string) => pattern.split('/')[1]!;
/** The page kind by a path's first segment, from the pages' patterns. */
const KIND_BY_FIRST_SEGMENT = new Map<string, PageType>([
  ...[p.category, p.brand, p.search, p.sale].map((pattern) => [firstSegment(pattern), 'category'] as const),
  [firstSegment(p.product), 'product'],
  [firstSegment(p.checkoutContact), 'checkout'],
  // The payment pages are the checkout's too.
  [firstSegment(p.paymentPending), 'checkout'],
  [firstSegment(p.signIn), 'account'],
  [firstSegment(p.page), 'content'],
  [firstSegment(p.blog), 'content'],
]);

/** The shop's page kind of a path (the shell's routes, shell/src/app/route-table.ts). */
export function pageTypeOf(path: string): PageType {
  if (path === '/' || path === '') return 'home';
  const [, first = '', second = ''] = path.split('/');
  if (`/${first}/${second}` === p.cart) return 'cart';
  return KIND_BY_FIRST_SEGMENT.get(first) ?? 'other';
}
