/**
 * The security headers every answer carries (pages, API, pictures, the areas' files), and the
 * Content-Security-Policy of the shop's pages.
 *
 * The policy admits inline scripts and styles by their SHA-256 only (no per-response nonce, which a
 * page cache or a CDN would repeat to every shopper): the shell's page has a fixed set of inline
 * scripts per shell build (its module bootstrap, the consent notice's, and the one that reads the
 * page's configuration from a JSON block) and of inline styles (the shell's stylesheet, the consent
 * notice's for a browser without JavaScript); a server-rendered page adds its area's styles, hashed
 * where the head is assembled. Data travels in JSON blocks, which the browser never runs. Style
 * attributes are refused (`style-src` has no 'unsafe-inline'); styles a script sets through the
 * CSS object model (React's `style`, constructed stylesheets) are not the policy's business.
 * Scripts otherwise come only from the shop's origin and the areas' asset origin, and Tag
 * Manager's one file on the pages where it may run (never the basket, checkout, payment or account
 * pages). Trusted Types are required for scripts: the only policy is the shop's own
 * (@shop/shared-kernel/react, trusted-types.ts), which admits sanitised content, JSON-LD and the
 * configured Tag Manager container.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { TAG_MANAGER_SCRIPT, TRUSTED_TYPES_POLICY } from '@shop/shared-kernel/rules';

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
/** The same of an inline style block's text. */
export const styleHash = scriptHash;

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

const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style>/gi;

/** The hashes of every inline style block in `html` (a `<noscript>`'s too: a browser without JavaScript applies it). */
export function inlineStyleHashes(html: string): string[] {
  return [...new Set([...html.matchAll(INLINE_STYLE)].map(([, text]) => styleHash(text ?? '')))];
}

/** Where Tag Manager's container sends what it measures (images and requests only: its scripts are not admitted). */
const ANALYTICS = [
  'https://www.googletagmanager.com',
  'https://www.google-analytics.com',
  'https://*.google-analytics.com',
  'https://*.analytics.google.com',
];

export type PagePolicy = {
  assetOrigin: string;
  /** Hashes of the inline scripts the page runs. */
  inlineScripts: string[];
  /** Hashes of the inline style blocks the page has. */
  inlineStyles: string[];
  /** Tag Manager may run on this page: a container is configured and the page is none of those it never runs on. */
  tagManager: boolean;
  /** The card gateway's origin, the one other place a form of the shop may go. */
  gateway: string | null;
  /**
   * Name the Reporting API endpoint too (the shop is served over https). Chromium then sends reports
   * only there and ignores report-uri, and it delivers no Reporting API report to a plain-http page,
   * so over http (`npm start` on localhost) the policy reports through report-uri alone.
   */
  reportTo: boolean;
  /**
   * A local override's loopback origin (one browser's page, web/preview-host.ts): its scripts are
   * loaded from there (script-src) and looked at when one fails to load (connect-src); nothing else.
   */
  localOrigin?: string | null;
};

/** The policy of a shop page. */
export function pagePolicy(options: PagePolicy): string {
  const asset = options.assetOrigin;
  // The container's one file, named exactly: CSP cannot pin its query (the container id); the Trusted
  // Types policy does, as it admits no other script address.
  const tagManager = options.tagManager ? [TAG_MANAGER_SCRIPT] : [];
  const analytics = options.tagManager ? ANALYTICS : [];
  const local = options.localOrigin ? [options.localOrigin] : [];
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", asset, ...local, ...options.inlineScripts, ...tagManager]],
    ['style-src', ["'self'", asset, ...options.inlineStyles]],
    ['img-src', ["'self'", asset, 'data:', 'blob:', ...analytics]],
    ['font-src', ["'self'", asset, 'data:']],
    ['connect-src', ["'self'", asset, ...local, ...analytics]],
    ['manifest-src', ["'self'"]],
    ['worker-src', ["'none'"]],
    ['frame-src', ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
    ['form-action', ["'self'", ...(options.gateway ? [options.gateway] : [])]],
    ['require-trusted-types-for', ["'script'"]],
    ['trusted-types', [TRUSTED_TYPES_POLICY]],
    ['report-uri', [CSP_REPORT_PATH]],
    ...(options.reportTo ? ([['report-to', ['csp']]] as [string, string[]][]) : []),
  ];
  return directives.map(([name, sources]) => `${name} ${[...new Set(sources)].join(' ')}`).join('; ');
}

/** The Reporting API's endpoint named in the policy's report-to. */
export const REPORTING_ENDPOINTS = `csp="${CSP_REPORT_PATH}"`;
