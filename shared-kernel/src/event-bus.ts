/**
 * The typed event bus every part of the storefront shares (mitt).
 * Stores emit after their state changed; listeners must not throw.
 *
 *  event              payload                                   emitted by / when
 *  ─────────────────  ────────────────────────────────────────  ───────────────────────────────────────
 *  basket:changed     { lines }                                 basket store, after every change and hydrate
 *  auth:changed       { authenticated, userId }                 auth store, on login, logout, local sign-out
 *  coupon:changed     { status, code }                          coupon store, on every status/coupon change
 *  consent:changed    ConsentChoices                            consent store, when choices are saved
 *  area:load-failed   { area, module, error }                   shell, when a remote area fails to load
 *  route:not-found    { path }                                  shell, when a route resolves to 404
 *  build:changed      { from, to }                              shell, when builds/latest.json changed
 */
import mitt, { type Emitter } from 'mitt';
import type { BasketLine, ConsentChoices } from './contract/domain.ts';

export type CouponStatus = 'none' | 'applying' | 'valid' | 'invalid';

export type ShopEvents = {
  'basket:changed': { lines: BasketLine[] };
  'auth:changed': { authenticated: boolean; userId: number | null };
  'coupon:changed': { status: CouponStatus; code: string | null };
  'consent:changed': ConsentChoices;
  'area:load-failed': { area: string; module: string; error: string };
  'route:not-found': { path: string };
  'build:changed': { from: string; to: string };
};

export const bus: Emitter<ShopEvents> = mitt<ShopEvents>();
