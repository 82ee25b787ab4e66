/**
 * What makes every request visible: a request id (generated here, never taken from the
 * request) returned in `X-Request-Id` and carried by every log line of the request, one JSON
 * log line per answered request, and the request metrics.
 */
import { randomUUID } from 'node:crypto';
import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Metrics } from './metrics.ts';
import { redactUrl } from './redact-url.ts';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Where the API logs: JSON lines (pino, Fastify's own logger) on stdout unless a stream is given. */
export type LoggerOption = false | { level?: string; stream?: { write(line: string): void } };

/** Fastify options for logging and request ids. */
export function loggingOptions(
  logger: LoggerOption | undefined,
): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'requestIdHeader' | 'logController'> {
  return {
    logger:
      logger === false
        ? false
        : {
            level: logger?.level ?? process.env.LOG_LEVEL ?? 'info',
            ...(logger?.stream ? { stream: logger.stream } : {}),
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            // Every `url` a line names loses the secrets an address may carry (reset, preview and order tokens).
            serializers: { url: redactUrl },
          },
    // Short enough to read out to the shop's helpline, random enough to find one request in the logs:
    // 12 hex digits, the random ones before a v4 UUID's version digit. randomUUID draws from a kept
    // store of entropy; randomBytes asked the kernel on every request (a visible share of a small answer's CPU).
    genReqId: () => {
      const uuid = randomUUID();
      return uuid.slice(0, 8) + uuid.slice(9, 13);
    },
    requestIdHeader: false,
    // Fastify's own two lines per request are replaced by the one line of observeRequests.
    logController: new LogController({ requestIdLogLabel: 'reqId', disableRequestLogging: true }),
  };
}

/**
 * A page's data the server loads from its own API in-process (web/ssr/in-process-api.ts) carries
 * this header with a secret of this process (no client can send it): a part of the page's request,
 * not a request of its own, so it has no log line and no request metrics unless it fails.
 */
export const IN_PROCESS_HEADER = 'x-shop-in-process';
export const IN_PROCESS_SECRET = randomUUID();

/** Request id header, one log line per request, and the request metrics. */
export function observeRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode;
    if (status < 500 && request.headers[IN_PROCESS_HEADER] === IN_PROCESS_SECRET) return;
    const route = request.routeOptions.url ?? 'unmatched';
    const seconds = reply.elapsedTime / 1000;
    metrics.requests.inc({ method: request.method, route, status: String(status) });
    metrics.duration.observe({ method: request.method, route }, seconds);
    if (status >= 500) metrics.serverErrors.inc({ route });
    const cache = reply.getHeader('x-cache');
    if (typeof cache === 'string') metrics.cache.inc({ result: cache });
    const line = {
      method: request.method,
      url: request.url,
      route,
      status,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ip: request.ip,
    };
    if (status >= 500) request.log.error(line, 'request failed');
    else request.log.info(line, 'request');
  });
}
