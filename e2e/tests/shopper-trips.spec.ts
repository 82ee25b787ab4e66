/**
 * What a shopper tripped over, checked on a phone and on a desktop:
 * one "od" price on every listing, and a made-up thank-you link thanks nobody.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectPageErrors, failedLoad, test, undecidedTest as undecided } from './fixtures.ts';
import { checkOut, fillBasket, findVariants, fillContact, signIn } from './checkout-helpers.ts';
import { cents } from './helpers.ts';
// The shop's own price rule (requirements R9.4), not a copy of it.
import { unitPriceWithVat } from '../../shared-kernel/src/rules/money.ts';

type Detail = { data: { p_url: string; variants: { v_sellPrice: number; v_vat: number; v_sale: number; v_availability: string }[] } };

/** The lowest current price (sale included) among a product's purchasable variants, in cents, as the product page states it. */
async function lowestPrice(request: APIRequestContext, url: string): Promise<number> {
  const { data } = (await (await request.get(`/api/product/${url}`)).json()) as Detail;
  const prices = data.variants.filter((variant) => variant.v_availability !== 'unavailable').map((variant) => unitPriceWithVat(variant));
  return Math.min(...prices) / 10;
}

async function cardsShowTheLowestPrice(page: Page, request: APIRequestContext) {
  const cards = page.getByTestId('product-card');
  await expect(cards.first()).toBeVisible();
  const count = await cards.count();
  expect(count).toBeGreaterThan(4);
  for (let index = 0; index < count; index += 1) {
    const card = cards.nth(index);
    const url = (await card.getByRole('link').first().getAttribute('href'))!.replace('/p/', '');
    const shown = cents((await card.getByTestId('price').textContent()) ?? '');
    expect(shown, url).toBe(await lowestPrice(request, url));
  }
}

