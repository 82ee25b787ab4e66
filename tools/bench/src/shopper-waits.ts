/**
 * What the shopper waits for, not the largest element (issue 52), in Debian's Chromium:
 * - soft route changes, category → product and product → basket: from the click to the frame that
 *   shows the new page's main content (the add-to-basket button; the basket's lines and continue
 *   button), and the click's INP (the longest event duration of that interaction, Event Timing API),
 *   with prefetch on intent off (`localStorage['shop:prefetch'] = 'off'`, the bench's switch) and on
 *   (the link hovered PREFETCH_LEAD_MS before the click; links in view warmed when idle), on a
 *   throttled network;
 * - until the basket's lines and continue button are there (server-rendered from the basket's
 *   cookie: readable, and the continue button a working link), until its amount buttons are live
 *   (hydrated), until the checkout steps' own controls are there (the contact step's form and its
 *   continue button; the order step's order button enabled, its price known), and until the product
 *   page's add-to-basket button is enabled, first visit (a fresh
 *   browser with the basket and its cookie as the kernel keeps them) and returning (the same browser again), with
 *   Lighthouse's mobile throttling (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up by CDP, CPU
 *   4× slower) and without; from navigation start and from the frame's first paint.
 * Medians of RUNS.
 */
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS, decidedCookies } from './chromium.ts';
import { median } from './shop-server.ts';
import { BASKET_COOKIE, BASKET_COOKIE_PATH, basketCookieValue } from '@shop/shared-kernel/rules';

export const RUNS = Number(process.env.BENCH_WAITS_RUNS ?? 5);
/** How long before the click the shopper's pointer is over the link. */
export const PREFETCH_LEAD_MS = 500;
const MOBILE_NETWORK = { offline: false, latency: 150, downloadThroughput: (1638.4 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };
const CPU_SLOWDOWN = 4;

export type RouteChange = { from: string; to: string; prefetch: 'off' | 'on'; paintMs: number; inpMs: number };
export type Usable = { page: string; visit: 'first' | 'returning'; throttled: boolean; fromNavigationMs: number; fromPaintMs: number };
export type ShopperWaits = { routeChanges: RouteChange[]; usable: Usable[]; runs: number };

type Line = { v_id: number; amount: number; variantData: unknown; isComponent: false; isRequired: false };

async function throttle(page: Page, cpu: boolean): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', MOBILE_NETWORK);
  if (cpu) await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
}

/** A shopper who decided on cookies, with a basket of `lines` and prefetching as asked, before any page runs. */
async function shopper(browser: Browser, base: string, lines: Line[], prefetch: 'off' | 'on'): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'sk-SK' });
  await context.addCookies(decidedCookies(base));
  // The basket as the kernel keeps it: the lines in storage, their ids and amounts in the basket's cookie.
  await context.addCookies([{ name: BASKET_COOKIE, value: basketCookieValue(lines), url: `${base}${BASKET_COOKIE_PATH}` }]);
  // tsx compiles this file keeping function names (`__name(…)`), also inside the functions sent to the page.
  await context.addInitScript({ content: 'window.__name = (f) => f;' });
  await context.addInitScript(
    ({ origin, value, prefetch }) => {
      if (location.origin !== origin) return;
      if (!localStorage.getItem('cartData')) localStorage.setItem('cartData', JSON.stringify({ value, expires: Date.now() + 86_400_000 }));
      // The contact step done, as the order step needs it (the checkout's draft in this tab's storage).
      if (!sessionStorage.getItem('checkoutDraft'))
        sessionStorage.setItem(
          'checkoutDraft',
          JSON.stringify({
            idempotencyKey: crypto.randomUUID(),
            contact: {
              email: 'jana@example.sk',
              phone: '0905 123 456',
              name: 'Jana Testovacia',
              billing: { street: 'Hlavná 12', city: 'Žilina', zip: '010 01' },
              company: null,
              delivery: null,
            },
          }),
        );
      localStorage.setItem('shop:prefetch', prefetch);
      // When the page's own content is usable: the basket's lines and continue button (and its live amounts), the checkout steps' controls, the enabled add-to-basket button.
      const waits: Record<string, number> = {};
      (window as unknown as { __waits: Record<string, number> }).__waits = waits;
      const check = () => {
        if (
          waits.basket === undefined &&
          document.querySelector('ul[aria-label="Položky v košíku"] li') &&
          document.querySelector('a.chk-continue')
        )
          waits.basket = performance.now();
        const more = document.querySelector<HTMLButtonElement>('ul[aria-label="Položky v košíku"] button[aria-label^="Zvýšiť množstvo"]');
        if (waits.basketLive === undefined && more && !more.disabled) waits.basketLive = performance.now();
        const buttons = Array.from(document.querySelectorAll('button'));
        const named = (text: string) => buttons.find((button) => button.textContent?.trim() === text);
        if (waits.contact === undefined && document.querySelector('input[type="email"]') && named('Pokračovať k doprave a platbe'))
          waits.contact = performance.now();
        const order = named('Objednať s povinnosťou platby');
        if (waits.order === undefined && order && !order.disabled) waits.order = performance.now();
        const add = named('Pridať do košíka');
        if (waits.product === undefined && add && !add.disabled) waits.product = performance.now();
      };
      new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
    },
    { origin: new URL(base).origin, value: lines, prefetch },
  );
  return context;
}

