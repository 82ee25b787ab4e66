import { test as base, expect, type Page } from '@playwright/test';
import { SHOP_PORT } from '../playwright.config.ts';

/**
 * After a full page load, waits until the page is interactive (`<html data-interactive>`, set
 * once the shell has hydrated the server's HTML or rendered the page): a click before that is a
 * plain link's full page load, not the shop's navigation. Pages without JavaScript never set it.
 */
async function untilInteractive(page: Page, javaScriptEnabled: boolean): Promise<void> {
  if (!javaScriptEnabled) return;
  await page
    .locator('html[data-interactive]')
    .waitFor({ state: 'attached', timeout: 5_000 })
    .catch(() => undefined);
}

/**
 * The policy violations a test provokes on purpose (an injected script the policy must block):
 * `test.use({ expectedCspViolations: [/Refused to execute inline event handler/] })` in that test's
 * describe block. Each must occur; any other violation still fails the test.
 */
export type CspExpectations = { expectedCspViolations: RegExp[] };

/** A visitor who has not answered the cookie notice yet; every navigation waits until the page is interactive. */
export const undecidedTest = base.extend<CspExpectations>({
  expectedCspViolations: [[], { option: true }],
  page: async ({ page, javaScriptEnabled, expectedCspViolations }, use) => {
    // Every script the shop runs is one its Content-Security-Policy admits: a violation fails the test.
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
    });
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      await untilInteractive(page, javaScriptEnabled);
      return response;
    };
    page.reload = async (options) => {
      const response = await reload(options);
      await untilInteractive(page, javaScriptEnabled);
      return response;
    };
    await use(page);
    const expected = (violation: string) => expectedCspViolations.some((pattern) => pattern.test(violation));
    expect(
      violations.filter((violation) => !expected(violation)),
      'Content-Security-Policy violations',
    ).toEqual([]);
    for (const pattern of expectedCspViolations)
      expect(
        violations.some((violation) => pattern.test(violation)),
        `the expected violation ${pattern}`,
      ).toBe(true);
  },
});

/** A shopper who already answered the cookie notice (rejected all), so it does not cover the page. */
export const test = undecidedTest.extend({
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

export { expect };
