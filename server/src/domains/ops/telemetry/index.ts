/**
 * Client telemetry: what the shoppers' browsers report, and what the operator reads back.
 *
 * - `POST /api/telemetry` (public): a batch of page views, client errors, Web Vitals and additions
 *   to the basket (kept only as their session's flag, for the add-to-basket guardrail), as JSON or
 *   as the text/plain body `navigator.sendBeacon(url, string)` sends. Only the shop's own pages may
 *   send it: `Origin` must be PUBLIC_URL's and `Sec-Fetch-Site`, when sent, `same-origin`
 *   (anything else 403; a cross-site text/plain post needs no preflight, so this is what refuses it).
 *   Only events about a part version in force or in a canary are kept (the rest dropped and counted).
 *   Each batch belongs to a telemetry session (telemetry-session.ts: the first report of a visit
 *   gets one, a few new ones per address at most); the canary watch counts sessions
 *   (client-sessions.repository.ts), so a page repeating its reports counts once. Views and errors
 *   are also counted per server minute (client_metrics), errors logged at warn with personal data
 *   masked; vitals kept as distributions per server hour, area, version, route and metric
 *   (client_vitals); all counted in the Prometheus metrics (no version label). Rate limited per
 *   client address; 204.
 * - `POST /api/csp-report` (public): the pages' Content-Security-Policy violations (csp-report.ts).
 *   An error's stack (its frames, scrubbed again here) is mapped with the version's source maps
 *   (stack-mapper.ts) and counted into its group (client-errors.repository.ts), the first
 *   LOGGED_PER_REPORT errors of a batch; `GET /api/ops/client-errors` lists the groups.
 * The operator's summary of it (`GET /api/telemetry/summary`: per area and version, the sessions that
 * showed it, those that met an error in it and their ratio) is on the operator origin (summary.ts).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ClientStackFrame, TelemetryEvent, VitalMetric } from '@shop/shared-kernel/contract';
import { opsCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import { ApiError, forbidden } from '../../../infra/http/errors.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { rateLimitStore } from '../../../infra/cache/shared-state.ts';
import { countEvents } from './client-metrics.repository.ts';
import { TELEMETRY_BODY_LIMIT } from './event-schema.ts';
import { scrubMessage } from './scrub.ts';
import { registerCspReports } from './csp-report.ts';
import { clientOf } from './csp-client-budget.ts';
import { recordVitals } from './vitals.repository.ts';
import { pruneSessions, recordSession } from './client-sessions.repository.ts';
import { newSession, requestSession, setSessionCookie } from './telemetry-session.ts';
import { scrubStackFrame } from '@shop/shared-kernel/rules';
import type { ReleasedVersions } from '../../../infra/deps.ts';
import { pruneClientErrors, recordClientError } from './client-errors.repository.ts';
import { topFrameOf, unmappedFrame } from './stack-mapper.ts';

const LOGGED_PER_REPORT = 10;
/** Above these a vital is poor by the Core Web Vitals thresholds (web.dev's for FCP and TTFB). */
const POOR: Record<VitalMetric, number> = { lcp: 4000, inp: 500, cls: 0.25, fcp: 3000, ttfb: 1800 };
const TOO_MANY = 'Príliš veľa hlásení z prehliadača. Skúste to znova o minútu.';
const NOT_FROM_THE_SHOP = 'Hlásenia o fungovaní obchodu prijímame len zo stránok obchodu.';
/** Sessions not seen for a week are forgotten, checked every this many batches a process keeps. */
const PRUNE_EVERY = 1000;

/**
 * Whether the request comes from a page of the shop: the browser's own `Origin` (always sent with
 * a POST) is PUBLIC_URL's, and its `Sec-Fetch-Site`, when it sends one, says same-origin. A page of
 * another site cannot forge either; a client outside a browser can, and is held by the sessions.
 */
function fromShopPage(request: FastifyRequest, shopOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  return request.headers.origin === shopOrigin;
}

