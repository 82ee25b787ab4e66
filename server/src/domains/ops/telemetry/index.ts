/**
 * Client telemetry: what the shoppers' browsers report, and what the operator reads back.
 *
 * - `POST /api/telemetry` (public): a batch of page views, client errors and Web Vitals, as JSON or
 *   as the text/plain body `navigator.sendBeacon(url, string)` sends. Views and errors counted per
 *   server minute, area and version (client_metrics), errors logged at warn with personal data
 *   masked; vitals kept as distributions per server hour, area, version, route and metric
 *   (client_vitals); all counted in the Prometheus metrics (no version label). Rate limited per
 *   client address; 204.
 * - `POST /api/csp-report` (public): the pages' Content-Security-Policy violations (csp-report.ts).
 * The operator's summary of it (`GET /api/telemetry/summary`) is on the operator origin (summary.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { VitalMetric } from '@shop/shared-kernel/contract';
import { opsCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import { ApiError } from '../../../infra/http/errors.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { rateLimitStore } from '../../../infra/cache/shared-state.ts';
import { countEvents } from './client-metrics.repository.ts';
import { TELEMETRY_BODY_LIMIT } from './event-schema.ts';
import { scrubMessage } from './scrub.ts';
import { registerCspReports } from './csp-report.ts';
import { recordVitals } from './vitals.repository.ts';

/** Reports per client address: a browser sends a batch every few seconds at most while a page is open. */

const LOGGED_PER_REPORT = 10;
/** Above these a vital is poor by the Core Web Vitals thresholds (web.dev's for FCP and TTFB). */
const POOR: Record<VitalMetric, number> = { lcp: 4000, inp: 500, cls: 0.25, fcp: 3000, ttfb: 1800 };
const TOO_MANY = 'Príliš veľa hlásení z prehliadača. Skúste to znova o minútu.';

export const telemetryRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const limit = deps.limits.telemetry;
  await app.register(rateLimit, {
    global: false,
    ...rateLimitStore(deps.shared, 'telemetry'),
    // An ApiError, so the error handler keeps the Slovak message.
    errorResponseBuilder: () => new ApiError(429, 'rate_limited', TOO_MANY),
  });
  // navigator.sendBeacon(url, string) sends text/plain;charset=UTF-8: read as JSON, in this plugin only
  // (elsewhere text/plain stays refused by the schemas), with the same guards as the JSON parser.
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  app.route({
    ...callRoute(opsCalls, 'POST /api/telemetry'),
    bodyLimit: TELEMETRY_BODY_LIMIT,
    config: { rateLimit: { max: limit.max, timeWindow: limit.timeWindowMs } },
    handler: async (request, reply) => {
      const { events } = request.body;
      const now = new Date();
      await countEvents(deps.db, events, now);
      await recordVitals(deps.db, events, now);
      let logged = 0;
      let poorLogged = 0;
      for (const event of events) {
        if (event.type === 'view') {
          deps.metrics.clientPageViews.inc({ area: event.area });
          continue;
        }
        if (event.type === 'vital') {
          const { area, version, route, metric, value = 0, target } = event;
          if (metric === 'cls') deps.metrics.webVitalsCls.observe({ area }, value);
          else deps.metrics.webVitals.observe({ metric: metric ?? 'unknown', area }, value / 1000);
          // A poor value is logged with its element (the table keeps no element), a few per request.
          if (metric && value > POOR[metric] && poorLogged++ < LOGGED_PER_REPORT)
            request.log.info({ clientVital: { area, version, route, metric, value, target } }, 'poor web vital');
          continue;
        }
        deps.metrics.clientErrors.inc({ area: event.area, kind: event.kind ?? 'unknown' });
        // A file that did not match its integrity fails like any load: its version's files are checked.
        if (event.kind === 'load-failed') deps.onClientLoadFailure(event.area, event.version ?? null);
        // A log line per error, at most LOGGED_PER_REPORT per request: a flood is counted, not logged line by line.
        if (logged++ >= LOGGED_PER_REPORT) continue;
        const { area, version, route, kind } = event;
        request.log.warn(
          { clientError: { area, version, route, kind, message: scrubMessage(event.message ?? '') } },
          'client error report',
        );
      }
      if (logged > LOGGED_PER_REPORT)
        request.log.warn({ clientErrorsNotLogged: logged - LOGGED_PER_REPORT }, 'client error report: more errors in this batch');
      return reply.code(204).send(null);
    },
  });

  registerCspReports(app, deps, { max: limit.max, timeWindow: limit.timeWindowMs });
};
