/**
 * Per-address limits of the checkout's two POST calls: placing orders (each one reserves
 * stock and sends an e-mail to an address the sender chooses) and pricing baskets. The limits leave
 * real shoppers alone, also many of them behind one office or mobile network address: the checkout
 * asks for a quote on every change of the basket, shipping, payment or coupon.
 *
 * `allowList`: client addresses the limits do not apply to. Empty by default and in production;
 * the API load test sets it for its loopback load generator (CHECKOUT_RATE_LIMIT_ALLOWLIST, see
 * config.ts), which places hundreds of orders a second from one address.
 */
import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { ApiError } from '../../../infra/http/errors.ts';
import type { RateLimitWindow } from '../../../infra/cache/rate-limit.ts';
import { rateLimitStore, type SharedState } from '../../../infra/cache/shared-state.ts';

export const RATE_LIMIT_MESSAGES = {
  orders: 'Z vašej adresy prišlo za krátky čas priveľa objednávok. Skúste to, prosím, o niekoľko minút alebo nám zavolajte.',
  quotes: 'Priveľa požiadaviek na výpočet ceny za krátky čas. Skúste to, prosím, o chvíľu znova.',
} as const;

/** Registers the rate-limit plugin in the scope of `app` (routes opt in with `limitPerAddress`). */
export async function registerCheckoutRateLimit(
  app: FastifyInstance,
  allowList: readonly string[],
  shared: SharedState | null,
  scope: string,
): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    ...rateLimitStore(shared, scope),
    allowList: allowList.length > 0 ? (request) => allowList.includes(request.ip) : undefined,
  });
}

/** A route's `config.rateLimit`: `window` per client address, answered with a 429 in the API's error shape. */
export const limitPerAddress = (window: RateLimitWindow, message: string) => ({
  max: window.max,
  timeWindow: window.timeWindowMs,
  errorResponseBuilder: () => new ApiError(429, 'rate_limited', message),
});
