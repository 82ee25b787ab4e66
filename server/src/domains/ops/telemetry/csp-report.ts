/**
 * `POST /api/csp-report`: what browsers report of the pages' Content-Security-Policy
 * (infra/http/security-headers.ts), in either form they send: `report-uri`'s
 * `application/csp-report` (`{"csp-report": {…}}`) and the Reporting API's
 * `application/reports+json` (a list of `{type: "csp-violation", body: {…}}`). Each violation is
 * counted per page type, part, directive (shop_csp_violations_total) and, with the blocked origin,
 * per day in the database (csp_violations, shown on /ops), and logged at warn with the blocked
 * address, at most a few per report; rate limited per client address like the telemetry; 204.
 */
import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../../../infra/deps.ts';
import { CSP_REPORT_PATH } from '../../../infra/http/security-headers.ts';
import { isArea, pageTypeOf } from '@shop/shared-kernel/contract';
import type { CspPart } from '@shop/shared-kernel/schemas';
import { TELEMETRY_BODY_LIMIT } from './event-schema.ts';
import { bucketOf, countViolations, overflowKey, type CspViolationKey } from './csp-violations.repository.ts';
import { CspClientBudget, clientOf } from './csp-client-budget.ts';

/** The same room as a telemetry batch: a report is a few hundred bytes. */
export const CSP_REPORT_BODY_LIMIT = TELEMETRY_BODY_LIMIT;
const LOGGED_PER_REPORT = 5;
const TEXT_LIMIT = 300;

type Violation = { directive: string; blocked: string; document: string; source: string; sample: string };

const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, TEXT_LIMIT) : '');

/** The violations of either body form; anything else is no violation. */
export function violationsOf(body: unknown): Violation[] {
  const legacy = (body as { 'csp-report'?: Record<string, unknown> } | null)?.['csp-report'];
  if (legacy && typeof legacy === 'object') {
    return [
      {
        directive: text(legacy['effective-directive'] ?? legacy['violated-directive']),
        blocked: text(legacy['blocked-uri']),
        document: text(legacy['document-uri']),
        source: text(legacy['source-file']),
        sample: text(legacy['script-sample']),
      },
    ];
  }
  if (!Array.isArray(body)) return [];
  return body.slice(0, 50).flatMap((report: unknown) => {
    const r = report as { type?: unknown; url?: unknown; body?: Record<string, unknown> } | null;
    if (r?.type !== 'csp-violation' || !r.body || typeof r.body !== 'object') return [];
    return [
      {
        directive: text(r.body.effectiveDirective),
        blocked: text(r.body.blockedURL),
        document: text(r.body.documentURL ?? r.url),
        source: text(r.body.sourceFile),
        sample: text(r.body.sample),
      },
    ];
  });
}

const DIRECTIVES = new Set([
  'script-src',
  'script-src-elem',
  'script-src-attr',
  'style-src',
  'style-src-elem',
  'style-src-attr',
  'img-src',
  'font-src',
  'connect-src',
  'frame-src',
  'frame-ancestors',
  'form-action',
  'object-src',
  'base-uri',
  'worker-src',
  'manifest-src',
  'default-src',
  // Trusted Types: a string given to an HTML or script sink, or a policy the page may not create.
  'require-trusted-types-for',
  'trusted-types',
]);

const url = (value: string): URL | null => {
  try {
    return new URL(value);
  } catch {
    return null;
  }
};

/** What the browsers report instead of an address for what is not a file. */
const NOT_A_FILE = new Set(['inline', 'eval', 'wasm-eval', 'data', 'blob', 'trusted-types-policy', 'trusted-types-sink']);

/**
 * Which part's file was blocked or caused it: an area's (`/remotes/<area>/…`, on the asset origin)
 * or the shell's (`/assets/…` on the page's origin) by the blocked address, else by the file that
 * ran; inline (or eval, data:, blob:) as `inline`; an address of another origin as `external`.
 */
