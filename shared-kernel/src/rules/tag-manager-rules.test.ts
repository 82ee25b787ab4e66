import { describe, expect, it } from 'vitest';
import { tagManagerMayRun } from './consent-rules.ts';

describe('tagManagerMayRun', () => {
  it('never on the basket, the checkout, the payment pages, the account or the operators’ page', () => {
    for (const path of [
      '/checkout/cart',
      '/checkout/contact',
      '/checkout/thankyou/abc',
      '/checkout',
      '/payment/success',
      '/account/login',
      '/account',
      '/ops',
    ])
      expect(tagManagerMayRun(path), path).toBe(false);
  });

  it('however the path is spelled', () => {
    for (const path of [
      '//checkout/cart',
      '/./checkout/cart',
      '/x/../account/profile',
      '/%63heckout/cart',
      '/Checkout/Cart',
      '\\checkout',
      '/%E0%A4%A',
    ])
      expect(tagManagerMayRun(path), path).toBe(false);
  });

  it('on the rest of the shop', () => {
    for (const path of ['/', '/c/tehly', '/p/tehla-plna', '/blog', '/s/kontakt', '/checkoutovy-clanok', '/accounting'])
      expect(tagManagerMayRun(path), path).toBe(true);
  });
});
