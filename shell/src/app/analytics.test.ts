// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';

const ALL = { cookie_required: true, cookie_ga: true, cookie_ads: true };
const container = () => document.head.querySelectorAll('script[data-tag-manager]');

beforeEach(() => {
  vi.resetModules();
  document.head.innerHTML = '';
  delete (window as { dataLayer?: unknown }).dataLayer;
});

describe('the tag manager loader', () => {
  it('adds the configured container after consent on a page of the shop', async () => {
    const { applyConsent, tagManagerAdded } = await import('./analytics.ts');
    applyConsent(ALL, { noConsent: false }, 'GTM-ABC123', '/c/tehly');
    expect([...container()].map((script) => script.getAttribute('src'))).toEqual(['https://www.googletagmanager.com/gtm.js?id=GTM-ABC123']);
    expect(tagManagerAdded()).toBe(true);
  });

  it('never on the basket, the checkout, the payment or account pages, however the path is spelled', async () => {
    const { applyConsent, tagManagerAdded } = await import('./analytics.ts');
    for (const path of ['/checkout/cart', '/checkout/thankyou/abc', '/payment/success', '/account/profile', '//checkout/contact'])
      applyConsent(ALL, { noConsent: false }, 'GTM-ABC123', path);
    expect(container()).toHaveLength(0);
    expect(tagManagerAdded()).toBe(false);
  });

  it('a page load that has the container loads the checkout in full, and one without it does not', async () => {
    const { applyConsent, leaveTagManagerBehind } = await import('./analytics.ts');
    const reload = vi.fn();
    expect(leaveTagManagerBehind('/checkout/cart', reload)).toBe(false);
    applyConsent(ALL, { noConsent: false }, 'GTM-ABC123', '/p/tehla');
    expect(leaveTagManagerBehind('/c/tehly', reload)).toBe(false);
    expect(reload).not.toHaveBeenCalled();
    expect(leaveTagManagerBehind('/checkout/cart', reload)).toBe(true);
    expect(leaveTagManagerBehind('/account/login', reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