for (const [device, viewport] of [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1366, height: 900 }],
] as const) {
  test.describe(device, () => {
    test.use({ viewport });

    test('every card on the sale page and the home page shows "od" the lowest current price of its purchasable variants', async ({
      page,
      request,
    }) => {
      await page.goto('/vypredaj');
      await cardsShowTheLowestPrice(page, request);
      await expect(page.getByTestId('sale-badge').first()).toHaveText(/^Zľava (až )?−\d+ %$/);
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1, name: 'Všetko pre vašu stavbu na jednom mieste' })).toBeVisible();
      await cardsShowTheLowestPrice(page, request);
    });

    test('a blank, missing or too long search term is explained in Slovak, not taken for a network failure', async ({ page }) => {
      for (const [path, message] of [
        ['/search/%20%20', 'Zadajte, čo hľadáte'],
        ['/search/', 'Zadajte, čo hľadáte'],
        [`/search/${'tehla'.repeat(41)}`, 'Hľadaný výraz je príliš dlhý. Skráťte ho na najviac 200 znakov.'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByTestId('search-problem')).toContainText(message);
        await expect(page.getByText('Hľadám…')).toHaveCount(0);
        await expect(page.getByText(/Skontrolujte pripojenie/)).toHaveCount(0);
      }
      // A long term that can be searched wraps: the page never scrolls sideways.
      await page.goto(`/search/${'porotherm'.repeat(20)}`);
      await expect(page.getByTestId('no-results')).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    });

    test('the menu hides no link without a cue: every link in sight on a desktop, a fading edge where a phone scrolls', async ({
      page,
    }) => {
      await page.goto('/');
      const menu = page.getByRole('navigation', { name: 'Kategórie' });
      await expect(menu.getByRole('link', { name: 'Kontakt' })).toBeAttached();
      const { overflowing, masked, outside } = await menu.evaluate((nav) => {
        const box = nav.getBoundingClientRect();
        const links = Array.from(nav.querySelectorAll('a'));
        return {
          overflowing: nav.scrollWidth > nav.clientWidth,
          masked: getComputedStyle(nav).maskImage !== 'none',
          outside: links
            .filter((link) => link.getBoundingClientRect().right > Math.min(box.right, window.innerWidth))
            .map((link) => link.textContent),
        };
      });
      if (device === 'desktop') {
        expect(outside).toEqual([]);
        expect(overflowing).toBe(false);
      } else {
        expect(overflowing).toBe(true);
        expect(masked).toBe(true);
      }
    });

    test('a pickup point is found by town, PSČ or position, kept in the draft, and shown on the thank-you page with grouped PSČ and phone', async ({
      page,
      request,
      context,
    }) => {
      const [variant] = await findVariants(request, 1);
      await fillBasket(page, request, [{ v_id: variant!.v_id, amount: 1 }]);
      await page.getByRole('link', { name: 'Pokračovať k údajom' }).click();
      await fillContact(page, `vydajne-${device}@example.sk`);
      await page.getByRole('button', { name: 'Pokračovať k doprave a platbe' }).click();
      await page
        .getByRole('radio', { name: /Výdajné miesto/ })
        .first()
        .check();
      const picker = page.getByTestId('pickup-point-picker');
      await expect(picker).toBeVisible();

      // Without a point the order is not sent.
      await page.getByRole('radio', { name: /Na dobierku/ }).check();
      await page.getByLabel(/Súhlasím s/).check();
      await page.getByRole('button', { name: 'Objednať s povinnosťou platby' }).click();
      await expect(page.getByRole('alert')).toHaveText('Vyberte výdajné miesto, kde si balík vyzdvihnete.');

      await picker.getByLabel('Mesto alebo PSČ').fill('kosice');
      await expect(picker.getByRole('radio')).toHaveCount(2);
      await picker.getByLabel('Mesto alebo PSČ').fill('036 01');
      await expect(picker.getByRole('radio')).toHaveCount(1);
      // The browser tells where the shopper is (Banská Bystrica): the nearest first, with distances.
      await context.grantPermissions(['geolocation']);
      await context.setGeolocation({ latitude: 48.7363, longitude: 19.1462 });
      await picker.getByRole('button', { name: 'Najbližšie ku mne' }).click();
      await expect(picker.getByRole('radio').first()).toHaveAccessibleName(/Banská Bystrica/);
      await expect(picker.getByText(/0 km/).first()).toBeVisible();
      await picker.getByRole('radio', { name: 'Výdajné miesto Zvolen' }).check();

      // Kept in the checkout draft across a reload.
      await page.reload();
      await expect(page.getByTestId('pickup-point-picker').getByRole('radio', { name: 'Výdajné miesto Zvolen' })).toBeChecked({
        timeout: 10_000,
      });
      await page.getByRole('button', { name: 'Objednať s povinnosťou platby' }).click();
      await expect(page).toHaveURL(/\/checkout\/thankyou\/[A-Za-z0-9]{32}$/);
      await expect(page.getByTestId('pickup-point')).toContainText('Výdajné miesto Zvolen, Námestie SNP 40, 960 01 Zvolen');
      await expect(page.getByText('+421 905 123 456')).toBeVisible();
      await expect(page.getByText(/Hlavná 12, 010 01 Žilina/)).toBeVisible();
    });

    test('the footer lines up with the header, and the home page’s blog posts use the page’s width without a stray dot', async ({
      page,
    }) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 2, name: 'Z blogu' })).toBeVisible();
      const lefts = await page.evaluate(() => {
        const contentLeft = (element: Element) => element.getBoundingClientRect().left + parseFloat(getComputedStyle(element).paddingLeft);
        return {
          menu: contentLeft(document.querySelector('.main-menu ul')!),
          footer: contentLeft(document.querySelector('.site-footer__inner')!),
        };
      });
      expect(Math.abs(lefts.menu - lefts.footer)).toBeLessThanOrEqual(1);
      const posts = page.locator('.cat-posts');
      await expect(posts.getByRole('link').first()).toBeVisible();
      expect(await posts.textContent()).not.toContain('·');
      const widths = await page.evaluate(() => ({
        posts: document.querySelector('.cat-posts')!.getBoundingClientRect().width,
        menu: document.querySelector('.main-menu ul')!.getBoundingClientRect().width,
      }));
      expect(widths.posts).toBeGreaterThan(widths.menu * 0.85);
    });

    test('a product the shop no longer sells is named in the basket, can be removed, and no step offers the order', async ({
      page,
      request,
    }) => {
      const [variant] = await findVariants(request, 1);
      await fillBasket(page, request, [{ v_id: variant!.v_id, amount: 1 }]);
      // The same line, as a basket kept from before the product left the range (its variant id no longer
      // exists), written from a page of the shop's origin where no shop script runs (nothing writes the basket back).
      await page.goto('/api/site');
      await page.evaluate(() => {
        const stored = JSON.parse(localStorage.getItem('cartData')!) as {
          value: { v_id: number; variantData: { v_id: number; p_name: string } }[];
        };
        const gone = {
          ...stored.value[0]!,
          v_id: 987654,
          variantData: { ...stored.value[0]!.variantData, v_id: 987654, p_name: 'Tehla zo starej ponuky' },
        };
        localStorage.setItem('cartData', JSON.stringify({ ...stored, value: [...stored.value, gone] }));
      });
      // The shop learns that the line is no longer sold from its answers: the variant is not found, the price is refused.
      const gone = 'the basket holds a variant the shop no longer sells, on purpose';
      expectPageErrors(page, failedLoad(404, '/api/product/variant/detail'), gone);
      expectPageErrors(page, failedLoad(409, '/api/checkout/quote'), gone);
      await page.goto('/checkout/cart');
      await expect(page.getByText(/Tehla zo starej ponuky \(.+\) sa už nepredáva a nedá sa objednať\./)).toBeVisible();
      await expect(page.getByRole('link', { name: 'Pokračovať k údajom' })).toHaveCount(0);
      // Straight to the last step: it names the line and offers no order.
      await page.goto('/checkout/contact');
      await fillContact(page, `stara-ponuka-${device}@example.sk`);
      await page.getByRole('button', { name: 'Pokračovať k doprave a platbe' }).click();
      await expect(page.getByTestId('unsold-lines')).toContainText('Tehla zo starej ponuky');
      await expect(page.getByRole('button', { name: 'Objednať s povinnosťou platby' })).toHaveCount(0);
      await page.getByRole('link', { name: 'Odstrániť ho v košíku' }).click();
      await page.getByRole('button', { name: 'Odstrániť z košíka' }).click();
      await expect(page.getByTestId('basket-line')).toHaveCount(1);
      await expect(page.getByRole('link', { name: 'Pokračovať k údajom' })).toBeVisible();
    });

    test('an order with nothing to pay is paid when placed; a transfer shows the IBAN in groups of four', async ({ page, request }) => {
      // The cheapest product (under 5 €) and the 5 € coupon: nothing to pay.
      const listing = (await (await request.get('/api/products?sort=price-asc')).json()) as {
        data: { variant: { v_id: number; v_availability: string; v_sellPrice: number; v_vat: number; v_sale: number } }[];
      };
      const cheap = listing.data
        .map((tile) => tile.variant)
        .find((v) => v.v_availability !== 'unavailable' && unitPriceWithVat(v as never) < 5000);
      expect(cheap, 'a product under 5 €').toBeDefined();
      await signIn(page, request);
      await fillBasket(page, request, [{ v_id: cheap!.v_id, amount: 1 }]);
      await page.getByLabel('Zľavový kupón').fill('MINUS5');
      await page.getByRole('button', { name: 'Uplatniť' }).click();
      await expect(page.getByText(/Kupón MINUS5 je uplatnený/)).toBeVisible();
      await checkOut(page, { email: null, shipping: /Osobný odber/, payment: /Bankovým prevodom/ });
      await expect(page.getByTestId('payment-status')).toHaveText('zaplatená');
      await expect(page.getByRole('img', { name: 'QR kód PAY by square' })).toHaveCount(0);

      // A transfer with something to pay: the IBAN as people read it.
      await fillBasket(page, request, [{ v_id: cheap!.v_id, amount: 10 }]);
      await checkOut(page, { email: null, shipping: /Osobný odber/, payment: /Bankovým prevodom/ });
      await expect(page.getByTestId('payment-status')).toHaveText('čaká na úhradu');
      await expect(page.getByText(/IBAN: SK\d{2}( \d{4}){5}/)).toBeVisible();
    });

    test('the basket estimate says what it is next to free pickup, and the filters say what their counts count', async ({
      page,
      request,
    }) => {
      const [variant] = await findVariants(request, 1);
      await fillBasket(page, request, [{ v_id: variant!.v_id, amount: 1 }]);
      await expect(page.getByText('Doručenie (odhad)')).toBeVisible();
      await expect(page.getByText(/sa pripočíta podľa výberu v ďalšom kroku; osobný odber na predajni v Žiline je zadarmo/)).toBeVisible();
      await page.goto('/c/hruba-stavba');
      const filters = page.getByTestId('filters');
      if (device === 'phone') await filters.locator('summary').click();
      await expect(filters.getByText(/Čísla pri hodnotách udávajú počet produktov/)).toBeVisible();
    });

    test('a blog topic and its count are apart: "Hrubá stavba (4)", not "Hrubá stavba(4)"', async ({ page }) => {
      await page.goto('/blog');
      const topic = page
        .locator('.cnt-tags a')
        .filter({ has: page.locator('.cnt-tags__count') })
        .first();
      await expect(topic).toBeVisible();
      const gap = await topic.evaluate((link) => {
        const range = document.createRange();
        range.selectNodeContents(link.firstChild!);
        return link.querySelector('.cnt-tags__count')!.getBoundingClientRect().left - range.getBoundingClientRect().right;
      });
      expect(gap).toBeGreaterThanOrEqual(3);
    });

    test('a made-up thank-you link thanks nobody: it is the not-found page, with no retry', async ({ page }) => {
      // A token of the right shape is looked up: the API does not know it.
      expectPageErrors(page, failedLoad(404, '/api/orders/'), 'the order token is made up on purpose');
      for (const token of ['vymyslene', 'A'.repeat(32)]) {
        await page.goto(`/checkout/thankyou/${token}`);
        await expect(page.getByRole('heading', { level: 1, name: 'Ospravedlňujeme sa, táto stránka neexistuje' })).toBeVisible();
        await expect(page.getByText('Ďakujeme za objednávku')).toHaveCount(0);
        await expect(page.getByRole('button', { name: /znova/i })).toHaveCount(0);
      }
    });
  });
}

