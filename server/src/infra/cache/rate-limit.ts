/**
 * The API's rate limits, in one place: per client address (and per account for sign-in), each a
 * window of at most `max` requests in `timeWindowMs`. The domains apply them with @fastify/rate-limit;
 * app.ts takes the defaults below unless the caller (a test) passes others.
 */

/** A rate limit: at most `max` requests in `timeWindowMs`, counted per key (a client address, an account). */
export type RateLimitWindow = { max: number; timeWindowMs: number };

/** Sign-in, sign-up and password reset: per address and per account. */
export type AuthRateLimit = { perAddress: RateLimitWindow; perAccount: RateLimitWindow };
/** Orders and quotes per address, and the addresses exempt from them (the loopback load test only). */
export type CheckoutRateLimit = { orders: RateLimitWindow; quotes: RateLimitWindow; allowList: string[] };

export type RateLimits = {
  auth: AuthRateLimit;
  checkout: CheckoutRateLimit;
  /** Contact form messages per address. */
  contact: RateLimitWindow;
  /** Client telemetry reports per address: a browser sends a batch every few seconds at most while a page is open. */
  telemetry: RateLimitWindow;
  /**
   * New telemetry sessions per address: a browser gets one per visit; a sender that drops its cookie
   * to count as many shoppers gets no more than this (a shared address, an office, may lose some).
   */
  telemetrySessions: RateLimitWindow;
};

export const DEFAULT_RATE_LIMITS: RateLimits = {
  auth: { perAddress: { max: 60, timeWindowMs: 10 * 60_000 }, perAccount: { max: 5, timeWindowMs: 15 * 60_000 } },
  checkout: { orders: { max: 30, timeWindowMs: 10 * 60_000 }, quotes: { max: 120, timeWindowMs: 60_000 }, allowList: [] },
  contact: { max: 5, timeWindowMs: 10 * 60_000 },
  telemetry: { max: 120, timeWindowMs: 60_000 },
  telemetrySessions: { max: 10, timeWindowMs: 10 * 60_000 },
};
