import { afterEach, describe, expect, it, vi } from 'vitest';
import { AREAS } from '@shop/shared-kernel/contract';

const runtime = vi.hoisted(() => ({ loadRemote: vi.fn(), registerRemotes: vi.fn() }));
vi.mock('@module-federation/runtime', () => runtime);

const { registerAreas } = await import('./area-loader.ts');
const { installLinkPreloading, PRELOAD_CONCURRENCY } = await import('./preload.ts');
const { setRouteTable } = await import('../app/route-table.ts');

/** The pages the areas ship, as their builds declare them. */
const routes = {
  catalog: [
    { name: 'home', path: '/', module: './HomePage', layout: 'default' },
    { name: 'category', path: '/c/:category', module: './CategoryPage', layout: 'default' },
    { name: 'product', path: '/p/:product', module: './ProductPage', layout: 'default' },
    { name: 'sale', path: '/vypredaj', module: './SalePage', layout: 'default' },
  ],
  checkout: [{ name: 'checkout-cart', path: '/checkout/cart', module: './CartPage', layout: 'checkout' }],
  content: [
    { name: 'contact', path: '/s/kontakt', module: './ContactPage', layout: 'default' },
    { name: 'blog', path: '/blog', module: './BlogPage', layout: 'default' },
  ],
  account: [],
} as const;

afterEach(() => {
  document.body.innerHTML = '';
});

describe('link preloading', () => {
  it('loads the target route’s area module on hover or focus, at most 4 at once, each once', async () => {
    const releases = Object.fromEntries(
      AREAS.map((area) => [
        area,
        { version: '1', entry: `remotes/${area}/1/remoteEntry.js`, kernel: '3.0.0', exposes: [], routes: [...routes[area]] },
      ]),
    );
    registerAreas(releases, 'http://assets.test');
    setRouteTable(releases);
    const pending: (() => void)[] = [];
    runtime.loadRemote.mockImplementation(() => new Promise((resolve) => pending.push(() => resolve({ default: () => null }))));
    const paths = ['/', '/c/tehly', '/p/tehla', '/vypredaj', '/checkout/cart', '/s/kontakt', '/blog'];
    document.body.innerHTML = paths.map((path) => `<a href="${path}">${path}</a>`).join('');
    const uninstall = installLinkPreloading();

    const links = [...document.querySelectorAll('a')];
    links.forEach((link) => link.dispatchEvent(new MouseEvent('mouseover', { bubbles: true })));
    links[1]!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(runtime.loadRemote).toHaveBeenCalledTimes(PRELOAD_CONCURRENCY);
    expect(PRELOAD_CONCURRENCY).toBe(4);

    pending.shift()!();
    await vi.waitFor(() => expect(runtime.loadRemote).toHaveBeenCalledTimes(5));
    while (pending.length) {
      pending.shift()!();
      await Promise.resolve();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(runtime.loadRemote.mock.calls.map(([key]) => key)).toEqual([
      'catalog/HomePage',
      'catalog/CategoryPage',
      'catalog/ProductPage',
      'catalog/SalePage',
      'checkout/CartPage',
      'content/ContactPage',
      'content/BlogPage',
    ]);
    uninstall();
  });
});
