/**
 * The basket's cookie: the basket itself lives in the browser's storage (cartData), which the
 * server cannot read, so the basket store mirrors each line's id and amount into a cookie sent
 * only to the basket's page. Its server render then shows the shopper's lines from its first
 * byte instead of a placeholder the scripts fill a second later on a phone. Strictly necessary
 * for the service asked for (no consent needed), nothing personal, never read by the API.
 *
 * Value: `<v_id>x<amount>` per line, joined by `.` (cookie-safe without encoding). The parser is
 * the bound: anything longer, with more lines, or not of that shape is no basket at all.
 */
import type { BasketEntry } from '../contract/index.ts';
import { BASKET_LIMITS } from '../contract/basket-limits.ts';
import { MAX_RECORD_ID as MAX_ID } from '../contract/record-id.ts';
import { cookieValues } from './cookies.ts';

export const BASKET_COOKIE = 'shop_basket';
/** Only the basket's page needs it: no other request carries it. */
export const BASKET_COOKIE_PATH = '/checkout/cart';
/** As long as the stored basket (basket-storage.ts's BASKET_TTL_MS). */
export const BASKET_COOKIE_MAX_AGE_S = 30 * 24 * 60 * 60;
/** The longest value the parser reads: every line at its largest id and amount. */
export const BASKET_COOKIE_MAX_LENGTH = BASKET_LIMITS.lines * 17;

const ENTRY = /^([1-9][0-9]{0,9})x([1-9][0-9]{0,4})$/;

/** The cookie's value for these lines ('' for none: the cookie is then removed). */
export function basketCookieValue(lines: readonly BasketEntry[]): string {
  return lines
    .slice(0, BASKET_LIMITS.lines)
    .filter((line) => Number.isInteger(line.v_id) && line.v_id >= 1 && line.v_id <= MAX_ID)
    .map((line) => `${line.v_id}x${Math.min(BASKET_LIMITS.lineAmount, Math.max(1, Math.floor(line.amount)))}`)
    .join('.');
}

/** The lines a cookie value names; [] when it is absent, too long or malformed anywhere. */
export function parseBasketCookie(value: string | undefined | null): BasketEntry[] {
  if (!value || value.length > BASKET_COOKIE_MAX_LENGTH) return [];
  const parts = value.split('.');
  if (parts.length > BASKET_LIMITS.lines) return [];
  const entries: BasketEntry[] = [];
  const seen = new Set<number>();
  for (const part of parts) {
    const match = ENTRY.exec(part);
    if (!match) return [];
    const v_id = Number(match[1]);
    const amount = Number(match[2]);
    if (v_id > MAX_ID || amount > BASKET_LIMITS.lineAmount || seen.has(v_id)) return [];
    seen.add(v_id);
    entries.push({ v_id, amount });
  }
  return entries;
}

/** The basket's lines from a Cookie header or `document.cookie` ([] without a readable basket cookie). */
export function basketFromCookies(cookieString: string | undefined): BasketEntry[] {
  return cookieString ? parseBasketCookie(cookieValues(cookieString).get(BASKET_COOKIE)) : [];
}

/** The `Set-Cookie`/`document.cookie` text that stores (or, for no lines, removes) the basket's cookie. */
export function basketCookieText(lines: readonly BasketEntry[], secure: boolean): string {
  const value = basketCookieValue(lines);
  const attributes = `Path=${BASKET_COOKIE_PATH}; SameSite=Lax${secure ? '; Secure' : ''}`;
  return value
    ? `${BASKET_COOKIE}=${value}; Max-Age=${BASKET_COOKIE_MAX_AGE_S}; ${attributes}`
    : `${BASKET_COOKIE}=; Max-Age=0; ${attributes}`;
}
