// Types for TypeScript callers (the benchmark) of ensure-redis.mjs.
export type RunningRedis = { url: string; dir: string; stop(): Promise<void> };
/** A throwaway Redis on 127.0.0.1. */
export function ensureRedis(): Promise<RunningRedis>;
