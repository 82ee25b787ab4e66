import { describe, expect, it } from 'vitest';
import { leavesShop, redirectKey, redirectTable, resolveRedirect, safeRedirectTarget } from './redirect-rules.ts';

describe('stored redirects', () => {
  it('match a path without its query, fragment, trailing slashes or percent-encoding', () => {
    expect(redirectKey('/akcia/')).toBe('/akcia');
    expect(redirectKey('/akcia?page=2#top')).toBe('/akcia');
    expect(redirectKey('/%C5%A1trk')).toBe('/štrk');
    expect(redirectKey('/')).toBe('/');
    expect(redirectKey('//evil.example/x')).toBeNull();
    expect(redirectKey('akcia')).toBeNull();
  });

  it('follow only paths of the shop and absolute http(s) URLs an operator set', () => {
    expect(safeRedirectTarget('/c/tehly')).toBe('/c/tehly');
    expect(safeRedirectTarget('/vypredaj?zlava=1')).toBe('/vypredaj?zlava=1');
    expect(safeRedirectTarget('/štrk')).toBe('/%C5%A1trk');
    expect(safeRedirectTarget('https://www.example.sk/katalog')).toBe('https://www.example.sk/katalog');
    for (const unsafe of [
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      'evil.example',
      'https://user:pw@evil.example/',
      '/a b',
      '',
    ]) {
      expect(safeRedirectTarget(unsafe), unsafe).toBeNull();
    }
  });

  it('send a visitor to the end of a chain, never round a loop, and leave unsafe entries out', () => {
    const table = redirectTable([
      { old_url: '/a', new_url: '/b/' },
      { old_url: '/b', new_url: '/c' },
      { old_url: '/x/', new_url: 'https://www.example.sk/x' },
      { old_url: '/loop-1', new_url: '/loop-2' },
      { old_url: '/loop-2', new_url: '/loop-1' },
      { old_url: '/self', new_url: '/self/' },
      { old_url: '/open', new_url: '//evil.example' },
      { old_url: '/with?query=1', new_url: '/c' },
    ]);
    expect(resolveRedirect(table, '/a?utm=x')).toBe('/c');
    expect(resolveRedirect(table, '/b')).toBe('/c');
    expect(resolveRedirect(table, '/x')).toBe('https://www.example.sk/x');
    expect(resolveRedirect(table, '/c')).toBeNull();
    expect(resolveRedirect(table, '/loop-1')).toBeNull();
    expect(resolveRedirect(table, '/self')).toBeNull();
    expect(resolveRedirect(table, '/open')).toBeNull();
    expect(resolveRedirect(table, '/with')).toBeNull();
  });

  it('never take a checkout, payment or account address out of the shop, directly or down a chain', () => {
    const table = redirectTable([
      { old_url: '/checkout/cart', new_url: 'https://pay-example.org/kosik' },
      { old_url: '/account/login', new_url: '/stara-prihlasovacia' },
      { old_url: '/stara-prihlasovacia', new_url: 'https://evil.example/login' },
      { old_url: '/checkout/stary-kosik', new_url: '/checkout/cart' },
      { old_url: '/payment/old', new_url: '/akcia' },
    ]);
    // Stored before the rule, such rows are never followed out of the shop.
    expect(resolveRedirect(table, '/checkout/cart')).toBeNull();
    expect(resolveRedirect(table, '/account/login')).toBeNull();
    expect(resolveRedirect(table, '/stara-prihlasovacia')).toBe('https://evil.example/login');
    expect(resolveRedirect(table, '/checkout/stary-kosik')).toBe('/checkout/cart');
    expect(resolveRedirect(table, '/payment/old')).toBe('/akcia');

    const clean = redirectTable([{ old_url: '/account/stare', new_url: '/presunute' }]);
    expect(leavesShop(clean, '/checkout/cart', 'https://pay-example.org/kosik')).toBe(true);
    expect(leavesShop(clean, '/account', 'https://pay-example.org/')).toBe(true);
    expect(leavesShop(clean, '/checkout/cart', '/checkout/novy-kosik')).toBe(false);
    // The new row would lead an account address, down the chain, to another site.
    expect(leavesShop(clean, '/presunute', 'https://evil.example/')).toBe(true);
    expect(leavesShop(clean, '/akcia', 'https://www.example.sk/akcia')).toBe(false);
  });
});
