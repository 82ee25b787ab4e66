import { test as base, expect, type Browser, type BrowserContext, type Page, type Response } from '@playwright/test';
import { SHOP_PORT } from '../playwright.config.ts';

/**
 * After a full page load of a shop page, waits until it is interactive (`<html data-interactive>`,
 * set once the shell has hydrated the server's HTML or rendered the page): a click before that is
 * a plain link's full page load, not the shop's navigation. Hydration on a loaded machine can take
 * seconds, so the wait is long while the shell is booting (its `shop:boot` mark); a page whose shell
 * never started within 5 s (its scripts blocked on purpose), other origins (the operator console, a
 * test's own pages), answers that are not HTML and pages without JavaScript are not waited for.
 */
async function untilInteractive(page: Page, javaScriptEnabled: boolean, response: Response | null): Promise<void> {
  if (!javaScriptEnabled || new URL(page.url()).port !== String(SHOP_PORT)) return;
  if (response && !(response.headers()['content-type'] ?? '').startsWith('text/html')) return;
  const interactive = await page
    .waitForFunction(
      () =>
        document.documentElement.hasAttribute('data-interactive') ||
        (performance.now() > 5_000 && performance.getEntriesByName('shop:boot').length === 0),
      null,
      { timeout: 20_000, polling: 100 },
    )
    .then(() => page.evaluate(() => document.documentElement.hasAttribute('data-interactive')))
    .catch(() => false);
  if (!interactive) console.log(`[fixtures] ${page.url()} did not become interactive`);
}

/**
 * What the browser says of a policy violation: its console message for a blocked load or inline
 * script, a Trusted Types refusal ("This document requires 'TrustedHTML' assignment", "[Report Only]"
 * first when only reported), and the line VIOLATION_LISTENER writes for every violation event.
 */
const CSP_MESSAGE = /Content Security Policy|requires 'Trusted\w+' assignment|Trusted ?Types?/i;

/**
 * In every frame of every page from its first script on: each `securitypolicyviolation` event, the
 * enforced and the report-only ones alike (Chromium logs nothing to the console for some of the
 * latter), Trusted Types included, written as a console line the guard collects.
 */
function VIOLATION_LISTENER() {
  document.addEventListener(
    'securitypolicyviolation',
    (event) => {
      const blocked = event.blockedURI || 'inline';
      const where = event.sourceFile ? ` at ${event.sourceFile}:${event.lineNumber}` : '';
      console.warn(
        `Content Security Policy violation (${event.disposition}): ${event.effectiveDirective} blocked ${blocked}${where}` +
          (event.sample ? ` sample "${event.sample}"` : ''),
      );
    },
    { capture: true },
  );
}

/** One uncaught exception or console error a page of the test met. */
type PageProblem = { page: Page; text: string };
type Expectation = { page: Page; pattern: RegExp; reason: string };

/**
 * What every page of the running test reported: the fixture's context, pages a test opens in it,
 * and contexts a test opens itself with `browser.newContext()`/`browser.newPage()`. One test runs
 * at a time in a worker, so the collector of the running test is a module variable.
 */
class PageErrorGuard {
  readonly problems: PageProblem[] = [];
  readonly cspViolations: string[] = [];
  readonly expectations: Expectation[] = [];
  private readonly watched = new WeakSet<Page>();
  private readonly listening = new WeakSet<BrowserContext>();

  async watchContext(context: BrowserContext): Promise<void> {
    await this.listen(context);
    for (const page of context.pages()) await this.watchPage(page);
    context.on('page', (page) => void this.watchPage(page));
  }

  /** Every page of the context reports each violation event, report-only ones too (VIOLATION_LISTENER), from its next document on. */
  private async listen(context: BrowserContext): Promise<void> {
    if (this.listening.has(context)) return;
    this.listening.add(context);
    await context.addInitScript(VIOLATION_LISTENER);
  }

  async watchPage(page: Page): Promise<void> {
    if (this.watched.has(page)) return;
    this.watched.add(page);
    page.on('pageerror', (error) => {
      this.problems.push({ page, text: `${page.url()}: uncaught ${error.name}: ${error.message}` });
    });
    page.on('console', (message) => {
      const text = message.text();
      if (CSP_MESSAGE.test(text)) {
        this.cspViolations.push(`${page.url()}: ${text}`);
        return;
      }
      if (message.type() !== 'error') return;
      // A failed request is logged without its address: the location names it.
      const source = message.location().url;
      this.problems.push({ page, text: `${page.url()}: console error: ${text}${source && !text.includes(source) ? ` (${source})` : ''}` });
    });
    await this.listen(page.context());
  }

