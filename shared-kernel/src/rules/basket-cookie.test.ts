import { describe, expect, it } from 'vitest';
import { BASKET_LIMITS } from '../contract/basket-limits.ts';
import { basketCookieText, basketCookieValue, basketFromCookies, parseBasketCookie } from './basket-cookie.ts';

describe('the basket cookie', () => {
  it('round-trips ids and amounts', () => {
    const lines = [
      { v_id: 12, amount: 2 },
      { v_id: 2_147_483_647, amount: BASKET_LIMITS.lineAmount },
    ];
    expect(parseBasketCookie(basketCookieValue(lines))).toEqual(lines);
    expect(basketFromCookies(`cookie_required=true; shop_basket=${basketCookieValue(lines)}; x=1`)).toEqual(lines);
  });

  it('reads nothing of a value that is malformed, too long or out of bounds anywhere', () => {
    for (const value of [
      '',
      '12x2.',
      '12x0',
      '0x1',
      '12x2.12x3',
      '12x10001',
      '2147483648x1',
      '12x2;7x1',
      'abc',
      '1x1'.padEnd(5000, '.1x1'),
      Array.from({ length: BASKET_LIMITS.lines + 1 }, (_, i) => `${i + 1}x1`).join('.'),
    ])
      expect(parseBasketCookie(value), value.slice(0, 40)).toEqual([]);
    expect(basketFromCookies(undefined)).toEqual([]);
    expect(basketFromCookies('shop_basket_x=1x1')).toEqual([]);
  });

  it('holds as many lines as a basket may, on the basket path only, and is removed with the last line', () => {
    const full = Array.from({ length: BASKET_LIMITS.lines }, (_, i) => ({ v_id: 2_000_000_000 + i, amount: 9_999 }));
    expect(parseBasketCookie(basketCookieValue(full))).toHaveLength(BASKET_LIMITS.lines);
    expect(basketCookieText(full, true)).toMatch(/; Path=\/checkout\/cart; SameSite=Lax; Secure$/);
    expect(basketCookieText([], false)).toBe('shop_basket=; Max-Age=0; Path=/checkout/cart; SameSite=Lax');
  });
});
