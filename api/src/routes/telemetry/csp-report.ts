/**
 * `POST /api/csp-report`: what browsers report of the pages' Content-Security-Policy
 * (lib/security-headers.ts), in either form they send: `report-uri`'s
 * `application/csp-report` (`{"csp-report": {…}}`) and the Reporting API's
 * `application/reports+json` (a list of `{type: "csp-violation", body: {…}}`). Each violation is
 * counted per directive and page (shop_csp_violations_total) and logged at warn with the blocked
 * address, at most a few per report; rate limited per client address like the telemetry; 204.
 */
import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../../lib/deps.ts';
import { CSP_REPORT_PATH } from '../../lib/security-headers.ts';
import { TELEMETRY_BODY_LIMIT } from './event-schema.ts';

/** The same room as a telemetry batch: a report is a few hundred bytes. */
export const CSP_REPORT_BODY_LIMIT = TELEMETRY_BODY_LIMIT;
const LOGGED_PER_REPORT = 5;
const TEXT_LIMIT = 300;

type Violation = { directive: string; blocked: string; document: string; sample: string };

const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, TEXT_LIMIT) : '');

/** The violations of either body form; anything else is no violation. */
export function violationsOf(body: unknown): Violation[] {
  const legacy = (body as { 'csp-report'?: Record<string, unknown> } | null)?.['csp-report'];
  if (legacy && typeof legacy === 'object') {
    return [{
      directive: text(legacy['effective-directive'] ?? legacy['violated-directive']),
      blocked: text(legacy['blocked-uri']),
      document: text(legacy['document-uri']),
      sample: text(legacy['script-sample']),
    }];
  }
  if (!Array.isArray(body)) return [];
  return body.slice(0, 50).flatMap((report: unknown) => {
    const r = report as { type?: unknown; url?: unknown; body?: Record<string, unknown> } | null;
    if (r?.type !== 'csp-violation' || !r.body || typeof r.body !== 'object') return [];
    return [{ directive: text(r.body.effectiveDirective), blocked: text(r.body.blockedURL), document: text(r.body.documentURL ?? r.url), sample: text(r.body.sample) }];
  });
}

const DIRECTIVES = new Set(['script-src', 'script-src-elem', 'script-src-attr', 'style-src', 'style-src-elem', 'style-src-attr', 'img-src', 'font-src', 'connect-src', 'frame-src', 'frame-ancestors', 'form-action', 'object-src', 'base-uri', 'worker-src', 'manifest-src', 'default-src']);

/** A bounded label: the directive if known, the page's first path segment (the page type). */
function labels(violation: Violation): { directive: string; page: string } {
  let segment = 'other';
  try {
    segment = new URL(violation.document).pathname.split('/')[1] ?? '';
  } catch {
    // not a URL: counted as other
  }
  return { directive: DIRECTIVES.has(violation.directive) ? violation.directive : 'other', page: /^[a-z-]{0,20}$/.test(segment) ? segment || 'home' : 'other' };
}

export function registerCspReports(app: FastifyInstance, deps: ApiDeps, rateLimit: { max: number; timeWindow: number }): void {
  for (const type of ['application/csp-report', 'application/reports+json']) {
    app.addContentTypeParser(type, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  }
  // Registered under the API's /api prefix.
  app.post(CSP_REPORT_PATH.replace(/^\/api/, ''), { bodyLimit: CSP_REPORT_BODY_LIMIT, config: { rateLimit } }, async (request, reply) => {
    const violations = violationsOf(request.body);
    violations.forEach((violation, index) => {
      deps.metrics.cspViolations.inc(labels(violation));
      if (index < LOGGED_PER_REPORT) request.log.warn({ cspViolation: violation }, 'content security policy violation');
    });
    return reply.code(204).send(null);
  });
}