  unexpected(): string[] {
    return this.problems
      .filter((problem) => !this.expectations.some((expected) => expected.page === problem.page && expected.pattern.test(problem.text)))
      .map((problem) => problem.text);
  }
}

let running: PageErrorGuard | undefined;

/**
 * Declares a page error a test causes on purpose, next to where it causes it, with the reason:
 * `expectPageErrors(page, /cart-page-.*\.js/, 'the integrity test tampers a chunk, so its load fails')`.
 * Uncaught exceptions and console errors on `page` that match the pattern do not fail the test;
 * every other one does. The reason is required: there is no blanket opt-out.
 */
export function expectPageErrors(page: Page, pattern: RegExp, reason: string): void {
  if (!running) throw new Error('expectPageErrors is called inside a test that uses the fixtures');
  if (reason.trim().length < 10) throw new Error('expectPageErrors needs the reason the error is expected');
  running.expectations.push({ page, pattern, reason });
}

/**
 * The browser's console error for a request of `address` (a path or a whole URL, matched as text)
 * answered with `status`: `failedLoad(404, '/toto-neexistuje')`.
 */
export function failedLoad(status: number, address: string | RegExp): RegExp {
  const escaped = typeof address === 'string' ? address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : address.source;
  return new RegExp(`status of ${status} .*\\(https?://[^)]*${escaped}[^)]*\\)`);
}

/**
 * The policy violations a test provokes on purpose (an injected script the policy must block):
 * `test.use({ expectedCspViolations: [/Refused to execute inline event handler/] })` in that test's
 * describe block. Each must occur; any other violation still fails the test.
 */
export type CspExpectations = { expectedCspViolations: RegExp[] };
type Guard = { pageErrorGuard: PageErrorGuard };

/** Makes the contexts and pages a test opens from the browser itself reported to the guard, for that test. */
function watchBrowser(browser: Browser, guard: PageErrorGuard): () => void {
  const newContext = browser.newContext;
  const newPage = browser.newPage;
  browser.newContext = async (...args) => {
    const context = await newContext.apply(browser, args);
    await guard.watchContext(context);
    return context;
  };
  browser.newPage = async (...args) => {
    const page = await newPage.apply(browser, args);
    await guard.watchPage(page);
    return page;
  };
  return () => {
    browser.newContext = newContext;
    browser.newPage = newPage;
  };
}

/** A visitor who has not answered the cookie notice yet; every navigation waits until the page is interactive. */
export const undecidedTest = base.extend<CspExpectations & Guard>({
  expectedCspViolations: [[], { option: true }],
  // Every page of every test: an uncaught exception or a console error nobody declared fails the test,
  // and so does a Content-Security-Policy violation (every script the shop runs is one its policy admits).
  pageErrorGuard: [
    async ({ browser, expectedCspViolations }, use) => {
      const guard = new PageErrorGuard();
      running = guard;
      const unwatch = watchBrowser(browser, guard);
      try {
        await use(guard);
      } finally {
        unwatch();
        running = undefined;
      }
      const expected = (violation: string) => expectedCspViolations.some((pattern) => pattern.test(violation));
      expect(
        guard.cspViolations.filter((violation) => !expected(violation)),
        'Content-Security-Policy violations',
      ).toEqual([]);
      for (const pattern of expectedCspViolations)
        expect(
          guard.cspViolations.some((violation) => pattern.test(violation)),
          `the expected violation ${pattern}`,
        ).toBe(true);
      expect(guard.unexpected(), 'page errors nobody expected (declare one the test causes with expectPageErrors)').toEqual([]);
    },
    { auto: true },
  ],
  context: async ({ context, pageErrorGuard }, use) => {
    await pageErrorGuard.watchContext(context);
    await use(context);
  },
  page: async ({ page, javaScriptEnabled }, use) => {
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      await untilInteractive(page, javaScriptEnabled, response);
      return response;
    };
    page.reload = async (options) => {
      const response = await reload(options);
      await untilInteractive(page, javaScriptEnabled, response);
      return response;
    };
    await use(page);
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
