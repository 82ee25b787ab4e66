import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { findVariants } from './checkout-helpers.ts';
import { SHOP_PORT } from '../playwright.config.ts';

/**
 * What the shopper waits for on the basket: its lines and the continue button, not the frame the
 * server renders around them. The first visit has the basket in storage only (a basket from before
 * its cookie): the lines come after hydration, and the checkout area starts loading with the page (at
 * the shell's boot, its files preloaded with the shell's), not when hydration first reaches it. By
 * the returning visit the kernel has mirrored the basket into its cookie: the lines come with the HTML
 * (basket-server-render.spec.ts).
 */
const shopOrigin = `http://localhost:${SHOP_PORT}`;
/** A returning shopper's basket is usable within this long of the frame's paint (the target is 300 ms; a loaded test machine gets room). */
const USABLE_AFTER_PAINT_MS = 1000;

type Waits = { paint: number; usable: number; areaLoad: number; render: number };

/** Puts a basket into this browser's storage before any page runs, so the first visit finds it (no page of the shop opened before). */
async function storedBasket(context: BrowserContext, lines: unknown[]) {
  await context.addInitScript(
    ({ origin, value }) => {
      if (location.origin === origin && !localStorage.getItem('cartData'))
        localStorage.setItem('cartData', JSON.stringify({ value, expires: Date.now() + 86_400_000 }));
      // When the frame was painted, and when the lines and the continue button were there to use.
      const seen: Partial<Waits> = {};
      (window as unknown as { __waits: Partial<Waits> }).__waits = seen;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntriesByName('first-contentful-paint')) seen.paint ??= entry.startTime;
      }).observe({ type: 'paint', buffered: true });
      new MutationObserver(() => {
        if (seen.usable !== undefined) return;
        const line = document.querySelector('ul[aria-label="Položky v košíku"] li');
        const next = document.querySelector('a.chk-continue');
        if (line && next) seen.usable = performance.now();
      }).observe(document, { childList: true, subtree: true });
    },
    { origin: shopOrigin, value: lines },
  );
}

async function waitsOf(page: Page): Promise<Waits> {
  await expect(page.getByRole('link', { name: 'Pokračovať k údajom' })).toBeVisible();
  // Returning, the lines come with the page's HTML (the basket's cookie): the shell's marks come after it.
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-interactive'));
  await expect(page.getByRole('list', { name: 'Položky v košíku' }).getByRole('listitem')).toHaveCount(1);
  return page.evaluate(() => {
    const seen = (window as unknown as { __waits: Waits }).__waits;
    const mark = (name: string) => performance.getEntriesByName(name, 'mark')[0]?.startTime ?? Number.NaN;
    // The shell's marks: when the page's area module was asked for, and when React began to render the page.
    return { ...seen, areaLoad: mark('shop:area-load:checkout/CartPage'), render: mark('shop:render') };
  });
}

test('the basket’s lines and continue button are usable soon after the frame’s paint, on a first visit and returning', async ({
  browser,
  request,
}) => {
  const [variant] = await findVariants(request, 1);
  const detail = (await (await request.post('/api/product/variant/detail', { data: { v_id: variant!.v_id } })).json()) as { data: unknown };
  const context = await browser.newContext({ baseURL: shopOrigin });
  await storedBasket(context, [{ v_id: variant!.v_id, amount: 1, variantData: detail.data, isComponent: false, isRequired: false }]);
  const page = await context.newPage();
  try {
    for (const visit of ['first', 'returning']) {
      await page.goto('/checkout/cart');
      const waits = await waitsOf(page);
      test.info().annotations.push({ type: `${visit} visit (ms after navigation start)`, description: JSON.stringify(waits) });
      expect(waits.paint, `${visit}: the frame painted`).toBeGreaterThan(0);
      // The checkout's page module is asked for during the shell's boot, before React renders the page.
      expect(waits.areaLoad, `${visit}: page module asked for before the page renders`).toBeLessThan(waits.render);
      // A first visit waits for the scripts' download too (the bench measures it with and without throttling).
      if (visit === 'returning')
        expect(waits.usable - waits.paint, `${visit}: usable after the frame's paint`).toBeLessThan(USABLE_AFTER_PAINT_MS);
    }
  } finally {
    await context.close();
  }
});
