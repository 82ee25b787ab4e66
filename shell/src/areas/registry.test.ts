import { describe, expect, it } from 'vitest';
import { chooseReleases, type Registry } from './registry.ts';
import { canaryBucket } from './canary-bucket.ts';
import { routeForPath, setRouteTable, shopRoutes } from '../app/route-table.ts';

const release = (version: string, routes: NonNullable<Registry['areas']['checkout']>['routes'] = []) => ({
  version,
  entry: `remotes/checkout/${version}/remoteEntry.js`,
  kernel: '3.0.0',
  exposes: ['./CartPage', './GiftPage'],
  routes,
});

const cart = { name: 'checkout-cart', path: '/checkout/cart', module: './CartPage', layout: 'checkout' as const };
const gift = { name: 'gift', path: '/darcekove-poukazky', module: './GiftPage', layout: 'default' as const, noConsent: true };

describe('the releases a page load uses', () => {
  const registry: Registry = {
    revision: 'r',
    areas: { checkout: release('1.0.0-a', [cart]) },
    canaries: { checkout: { ...release('1.1.0-b', [cart, gift]), share: 10 } },
  };

  it('are the canary below its share and the stable version from it on, with the pages of the version chosen', () => {
    expect(chooseReleases(registry, 9).checkout!.version).toBe('1.1.0-b');
    expect(chooseReleases(registry, 10).checkout!.version).toBe('1.0.0-a');
    expect(chooseReleases({ revision: 'r', areas: registry.areas }, 0).checkout!.version).toBe('1.0.0-a');

    setRouteTable(chooseReleases(registry, 9));
    expect(routeForPath('/darcekove-poukazky')).toMatchObject({ area: 'checkout', module: './GiftPage', noConsent: true });
    setRouteTable(chooseReleases(registry, 50));
    expect(routeForPath('/darcekove-poukazky')).toBeUndefined();
    expect(routeForPath('/checkout/cart')?.name).toBe('checkout-cart');
  });

  it('leave out a route with a layout this shell does not have', () => {
    setRouteTable({ checkout: release('1.0.0-a', [cart, { ...gift, layout: 'fullscreen' as never }]) });
    expect(shopRoutes().map((route) => route.name)).toEqual(['checkout-cart']);
  });
});

describe('the canary bucket', () => {
  it('is drawn once and kept, and a kept value out of range is drawn again', () => {
    const kept = new Map<string, string>();
    const storage = { getItem: (key: string) => kept.get(key) ?? null, setItem: (key: string, value: string) => void kept.set(key, value) };
    expect(canaryBucket(storage, () => 0.424, '')).toBe(42);
    expect(canaryBucket(storage, () => 0.99, '')).toBe(42);
    kept.set('shop:canary-bucket', '250');
    expect(canaryBucket(storage, () => 0.07, '')).toBe(7);
    expect(canaryBucket(null, () => 0.5, '')).toBe(50);
  });

  it('storage decides; without it the cookie the server renders by is taken, and the cookie mirrors what is chosen', () => {
    const kept = new Map<string, string>();
    const storage = { getItem: (key: string) => kept.get(key) ?? null, setItem: (key: string, value: string) => void kept.set(key, value) };
    expect(canaryBucket(storage, () => 0.9, 'cookie_required=true; shop_canary=63')).toBe(63);
    expect(kept.get('shop:canary-bucket')).toBe('63');
    expect(canaryBucket(storage, () => 0.9, 'shop_canary=12')).toBe(63);
    expect(document.cookie).toContain('shop_canary=63');
  });

  it('over https the cookie is __Host-shop_canary: a plain one (another host of the domain could set it) is not read', () => {
    expect(canaryBucket(null, () => 0.9, 'shop_canary=12', true)).toBe(90);
    expect(canaryBucket(null, () => 0.9, 'shop_canary=12; __Host-shop_canary=34', true)).toBe(34);
  });
});
