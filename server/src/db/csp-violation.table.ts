import type { Selectable } from 'kysely';

/**
 * Content-Security-Policy violations the browsers reported (POST /api/csp-report), counted per
 * server day and what they were about; at most a fixed number of rows a day, the rest counted in
 * the day's `other` row (domains/ops/telemetry/csp-violations.repository.ts).
 */
export interface CspViolationTable {
  /** The server's day the reports arrived on: ISO UTC date (`2026-11-27`). */
  day: string;
  /** The page type: home, category, product, cart, checkout, account, content, other. */
  page: string;
  /** shell, catalog, checkout, account, content, inline, external, other. */
  part: string;
  /** The effective directive (script-src-elem, …) or other. */
  directive: string;
  /** The blocked address's origin, or inline, eval, data, blob. */
  blocked_origin: string;
  violations: number;
  /** ISO, UTC. */
  first_seen: string;
  last_seen: string;
}

export type CspViolationRow = Selectable<CspViolationTable>;