const firstPaint = (page: Page) => page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN);

async function usableOnce(
  browser: Browser,
  base: string,
  lines: Line[],
  target: { name: string; path: string; key: string },
  throttled: boolean,
) {
  const context = await shopper(browser, base, lines, 'on');
  const page = await context.newPage();
  const rows: Usable[] = [];
  try {
    if (throttled) await throttle(page, true);
    for (const visit of ['first', 'returning'] as const) {
      await page.goto(`${base}${target.path}`);
      await page.waitForFunction(
        (key) => (window as unknown as { __waits: Record<string, number> }).__waits[key] !== undefined,
        target.key,
        {
          timeout: 60_000,
        },
      );
      const usable = await page.evaluate((key) => (window as unknown as { __waits: Record<string, number> }).__waits[key]!, target.key);
      rows.push({ page: target.name, visit, throttled, fromNavigationMs: usable, fromPaintMs: usable - (await firstPaint(page)) });
    }
  } finally {
    await context.close();
  }
  return rows;
}

/**
 * One soft navigation: the pointer over the link (PREFETCH_LEAD_MS), the click, then the frame that
 * shows `ready` (checked every frame; the time of the frame after it appeared), and the click's INP.
 */
async function routeChangeOnce(page: Page, link: string, ready: string): Promise<{ paintMs: number; inpMs: number }> {
  await page.evaluate(() => {
    const state: { clickAt?: number; events: (PerformanceEntry & { interactionId?: number; duration: number })[] } = { events: [] };
    (window as unknown as { __route: typeof state }).__route = state;
    addEventListener('pointerdown', (event) => (state.clickAt ??= event.timeStamp), { capture: true, once: true });
    new PerformanceObserver((list) => state.events.push(...list.getEntries())).observe({
      type: 'event',
      durationThreshold: 16,
    } as PerformanceObserverInit);
  });
  const target = page.locator(link).first();
  await target.hover();
  await page.waitForTimeout(PREFETCH_LEAD_MS);
  const shown = page.evaluate(
    (selector) =>
      new Promise<number>((resolve) => {
        const frame = () => {
          const found =
            selector === 'basket'
              ? document.querySelector('a.chk-continue')
              : Array.from(document.querySelectorAll('button')).find((button) => button.textContent?.trim() === 'Pridať do košíka');
          if (found) requestAnimationFrame(() => resolve(performance.now()));
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    ready,
  );
  await target.click();
  const paintedAt = await shown;
  await page.waitForTimeout(300);
  return page.evaluate((painted) => {
    const state = (window as unknown as { __route: { clickAt: number; events: (PerformanceEntry & { interactionId?: number })[] } })
      .__route;
    const ofClick = state.events.filter((entry) => (entry.interactionId ?? 0) > 0 && entry.startTime >= state.clickAt - 1);
    return { paintMs: painted - state.clickAt, inpMs: Math.max(0, ...ofClick.map((entry) => entry.duration)) };
  }, paintedAt);
}

export async function measureShopperWaits(base: string, paths: { category: string; product: string }, line: Line): Promise<ShopperWaits> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const routeChanges: RouteChange[] = [];
    for (const prefetch of ['off', 'on'] as const) {
      for (let run = 0; run < RUNS; run += 1) {
        const context = await shopper(browser, base, [line], prefetch);
        const page = await context.newPage();
        try {
          await throttle(page, false);
          await page.goto(`${base}${paths.category}`);
          await page.getByTestId('product-card').first().waitFor();
          // The page settled (a shopper reads before choosing): its links in view are warmed when idle.
          await page.waitForLoadState('networkidle');
          const toProduct = await routeChangeOnce(page, '[data-testid="product-card"] a[href^="/p/"]', 'product');
          routeChanges.push({ from: 'category', to: 'product', prefetch, ...toProduct });
          await page.waitForLoadState('networkidle');
          const toBasket = await routeChangeOnce(page, 'a[href="/checkout/cart"]', 'basket');
          routeChanges.push({ from: 'product', to: 'basket', prefetch, ...toBasket });
        } finally {
          await context.close();
        }
      }
    }
    const usable: Usable[] = [];
    const targets = [
      { name: 'basket (1 line)', path: '/checkout/cart', key: 'basket' },
      { name: 'basket (1 line), amounts editable', path: '/checkout/cart', key: 'basketLive' },
      { name: 'checkout: contact step', path: '/checkout/contact', key: 'contact' },
      { name: 'checkout: order step', path: '/checkout/order', key: 'order' },
      { name: 'product', path: paths.product, key: 'product' },
    ];
    for (const throttled of [false, true])
      for (const target of targets)
        for (let run = 0; run < RUNS; run += 1) usable.push(...(await usableOnce(browser, base, [line], target, throttled)));
    return { routeChanges, usable, runs: RUNS };
  } finally {
    await browser.close();
  }
}

/** The section of results.md. */
export function shopperWaitsSection(waits: ShopperWaits): string[] {
  const ms = (values: number[]) => String(Math.round(median(values)));
  const changes = (from: string, to: string, prefetch: 'off' | 'on') =>
    waits.routeChanges.filter((row) => row.from === from && row.to === to && row.prefetch === prefetch);
  const usable = (page: string, visit: string, throttled: boolean) =>
    waits.usable.filter((row) => row.page === page && row.visit === visit && row.throttled === throttled);
  return [
    '## What the shopper waits for',
    '',
    `Medians of ${waits.runs}, Chromium, a 390 × 844 window, cookies decided (tools/bench/src/shopper-waits.ts). Route changes: soft navigations on a throttled ` +
      `network (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up; CPU not slowed), from the click to the frame showing the new page's main content ` +
      `(the product's add-to-basket button; the basket's continue button), and the click's INP; prefetch off (the bench's switch) and on (the pointer over the link ` +
      `${PREFETCH_LEAD_MS} ms before the click, links in view warmed when idle). Usable: the basket's line and continue button (server-rendered from the basket's cookie; ` +
      "the continue button is a link that works before the scripts), its amount buttons enabled (the page hydrated), the contact step's form and continue button, " +
      "the order step's order button enabled (its price known), the product's add-to-basket button enabled, " +
      'from navigation start and from the first contentful paint (the server-rendered frame; negative: in the HTML, there before the paint); mobile: that network and the CPU 4× slower.',
    '',
    '| route change | prefetch off: content ms | INP ms | prefetch on: content ms | INP ms |',
    '|---|---:|---:|---:|---:|',
    ...(
      [
        ['category', 'product'],
        ['product', 'basket'],
      ] as const
    ).map(([from, to]) => {
      const off = changes(from, to, 'off');
      const on = changes(from, to, 'on');
      return `| ${from} → ${to} | ${ms(off.map((r) => r.paintMs))} | ${ms(off.map((r) => r.inpMs))} | ${ms(on.map((r) => r.paintMs))} | ${ms(on.map((r) => r.inpMs))} |`;
    }),
    '',
    '| page | visit | unthrottled: from navigation ms | from paint ms | mobile: from navigation ms | from paint ms |',
    '|---|---|---:|---:|---:|---:|',
    // The pages in the order they were measured (measureShopperWaits's targets).
    ...[...new Set(waits.usable.map((row) => row.page))].flatMap((page) =>
      (['first', 'returning'] as const).map((visit) => {
        const fast = usable(page, visit, false);
        const slow = usable(page, visit, true);
        return `| ${page} | ${visit} | ${ms(fast.map((r) => r.fromNavigationMs))} | ${ms(fast.map((r) => r.fromPaintMs))} | ${ms(slow.map((r) => r.fromNavigationMs))} | ${ms(slow.map((r) => r.fromPaintMs))} |`;
      }),
    ),
    '',
  ];
}

/** The category, product and basket line the measurements use, from the running shop. */
export async function shopperWaitsInputs(base: string): Promise<{ paths: { category: string; product: string }; line: Line }> {
  const home = (await (await fetch(`${base}/api/home`)).json()) as {
    data: { categories: { cat_url: string }[]; newest: { p_url: string }[] };
  };
  for (let v_id = 1; v_id < 200; v_id += 1) {
    const answer = await fetch(`${base}/api/product/variant/detail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ v_id }),
    });
    if (!answer.ok) continue;
    const { data } = (await answer.json()) as { data: { v_availability: string } };
    if (data.v_availability !== 'in_stock') continue;
    return {
      paths: { category: `/c/${home.data.categories[0]!.cat_url}`, product: `/p/${home.data.newest[0]!.p_url}` },
      line: { v_id, amount: 1, variantData: data, isComponent: false, isRequired: false },
    };
  }
  throw new Error('no product in stock for the basket');
}
