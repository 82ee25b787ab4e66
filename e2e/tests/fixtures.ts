import { test as base } from '@playwright/test';
import { SHOP_PORT } from '../playwright.config.ts';

/** A shopper who already answered the cookie notice (rejected all), so it does not cover the page. */
export const test = base.extend({
  context: async ({ context }, use) => {
    const url = `http://localhost:${SHOP_PORT}`;
    await context.addCookies(
      ['cookie_required=true', 'cookie_ga=false', 'cookie_ads=false'].map((pair) => {
        const [name, value] = pair.split('=') as [string, string];
        return { name, value, url };
      }),
    );
    await use(context);
  },
});

export { expect } from '@playwright/test';