for (const [device, viewport] of [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1366, height: 900 }],
] as const) {
  undecided.describe(`${device}, before the cookie choice`, () => {
    undecided.use({ viewport, locale: 'sk-SK' });

    undecided('the notice never hides a checkout button: the page keeps room below it', async ({ page, request }) => {
      const [variant] = await findVariants(request, 1);
      await fillBasket(page, request, [{ v_id: variant!.v_id, amount: 1 }]);
      const notice = page.getByRole('dialog', { name: 'Súbory cookies' }).and(page.getByTestId('consent'));
      await expect(notice).toBeVisible();
      // trial: every actionability check of a real click, the one "another element would receive the click" included.
      const toContact = page
        .getByRole('link', { name: 'Pokračovať k údajom' })
        .or(page.getByRole('button', { name: 'Pokračovať k údajom' }));
      await toContact.click({ trial: true, timeout: 5000 });
      await toContact.click();
      await fillContact(page, 'nahlad@example.sk');
      const toOrder = page.getByRole('button', { name: 'Pokračovať k doprave a platbe' });
      await toOrder.click({ trial: true, timeout: 5000 });
      await expect(notice).toBeVisible();
    });

    undecided('the settings can be left with a cancel button and with Escape', async ({ page }) => {
      await page.goto('/');
      const notice = page.getByRole('dialog', { name: 'Súbory cookies' }).and(page.getByTestId('consent'));
      await notice.getByRole('button', { name: 'Nastavenia' }).click();
      await notice.getByRole('button', { name: 'Zrušiť' }).click();
      await expect(notice.getByRole('button', { name: 'Prijať všetko' })).toBeVisible();
      await notice.getByRole('button', { name: 'Nastavenia' }).click();
      await notice.getByRole('checkbox', { name: /Analytické cookies/ }).focus();
      await page.keyboard.press('Escape');
      await expect(notice.getByRole('button', { name: 'Prijať všetko' })).toBeVisible();
      expect((await page.context().cookies()).filter((cookie) => cookie.name.startsWith('cookie_'))).toEqual([]);
    });
  });
}

