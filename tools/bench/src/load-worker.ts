/**
 * One autocannon run, in its own process (pinned to its own core by the
 * caller), printing the result as JSON. Each request can get a fresh body,
 * e.g. a new idempotency key per order, and extra headers (a sign-in token).
 * Counts the answers a cache gave (the API's X-Cache: HIT, the page cache's X-Page-Cache: hit), and
 * nginx's answers by its X-Edge-Cache status (HIT, STALE, MISS, …).
 * Every request asks for a compressed answer, as a browser does (the caller's headers may override).
 *   echo '<json options>' | tsx src/load-worker.ts
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

type Options = {
  url: string;
  paths: string[];
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Every `orderEvery`-th request places an order instead: POST /api/orders with the next of `orders` (a fresh idempotency key each). */
  orderEvery?: number;
  orders?: Record<string, unknown>[];
};
const parsed = JSON.parse(readFileSync(0, 'utf8')) as Options;
const options: Options = { ...parsed, headers: { 'accept-encoding': 'br, gzip', ...parsed.headers } };
let next = 0;
let sent = 0;
let ordersSent = 0;
let cacheHits = 0;
/** Answers by nginx's cache status; none without nginx in front. */
const edge: Record<string, number> = {};
/** Answers with an error status, by status. */
const failures: Record<number, number> = {};

const result = await autocannon({
  url: options.url,
  connections: options.connections,
  duration: options.seconds,
  requests: [
    {
      method: options.method ?? 'GET',
      setupRequest: (request) => {
        sent += 1;
        if (options.orderEvery && options.orders?.length && sent % options.orderEvery === 0) {
          const order = options.orders[ordersSent++ % options.orders.length]!;
          const body = JSON.stringify({ ...order, idempotencyKey: randomUUID() });
          return {
            ...request,
            method: 'POST',
            path: '/api/orders',
            headers: { ...options.headers, 'content-type': 'application/json' },
            body,
          };
        }
        const path = options.paths[next++ % options.paths.length]!;
        const body = options.body ? JSON.stringify({ ...options.body, idempotencyKey: randomUUID() }) : undefined;
        const headers = { ...options.headers, ...(body ? { 'content-type': 'application/json' } : {}) };
        return { ...request, method: options.method ?? 'GET', path, headers, ...(body ? { body } : {}) };
      },
      onResponse: (status, _body, _context, headers) => {
        if (status >= 400) failures[status] = (failures[status] ?? 0) + 1;
        // The API's response cache, or the server's page cache for a rendered page.
        if (headers?.['x-cache'] === 'HIT' || headers?.['x-page-cache'] === 'hit') cacheHits += 1;
        // Raw header names: nginx's as written in its configuration.
        const edgeStatus = headers?.['X-Edge-Cache'] ?? headers?.['x-edge-cache'];
        if (typeof edgeStatus === 'string') edge[edgeStatus] = (edge[edgeStatus] ?? 0) + 1;
      },
    },
  ],
});
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    total: result.requests.total,
    cacheHits,
    failures,
    edge,
  }),
);
