/**
 * State that several shop servers share, in Redis (REDIS_URL): the rate-limit counters and the
 * catalog's change signal. Without REDIS_URL (the embedded default, one server) both stay in the
 * process.
 *
 * - Rate limits: @fastify/rate-limit keeps its counters in Redis (its Lua script, one round trip per
 *   counted request), so a limit holds across every server. If Redis cannot be reached, requests
 *   pass (logged and counted): a shop that sells is worth more than a limit held for a few seconds.
 * - Catalog changes: every change recorded here (infra/cache/catalog-version.ts) is published on one
 *   channel; every other server applies it to its own caches as it arrives (milliseconds). A
 *   server whose subscription was interrupted may have missed changes: it takes the gap as a change
 *   of everything.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { catalogChanges, type CatalogChange, type CatalogChanges } from './catalog-version.ts';

export const CATALOG_CHANNEL = 'shop:catalogue-changes';
/** A published change names at most this many products; a bigger one is sent as a change of everything. */
const MAX_PRODUCTS_PER_MESSAGE = 1_000;

export type SharedState = {
  /** The client that counts rate limits (and publishes). */
  redis: Redis;
  /** Connects and starts sharing this process's catalog changes with the other servers. */
  start(): Promise<void>;
  /** Stops the broadcast and closes both connections. */
  close(): Promise<void>;
};

const clientOptions = {
  // A command waits for a lost connection at most this long, then fails (the limit then lets the request through).
  commandTimeout: 500,
  maxRetriesPerRequest: 1,
  retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
  lazyConnect: true,
};

/** The shared state at `url` (redis://…): clients made now, connected by `start()` (app.ts: when the server gets ready). */
export function createSharedState(url: string, log: FastifyBaseLogger, changes: CatalogChanges = catalogChanges): SharedState {
  const redis = new Redis(url, { ...clientOptions, connectionName: 'shop' });
  const subscriber = new Redis(url, { ...clientOptions, connectionName: 'shop-changes', commandTimeout: undefined });
  for (const [component, client] of [
    ['redis', redis],
    ['redis-subscriber', subscriber],
  ] as const) {
    client.on('error', (error: Error) => log.warn({ err: error, component }, 'shared state: Redis error'));
  }
  const self = randomUUID();
  let subscribed = false;
  let stopPublishing = () => {};

  return {
    redis,
    async start() {
      // A Redis that cannot be reached does not keep the shop from starting: the clients keep
      // trying (retryStrategy), limits pass meanwhile, and the subscription starts once connected.
      const connected = await Promise.all([redis.connect(), subscriber.connect()]).then(
        () => true,
        (error: unknown) => {
          log.error(
            { err: error },
            "shared state: Redis cannot be reached; rate limits pass and other servers' catalog changes show after the cache time until it can",
          );
          return false;
        },
      );
      subscriber.on('message', (channel: string, message: string) => {
        if (channel !== CATALOG_CHANNEL) return;
        const change = parseMessage(message, self);
        if (change) changes.record(change, 'elsewhere');
      });
      const subscribe = () =>
        subscriber.subscribe(CATALOG_CHANNEL).then(() => {
          subscribed = true;
        });
      subscriber.on('ready', () => {
        // (Re)connected: changes published meanwhile were not heard, so this server starts its caches
        // over. ioredis subscribes again by itself to a channel it had; the first time, we do.
        if (subscribed) changes.record({ kind: 'all' }, 'elsewhere');
        else
          subscribe().then(
            () => changes.record({ kind: 'all' }, 'elsewhere'),
            () => {},
          );
      });
      if (connected) await subscribe();
      stopPublishing = changes.onLocalChange((change) => {
        const sent: CatalogChange = change.kind === 'products' && change.ids.length > MAX_PRODUCTS_PER_MESSAGE ? { kind: 'all' } : change;
        redis.publish(CATALOG_CHANNEL, JSON.stringify({ from: self, change: sent })).catch((error: unknown) => {
          log.error({ err: error }, 'shared state: a catalog change could not be published; other servers see it after their cache time');
        });
      });
    },
    async close() {
      stopPublishing();
      await Promise.allSettled([subscriber.quit(), redis.quit()]);
    },
  };
}

/** A change published by another server, or null (our own, or not a change). */
export function parseMessage(message: string, self: string): CatalogChange | null {
  if (message.length > 64 * 1024) return { kind: 'all' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return null;
  }
  const { from, change } = (parsed ?? {}) as { from?: unknown; change?: { kind?: unknown; ids?: unknown } };
  if (from === self || !change) return null;
  if (change.kind === 'all') return { kind: 'all' };
  if (change.kind === 'products' && Array.isArray(change.ids) && change.ids.every((id) => Number.isSafeInteger(id))) {
    return { kind: 'products', ids: change.ids as number[] };
  }
  return null;
}

/** The options every rate-limit registration adds: the shared counters when there are any. */
export function rateLimitStore(shared: SharedState | null, scope: string): { redis?: Redis; nameSpace?: string; skipOnError?: boolean } {
  return shared ? { redis: shared.redis, nameSpace: `shop:rate-limit:${scope}:`, skipOnError: true } : {};
}