export const telemetryRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const limit = deps.limits.telemetry;
  const { publicUrl } = deps;
  const shopOrigin = new URL(publicUrl).origin;
  const { sessionKey } = deps.telemetry;
  await app.register(rateLimit, {
    global: false,
    ...rateLimitStore(deps.shared, 'telemetry'),
    // An ApiError, so the error handler keeps the Slovak message.
    errorResponseBuilder: () => new ApiError(429, 'rate_limited', TOO_MANY),
  });
  const newSessions = app.createRateLimit({
    max: deps.limits.telemetrySessions.max,
    timeWindow: deps.limits.telemetrySessions.timeWindowMs,
    keyGenerator: (request) => `session:${clientOf(request.ip)}`,
  });
  // navigator.sendBeacon(url, string) sends text/plain;charset=UTF-8: read as JSON, in this plugin only
  // (elsewhere text/plain stays refused by the schemas), with the same guards as the JSON parser.
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  let batches = 0;

  /** Maps the error's stack (scrubbed again: a report may come from anywhere) and counts it into its group; answers its top frame. */
  async function groupError(event: TelemetryEvent, released: ReleasedVersions, at: Date): Promise<string> {
    const frames = (event.stack ?? []).map(scrubStackFrame).filter((frame): frame is ClientStackFrame => frame !== null);
    const stack = deps.telemetry.stacks ? await deps.telemetry.stacks.map(event, frames, released) : frames.map(unmappedFrame);
    const topFrame = topFrameOf(stack);
    await recordClientError(deps.db, {
      area: event.area,
      version: event.version,
      route: event.route ?? '',
      kind: event.kind ?? 'unknown',
      message: scrubMessage(event.message ?? ''),
      stack,
      topFrame,
      at,
    });
    return topFrame;
  }

  app.route({
    ...callRoute(opsCalls, 'POST /api/telemetry'),
    bodyLimit: TELEMETRY_BODY_LIMIT,
    config: { rateLimit: { max: limit.max, timeWindow: limit.timeWindowMs } },
    // Before the body is read.
    onRequest: async (request) => {
      if (fromShopPage(request, shopOrigin)) return;
      deps.metrics.clientTelemetryDropped.inc({ reason: 'cross_site' });
      throw forbidden(NOT_FROM_THE_SHOP);
    },
    handler: async (request, reply) => {
      const now = new Date();
      const released = await deps.telemetry.releasedVersions();
      const events = request.body.events.filter((event) => released.get(event.area)?.has(event.version) === true);
      const unreleased = request.body.events.length - events.length;
      if (unreleased > 0) deps.metrics.clientTelemetryDropped.inc({ reason: 'unreleased' }, unreleased);
      if (events.length === 0) return reply.code(204).send(null);
      let session = requestSession(request, sessionKey, publicUrl);
      if (!session) {
        const allowed = await newSessions(request);
        if (!allowed.isAllowed && allowed.isExceeded) {
          deps.metrics.clientTelemetryDropped.inc({ reason: 'no_session' }, events.length);
          return reply.code(204).send(null);
        }
        const fresh = newSession(sessionKey, now.getTime());
        setSessionCookie(reply, fresh.value, publicUrl);
        session = fresh.id;
      }
      // A load that recovered is no error: it is counted in its metric only, never against the version.
      const stored = events.filter((event) => !isRecovered(event));
      await recordSession(deps.db, session, stored, now);
      await countEvents(deps.db, stored, now);
      await recordVitals(deps.db, stored, now);
      if (++batches % PRUNE_EVERY === 0) {
        pruneSessions(deps.db, now).catch((error: unknown) => request.log.error({ err: error }, 'telemetry sessions could not be pruned'));
        pruneClientErrors(deps.db, now).catch((error: unknown) =>
          request.log.error({ err: error }, 'client error groups could not be pruned'),
        );
      }
      let logged = 0;
      let poorLogged = 0;
      for (const event of events) {
        if (event.type === 'view') {
          deps.metrics.clientPageViews.inc({ area: event.area });
          continue;
        }
        // Only its session's flag (recordSession): the add-to-basket guardrail counts sessions, not reports.
        if (event.type === 'basket-add') continue;
        if (event.type === 'vital') {
          const { area, version, route, metric, value = 0, target } = event;
          if (metric === 'cls') deps.metrics.webVitalsCls.observe({ area }, value);
          else deps.metrics.webVitals.observe({ metric: metric ?? 'unknown', area }, value / 1000);
          // A poor value is logged with its element (the table keeps no element), a few per request.
          if (metric && value > POOR[metric] && poorLogged++ < LOGGED_PER_REPORT)
            request.log.info({ clientVital: { area, version, route, metric, value, target } }, 'poor web vital');
          continue;
        }
        if (isRecovered(event)) {
          deps.metrics.clientLoadsRecovered.inc({ area: event.area, from: recoveredFrom(event.message) });
          // What failed first may be the asset origin's copy: its version's files are read back as for a failed load.
          deps.onClientLoadFailure(event.area, event.version ?? null);
          if (logged++ < LOGGED_PER_REPORT)
            request.log.info(
              {
                clientRecovered: {
                  area: event.area,
                  version: event.version,
                  route: event.route,
                  message: scrubMessage(event.message ?? ''),
                },
              },
              'client load recovered',
            );
          continue;
        }
        deps.metrics.clientErrors.inc({ area: event.area, kind: event.kind ?? 'unknown' });
        // A file that did not match its integrity fails like any load: its version's files are checked.
        if (event.kind === 'load-failed') deps.onClientLoadFailure(event.area, event.version ?? null);
        // A log line per error, at most LOGGED_PER_REPORT per request: a flood is counted, not logged line by line.
        if (logged++ >= LOGGED_PER_REPORT) continue;
        const { area, version, route, kind } = event;
        const topFrame = await groupError(event, released, now).catch((error: unknown) => {
          request.log.error({ err: error, clientError: { area, version } }, 'client error could not be grouped');
          return null;
        });
        request.log.warn(
          { clientError: { area, version, route, kind, message: scrubMessage(event.message ?? ''), topFrame } },
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

const isRecovered = (event: TelemetryEvent): boolean => event.type === 'error' && event.kind === 'recovered';
/** Where a recovered load came from, as the shell words it (`… from shop …`): a label of two values only. */
const recoveredFrom = (message: string | undefined): 'shop' | 'asset' => (/\bfrom shop\b/.test(message ?? '') ? 'shop' : 'asset');