/** The GA4 e-commerce events in dataLayer, in order. */
async function commerceEvents(page: Page) {
  return page.evaluate(() =>
    ((window as unknown as { dataLayer?: { event?: string; ecommerce?: Record<string, unknown> | null }[] }).dataLayer ?? [])
      .filter((entry) => entry && typeof entry === 'object' && !Array.isArray(entry) && 'ecommerce' in entry && entry.ecommerce)
      .map((entry) => ({ event: entry.event!, ecommerce: entry.ecommerce! })),
  );
}

/**
 * A journey from the sale listing to a placed order. Answers the order's number and the e-commerce
 * events of the shop's pages before the basket: the basket is a full page load when Tag Manager ran
 * before it (it never runs on the basket, the checkout or the account), so what came before is in the
 * earlier page's dataLayer.
 */
async function shopTo(page: Page, choice: 'Prijať všetko' | 'Odmietnuť všetko') {
  // No internet here: the tag manager answers with an empty script.
  const tagManagerLoads: string[] = [];
  await page.route('https://www.googletagmanager.com/**', (route) => {
    tagManagerLoads.push(page.url());
    return route.fulfill({ contentType: 'text/javascript', body: '' });
  });
  await page.goto('/vypredaj');
  await page.getByRole('dialog', { name: 'Súbory cookies' }).and(page.getByTestId('consent')).getByRole('button', { name: choice }).click();
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  await page.getByTestId('product-card').first().getByRole('link').click();
  await page.getByRole('button', { name: 'Pridať do košíka' }).click();
  await expect(page.getByTestId('basket-toast')).toContainText(/Pridané do košíka: .+ Košík spolu \d/);
  const beforeBasket = await commerceEvents(page);
  await page.getByRole('link', { name: 'Zobraziť košík' }).click();
  await page.getByRole('link', { name: 'Pokračovať k údajom' }).click();
  await fillContact(page, `analytika-${Date.now()}@example.sk`);
  await page.getByRole('button', { name: 'Pokračovať k doprave a platbe' }).click();
  await page.getByRole('radio', { name: /Kuriér/ }).check();
  await page.getByRole('radio', { name: /Na dobierku/ }).check();
  await page.getByLabel(/Súhlasím s/).check();
  await page.getByRole('button', { name: 'Objednať s povinnosťou platby' }).click();
  await expect(page).toHaveURL(/\/checkout\/thankyou\//);
  // Tag Manager was never asked for from the basket, the checkout or the thank-you page, and is not in this page.
  expect(tagManagerLoads.filter((url) => /\/checkout\//.test(new URL(url).pathname))).toEqual([]);
  await expect(page.locator('script[src*="googletagmanager"]')).toHaveCount(0);
  return { number: (await page.getByTestId('order-number').textContent())!.trim(), beforeBasket, tagManagerLoads };
}

undecided.describe('the event bus carries what happened', () => {
  undecided.use({ viewport: { width: 390, height: 844 }, locale: 'sk-SK' });

  undecided(
    'with analytics consent a whole journey becomes GA4 e-commerce events, the purchase once; Tag Manager stays off the checkout',
    async ({ page }) => {
      const { number, beforeBasket, tagManagerLoads } = await shopTo(page, 'Prijať všetko');
      // Tag Manager ran on the shop's pages before the basket.
      expect(tagManagerLoads.length).toBeGreaterThan(0);
      const before = beforeBasket.map((entry) => entry.event);
      for (const name of ['view_item_list', 'view_item', 'add_to_cart']) expect(before, name).toContain(name);
      expect(before.indexOf('view_item')).toBeLessThan(before.indexOf('add_to_cart'));
      // The checkout's events are in its own page load's dataLayer (no tag reads them there).
      const events = await commerceEvents(page);
      const names = events.map((entry) => entry.event);
      for (const name of ['begin_checkout', 'add_shipping_info', 'add_payment_info', 'purchase']) expect(names, name).toContain(name);
      expect(names.indexOf('begin_checkout')).toBeLessThan(names.indexOf('purchase'));
      expect(names.filter((name) => name === 'purchase')).toHaveLength(1);
      const purchase = events.find((entry) => entry.event === 'purchase')!.ecommerce as {
        transaction_id: string;
        value: number;
        currency: string;
        items: { item_id: string; quantity: number }[];
      };
      expect(purchase).toMatchObject({ transaction_id: number, currency: 'EUR' });
      expect(purchase.value).toBeGreaterThan(0);
      expect(purchase.items[0]).toMatchObject({ quantity: 1, item_id: expect.any(String) });
      expect((events.find((entry) => entry.event === 'add_shipping_info')!.ecommerce as { shipping_tier: string }).shipping_tier).toBe(
        'courier',
      );
    },
  );

  undecided('after "Odmietnuť všetko" no e-commerce event reaches dataLayer', async ({ page }) => {
    const { beforeBasket, tagManagerLoads } = await shopTo(page, 'Odmietnuť všetko');
    expect(beforeBasket).toEqual([]);
    expect(await commerceEvents(page)).toEqual([]);
    expect(tagManagerLoads).toEqual([]);
  });
});