export function partOf(violation: Pick<Violation, 'blocked' | 'document' | 'source'>): { part: CspPart; blockedOrigin: string } {
  const page = url(violation.document);
  const ofFile = (file: URL): CspPart | null => {
    const area = /^\/remotes\/([a-z]+)\//.exec(file.pathname)?.[1];
    if (area && isArea(area)) return area;
    if (page && file.origin === page.origin) return file.pathname.startsWith('/assets/') ? 'shell' : 'other';
    return null;
  };
  const blocked = url(violation.blocked);
  if (blocked && /^https?:$/.test(blocked.protocol)) {
    return { part: ofFile(blocked) ?? 'external', blockedOrigin: blocked.origin.slice(0, 120) };
  }
  // data: and blob: addresses parse as URLs too: reported by their scheme, never their content.
  const keyword = blocked ? blocked.protocol.replace(/:$/, '') : violation.blocked.toLowerCase() || 'inline';
  const blockedOrigin = NOT_A_FILE.has(keyword) ? keyword : 'other';
  const source = url(violation.source);
  const causedBy = source && /^https?:$/.test(source.protocol) ? ofFile(source) : null;
  // An inline script or handler is reported with the page as its file: inline, not the page's part.
  return { part: causedBy && causedBy !== 'other' && source!.href !== page?.href ? causedBy : 'inline', blockedOrigin };
}

/** What was blocked, for the metric (a closed set): the shop's own files, a kind of inline content, Tag Manager, another origin. */
export const CSP_SOURCES = ['shop', 'inline', 'eval', 'data', 'blob', 'trusted-types', 'tag-manager', 'external', 'other'] as const;
export type CspSource = (typeof CSP_SOURCES)[number];
const TAG_MANAGER_ORIGINS = new Set(['https://www.googletagmanager.com', 'https://www.google-analytics.com']);

export function sourceOf(key: CspViolationKey): CspSource {
  const origin = key.blockedOrigin;
  if (key.part === 'shell' || isArea(key.part)) return 'shop';
  if (origin === 'inline' || origin === 'eval' || origin === 'data' || origin === 'blob') return origin;
  if (origin === 'wasm-eval') return 'eval';
  if (origin.startsWith('trusted-types')) return 'trusted-types';
  if (TAG_MANAGER_ORIGINS.has(origin) || /^https:\/\/[\w-]+\.(analytics\.google|google-analytics)\.com$/.test(origin)) return 'tag-manager';
  if (key.part === 'other' && /^https?:/.test(origin)) return 'shop';
  return key.part === 'external' ? 'external' : 'other';
}

/** What a violation is counted under: every value from a closed set but the blocked origin (≤ 120 characters). */
export function violationKey(violation: Violation): CspViolationKey {
  const document = url(violation.document);
  const page = document ? pageTypeOf(document.pathname) : 'other';
  return { page, directive: DIRECTIVES.has(violation.directive) ? violation.directive : 'other', ...partOf(violation) };
}

export function registerCspReports(app: FastifyInstance, deps: ApiDeps, rateLimit: { max: number; timeWindow: number }): void {
  for (const type of ['application/csp-report', 'application/reports+json']) {
    app.addContentTypeParser(type, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  }
  const budget = new CspClientBudget();
  // Registered under the API's /api prefix.
  app.post(CSP_REPORT_PATH.replace(/^\/api/, ''), { bodyLimit: CSP_REPORT_BODY_LIMIT, config: { rateLimit } }, async (request, reply) => {
    const violations = violationsOf(request.body);
    const now = new Date();
    const client = clientOf(request.ip);
    // Counted first, every one of them: no cap of the table and no client's budget hides one from the metrics.
    const keys = violations.map((violation, index) => {
      const key = violationKey(violation);
      const { page, part, directive } = key;
      const bucket = bucketOf(page);
      deps.metrics.cspViolations.inc({ directive, page, part, source: sourceOf(key) });
      if (index < LOGGED_PER_REPORT) request.log.warn({ cspViolation: violations[index] }, 'content security policy violation');
      if (budget.admit(client, bucket, JSON.stringify(key), now)) return key;
      deps.metrics.cspViolationsUnstored.inc({ bucket, reason: 'client_budget' });
      return overflowKey(key);
    });
    await countViolations(deps.db, keys, now);
    return reply.code(204).send(null);
  });
}
