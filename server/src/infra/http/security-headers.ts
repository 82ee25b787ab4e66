/**
 * The security headers every answer carries (pages, API, pictures, the areas' files), and the
 * Content-Security-Policy of the shop's pages.
 *
 * The policy admits inline scripts by their SHA-256 only (no per-response nonce, which a page
 * cache or a CDN would repeat to every shopper): the shell's page has a fixed set of them per
 * shell build (its module bootstrap, the consent notice's, and the one that reads the page's
 * configuration from a JSON block); data travels in JSON blocks, which the browser never runs.
 * Scripts otherwise come only from the shop's origin and the areas' asset origin, and Tag Manager's
 * host when a container is configured (it is loaded only after the shopper's consent).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** Where browsers send the policy's violation reports (domains/ops/telemetry/csp-report.ts). */
export const CSP_REPORT_PATH = '/api/csp-report';

/** What the shop's pages may use: geolocation only on the shop's own origin (the pickup-point picker's "Najbližšie ku mne"). */
const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), geolocation=(self), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()';

/** Headers of every answer. `hsts`: the shop is reached over TLS (its public address is https). */
export function securityHeaders(options: { hsts: boolean }): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': PERMISSIONS_POLICY,
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    ...(options.hsts ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

/** Sets the headers on every answer of `app`, its errors and not-found answers included. */
export function addSecurityHeaders(app: FastifyInstance, options: { hsts: boolean }): void {
  const headers = securityHeaders(options);
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
}

/** The SHA-256 source expression of an inline script's text, as CSP compares it. */
export const scriptHash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const DATA_TYPE = /\btype\s*=\s*["']?application\/(?:ld\+)?json/i;

/** The hashes of every inline script the browser would run in `html` (not those with src, not JSON blocks). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, attributes, text] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes ?? '') || DATA_TYPE.test(attributes ?? '')) continue;
    hashes.push(scriptHash(text ?? ''));
  }
  return [...new Set(hashes)];
}

const TAG_MANAGER = ['https://www.googletagmanager.com'];
const ANALYTICS = ['https://www.google-analytics.com', 'https://*.google-analytics.com', 'https://*.analytics.google.com'];

/** The policy of a shop page. `gateway`: the card gateway's origin, the one other place a form of the shop may go. */
/**
 * `reportTo`: name the Reporting API endpoint too (the shop is served over https). Chromium then sends
 * reports only there and ignores report-uri, and it delivers no Reporting API report to a plain-http
 * page, so over http (`npm start` on localhost) the policy reports through report-uri alone.
 */
export function pagePolicy(options: {
  assetOrigin: string;
  inlineScripts: string[];
  tagManager: boolean;
  gateway: string | null;
  reportTo: boolean;
}): string {
  const asset = options.assetOrigin;
  const tagManager = options.tagManager ? TAG_MANAGER : [];
  const analytics = options.tagManager ? [...TAG_MANAGER, ...ANALYTICS] : [];
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", asset, ...options.inlineScripts, ...tagManager]],
    ['style-src', ["'self'", asset, "'unsafe-inline'"]],
    ['img-src', ["'self'", asset, 'data:', 'blob:', ...analytics]],
    ['font-src', ["'self'", asset, 'data:']],
    ['connect-src', ["'self'", asset, ...analytics]],
    ['manifest-src', ["'self'"]],
    ['worker-src', ["'none'"]],
    ['frame-src', ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
    ['form-action', ["'self'", ...(options.gateway ? [options.gateway] : [])]],
    ['report-uri', [CSP_REPORT_PATH]],
    ...(options.reportTo ? ([['report-to', ['csp']]] as [string, string[]][]) : []),
  ];
  return directives.map(([name, sources]) => `${name} ${[...new Set(sources)].join(' ')}`).join('; ');
}

/** The Reporting API's endpoint named in the policy's report-to. */
export const REPORTING_ENDPOINTS = `csp="${CSP_REPORT_PATH}"`;
