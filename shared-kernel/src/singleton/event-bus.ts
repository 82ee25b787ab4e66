/**
 * The typed event bus every part of the storefront shares (mitt).
 * Stores emit after their state changed; listeners must not throw.
 *
 *  event              payload                                   emitted by / when
 *  ─────────────────  ────────────────────────────────────────  ───────────────────────────────────────
 *  basket:edited      { lines }                                 basket store, last, after a line was added, changed or removed
 *  basket:cleared     { lines: [] }                             basket store, last, after the basket was emptied
 *  auth:changed       { authenticated, userId }                 auth store, on login, logout, local sign-out
 *  auth:signed-out    { wasSignedIn }                           auth store, on logout and local sign-out, before auth:changed
 *  coupon:changed     { status, code }                          coupon store, on every status/coupon change
 *  consent:changed    ConsentChoices                            consent store, when choices are saved
 *  area:load-failed   { area, module, error }                   shell, when a remote area fails to load
 *  route:not-found    { path }                                  shell, when a route resolves to 404
 *  build:changed      { from, to }                              shell, when builds/latest.json changed
 *  item:listed        { list, items }                           catalog, when a list of products is shown
 *  item:viewed        { item }                                  catalog, when a product's variant is shown
 *  basket:added       { item, basketTotal }                     basket store, when pieces are added
 *  basket:removed     { item, basketTotal }                     basket store, when a line is removed
 *  checkout:begun     { items, value }                          checkout, when the contact step opens
 *  checkout:shipping  { method, items, value }                  checkout, when a shipping method is chosen
 *  checkout:payment   { method, items, value }                  checkout, when a payment method is chosen
 *  order:placed       { number, value, shipping, items }        checkout, once when an order is placed
 * Prices are thousandths of a euro with VAT (the kernel's money unit).
 *
 * The stores talk to one another only through here, so none imports another
 * that imports it back: the coupon store re-validates the coupon on
 * basket:edited and clears it on basket:cleared and auth:signed-out.
 */
import mitt, { type Emitter } from 'mitt';
import type { BasketLine, ConsentChoices } from '../contract/index.ts';

export type CouponStatus = 'none' | 'applying' | 'valid' | 'invalid';

/** A product in a commerce event: the variant, its unit price with VAT (thousandths) and the pieces. */
export type CommerceItem = { id: string; name: string; variant: string; price: number; quantity: number };

export type ShopEvents = {
  'basket:edited': { lines: BasketLine[] };
  'basket:cleared': { lines: BasketLine[] };
  'auth:changed': { authenticated: boolean; userId: number | null };
  'auth:signed-out': { wasSignedIn: boolean };
  'coupon:changed': { status: CouponStatus; code: string | null };
  'consent:changed': ConsentChoices;
  'area:load-failed': { area: string; module: string; error: string };
  'route:not-found': { path: string };
  'build:changed': { from: string; to: string };
  'item:listed': { list: string; items: CommerceItem[] };
  'item:viewed': { item: CommerceItem };
  'basket:added': { item: CommerceItem; basketTotal: number };
  'basket:removed': { item: CommerceItem; basketTotal: number };
  'checkout:begun': { items: CommerceItem[]; value: number };
  'checkout:shipping': { method: string; items: CommerceItem[]; value: number };
  'checkout:payment': { method: string; items: CommerceItem[]; value: number };
  'order:placed': { number: string; value: number; shipping: number; items: CommerceItem[] };
};

export const bus: Emitter<ShopEvents> = mitt<ShopEvents>();
