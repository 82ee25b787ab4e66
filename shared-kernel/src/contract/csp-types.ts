/**
 * Content-Security-Policy violations the shoppers' browsers reported, as the operator sees them on
 * /ops (`GET /api/ops/csp-violations`): counted per day, page type, part, directive and blocked origin.
 */
import { Type, type Static } from '@sinclair/typebox';
import { AREAS } from './parts.ts';
import { PAGE_TYPES, type PageType } from './shop-paths.ts';

/** The shop's page kinds a violation's page is counted under (a closed set: also a metric label). */
export const CSP_PAGE_TYPES = PAGE_TYPES;
export type CspPageType = PageType;

/**
 * Which part's file was blocked or caused it: an area or the shell by the file's path, `inline` for
 * an inline script, handler or style (also eval, data: and blob:), `external` for another origin.
 */
export const CSP_PARTS = ['shell', ...AREAS, 'inline', 'external', 'other'] as const;
export type CspPart = (typeof CSP_PARTS)[number];

export type CspViolationGroup = Static<typeof CspViolationGroup>;
export const CspViolationGroup = Type.Object({
  page: Type.String({ maxLength: 20 }),
  part: Type.String({ maxLength: 20 }),
  directive: Type.String({ maxLength: 40 }),
  /** The blocked address's origin (never its path or query), or `inline`, `eval`, `data`, `blob`. */
  blockedOrigin: Type.String({ maxLength: 120 }),
  count: Type.Integer({ minimum: 0 }),
  /** ISO, UTC. */
  firstSeen: Type.String(),
  lastSeen: Type.String(),
});

export type CspViolationReport = Static<typeof CspViolationReport>;
export const CspViolationReport = Type.Object({
  /** The first day counted (UTC, YYYY-MM-DD): the last 7 days, today included. */
  since: Type.String(),
  /** Most frequent first; page, part, directive and origin `other` together: what came beyond a day's row limit. */
  groups: Type.Array(CspViolationGroup),
});
