import { describe, expect, it } from 'vitest';
import { matchPath } from '../standalone/standalone-router.tsx';
import { pageTypeOf, shopPaths, shopRoutePatterns, type ShopPage } from './shop-paths.ts';

/** Each page, a path its builder writes, and the parameters its pattern reads back. */
const built: [ShopPage, string, Record<string, string>][] = [
  ['home', shopPaths.home(), {}],
  ['category', shopPaths.category('tehly'), { category: 'tehly' }],
  ['product', shopPaths.product('tehla-porotherm-30-profi'), { product: 'tehla-porotherm-30-profi' }],
  ['brand', shopPaths.brand('baumit'), { brand: 'baumit' }],
  ['sale', shopPaths.sale(), {}],
  ['search', shopPaths.search('tehla 30/ľahká'), { search: 'tehla 30/ľahká' }],
  ['searchEmpty', shopPaths.search(''), {}],
  ['cart', shopPaths.cart(), {}],
  ['checkoutContact', shopPaths.checkoutContact(), {}],
  ['checkoutOrder', shopPaths.checkoutOrder(), {}],
  ['thankYou', shopPaths.thankYou('Ab12_x'), { orderToken: 'Ab12_x' }],
  ['paymentPending', shopPaths.payment('pending', 't1'), {}],
  ['paymentSuccess', shopPaths.payment('success', 't1'), {}],
  ['paymentCancelled', shopPaths.payment('cancelled', 't1'), {}],
  ['signIn', shopPaths.signIn(), {}],
  ['register', shopPaths.register('/account/orders'), {}],
  ['passwordReset', shopPaths.passwordReset('tok'), {}],
  ['profile', shopPaths.profile(), {}],
  ['addresses', shopPaths.addresses(), {}],
  ['orders', shopPaths.orders(), {}],
  ['order', shopPaths.order('abc d'), { ordertoken: 'abc d' }],
  ['complaints', shopPaths.complaints(), {}],
  ['page', shopPaths.page('obchodne-podmienky'), { site: 'obchodne-podmienky' }],
  ['contact', shopPaths.contact(), {}],
  ['loyalty', shopPaths.loyalty(), {}],
  ['blog', shopPaths.blog(), {}],
  ['blogTag', shopPaths.blogTag('rady'), { tag: 'rady' }],
  ['blogPost', shopPaths.blogPost('ako-murovat'), { post: 'ako-murovat' }],
  ['shippingPayment', shopPaths.shippingPayment(), {}],
];

describe('shopPaths', () => {
  it('writes a path that its page pattern matches, with the same parameters back', () => {
    expect(new Set(built.map(([page]) => page))).toEqual(new Set(Object.keys(shopRoutePatterns)));
    for (const [page, path, params] of built) {
      expect(matchPath(shopRoutePatterns[page], path.split('?')[0]!), `${page}: ${path}`).toEqual(params);
    }
  });

  it('encodes slugs and tokens as one segment, the same for links, the sitemap and structured data', () => {
    expect(shopPaths.product('tehla-plna')).toBe('/p/tehla-plna');
    expect(shopPaths.product('a/b č')).toBe('/p/a%2Fb%20%C4%8D');
    expect(shopPaths.category('a?b')).toBe('/c/a%3Fb');
    expect(shopPaths.blogPost('ako-murovat')).toBe('/blog/clanok/ako-murovat');
    expect(shopPaths.search('tehla 30')).toBe('/search/tehla%2030');
    expect(shopPaths.search('')).toBe('/search/');
  });

  it('puts what comes back in the query, encoded', () => {
    expect(shopPaths.cart()).toBe('/checkout/cart');
    expect(shopPaths.signIn()).toBe('/account/login');
    expect(shopPaths.register('')).toBe('/account/register');
    expect(shopPaths.signIn(null, 'a+b@x.sk')).toBe('/account/login?email=a%2Bb%40x.sk');
    expect(shopPaths.signIn('/checkout/cart', 'a@x.sk')).toBe('/account/login?email=a%40x.sk&next=%2Fcheckout%2Fcart');
    expect(shopPaths.signIn('/account/orders?page=2')).toBe('/account/login?next=%2Faccount%2Forders%3Fpage%3D2');
    expect(shopPaths.payment('pending', 'tok')).toBe('/payment/pending?order=tok');
    expect(shopPaths.passwordReset('a+b')).toBe('/account/password-reset?token=a%2Bb');
    expect(shopPaths.profile('x')).toBe('/account/profile?emailToken=x');
    expect(shopPaths.complaints({ orderToken: 'tok', itemId: 7 })).toBe('/account/complaints?order=tok&item=7');
  });
});

describe('the page kind of a path', () => {
  it.each([
    ['/', 'home'],
    ['/c/tehly', 'category'],
    ['/b/wienerberger', 'category'],
    ['/vypredaj', 'category'],
    ['/search/tehla', 'category'],
    ['/p/tehla-plna', 'product'],
    ['/checkout/cart', 'cart'],
    ['/checkout/contact', 'checkout'],
    ['/checkout/thankyou/abc', 'checkout'],
    ['/account/profile', 'account'],
    ['/s/kontakt', 'content'],
    ['/blog/clanok/ako-murovat', 'content'],
    ['/ops', 'other'],
    ['/cesta/ktora/neexistuje', 'other'],
  ])('%s is %s', (path, type) => {
    expect(pageTypeOf(path)).toBe(type);
  });
});
