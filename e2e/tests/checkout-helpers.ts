import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { operatorSession, opsPost, type SignedIn } from './operator.ts';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_DATA_DIR } from '../playwright.config.ts';

export type Variant = {
  v_id: number;
  v_sellPrice: number;
  v_vat: number;
  v_sale: number;
  v_stock: number;
  v_availability: string;
  v_weight: number;
  p_name: string;
  p_url: string;
};

/** In-stock variants with enough pieces and at most `maxWeight` grams, from the variant call (requirements R7.4). */
export async function findVariants(request: APIRequestContext, count: number, maxWeight = 2_000): Promise<Variant[]> {
  const found: Variant[] = [];
  for (let v_id = 1; v_id < 400 && found.length < count; v_id++) {
    const res = await request.post('/api/product/variant/detail', { data: { v_id } });
    if (!res.ok()) continue;
    const { data } = (await res.json()) as { data: Variant };
    if (data.v_availability === 'in_stock' && data.v_stock >= 30 && data.v_weight > 0 && data.v_weight <= maxWeight) found.push(data);
  }
  if (found.length < count) throw new Error('not enough light variants in stock');
  return found;
}

/** Puts lines into the stored basket (cartData) of the shop's origin and opens the basket. */
export async function fillBasket(page: Page, request: APIRequestContext, lines: { v_id: number; amount: number }[]) {
  const full = await Promise.all(
    lines.map(async (line) => {
      const res = await request.post('/api/product/variant/detail', { data: { v_id: line.v_id } });
      const { data } = (await res.json()) as { data: unknown };
      return { v_id: line.v_id, amount: line.amount, variantData: data, isComponent: false, isRequired: false };
    }),
  );
  await page.goto('/');
  await page.evaluate((value) => {
    localStorage.setItem('cartData', JSON.stringify({ value, expires: Date.now() + 86_400_000 }));
  }, full);
  await page.goto('/checkout/cart');
}

/**
 * Signs in through the API as the page's sign-in does: the page's own request context shares the
 * browser's cookies, so the HttpOnly session cookie the API sets lands in this browser; the page
 * keeps what the auth store keeps (who, until when; no token). `_request` (a context without the
 * browser's cookies) is not used for it.
 */
export async function signIn(page: Page, _request: APIRequestContext, email = 'zakaznik@example.sk', password = 'Heslo123!') {
  const res = await page.request.post('/api/account/login', { data: { email, password } });
  expect(res.status()).toBe(200);
  const { data } = (await res.json()) as { data: { user: { id: number; name: string; email: string }; expiresAt: string } };
  await page.goto('/');
  await page.evaluate((state) => localStorage.setItem('auth', JSON.stringify(state)), {
    auth: 1,
    user: data.user,
    expiresAt: Date.parse(data.expiresAt),
  });
}

export async function fillContact(page: Page, email: string, prefilled = false) {
  if (!prefilled) {
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByLabel('Meno a priezvisko', { exact: true }).fill('Jana Testovacia');
  }
  await page.getByLabel('Telefón', { exact: true }).fill('0905 123 456');
  await page.getByLabel('Ulica a číslo', { exact: true }).fill('Hlavná 12');
  await page.getByLabel('Mesto', { exact: true }).fill('Žilina');
  await page.getByLabel('PSČ', { exact: true }).fill('010 01');
}

/**
 * From the basket page to the thank-you page: contact (`email`, or the signed-in shopper's prefilled
 * details when null), the shipping and payment named, the terms accepted, the order placed.
 */
export async function checkOut(page: Page, options: { email: string | null; shipping: RegExp; payment: RegExp }) {
  await page.getByRole('link', { name: 'Pokračovať k údajom' }).click();
  await fillContact(page, options.email ?? '', options.email === null);
  await page.getByRole('button', { name: 'Pokračovať k doprave a platbe' }).click();
  await page.getByRole('radio', { name: options.shipping }).check();
  await page.getByRole('radio', { name: options.payment }).check();
  await page.getByLabel(/Súhlasím s/).check();
  await page.getByRole('button', { name: 'Objednať s povinnosťou platby' }).click();
  await expect(page).toHaveURL(/\/checkout\/thankyou\/[A-Za-z0-9]{32}$/);
}

/** The .eml files of the e2e server's outbox that contain `text`. */
export function outboxMails(text: string): string[] {
  const dir = join(E2E_DATA_DIR, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  return files.map((f) => readFileSync(join(dir, f), 'utf8')).filter((content) => content.includes(text));
}

/** An operator signed in on the operator origin, kept for the test run (signed in again once its session ended). */
let signedIn: Promise<SignedIn> | null = null;

/** The operator moves an order to another state (on the operator origin): paid, shipped, delivered, cancelled. */
export async function moveOrder(_request: APIRequestContext, orderNumber: string, state: string) {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    signedIn ??= operatorSession();
    const res = await opsPost(`/api/operator/orders/${orderNumber}/state`, { state }, { cookie: (await signedIn).cookie });
    if (res.status === 401) {
      signedIn = null;
      continue;
    }
    if (!res.ok) throw new Error(`moving order ${orderNumber} to ${state} failed: ${res.status} ${await res.text()}`);
    return;
  }
  throw new Error(`moving order ${orderNumber} to ${state}: the operator's session ended twice`);
}
