/** A rate limit: at most `max` requests in `timeWindowMs`, counted per key (a client address, an account). */
export type RateLimitWindow = { max: number; timeWindowMs: number };
