import type { Generated, Selectable } from 'kysely';

/**
 * What the shoppers' browsers report (POST /api/telemetry): page views and client errors,
 * counted per minute, area and version of that area. No shopper, address or message is kept:
 * messages go to the log only.
 */
export interface ClientMetricTable {
  /** The server's minute the reports arrived in: ISO UTC, seconds zero (`2026-11-23T19:41:00.000Z`). */
  minute: string;
  /** shell | catalog | checkout | account | content. */
  area: string;
  /** The area's released version the browser ran. */
  version: string;
  views: Generated<number>;
  errors: Generated<number>;
}

export type ClientMetricRow = Selectable<ClientMetricTable>;

/**
 * Per telemetry session (a random id the server issued to one browser for a short while) and part
 * version: what the canary watch counts, each session once.
 */
export interface ClientSessionTable {
  session: string;
  /** shell | catalog | checkout | account | content. */
  part: string;
  version: string;
  /** ISO UTC. */
  first_seen: string;
  last_seen: string;
  /** 1: the session showed a page of this version. */
  viewed: Generated<number>;
  /** 1: the session met an error in this version. */
  errored: Generated<number>;
  /** 1: the session showed the checkout's order step in this version (the commerce guardrail's denominator). */
  order_step: Generated<number>;
  /** 1: the session showed a product page of this (catalog) version (the add-to-basket guardrail's denominator). */
  product_view: Generated<number>;
  /** 1: the session added to the basket on a page of this version. */
  basket_add: Generated<number>;
  /** 1: the session showed the checkout's basket step, or its contact step, in this version (the checkout progress guardrail). */
  basket_step: Generated<number>;
  contact_step: Generated<number>;
  /** The session's worst LCP and INP in this version (ms), null: none reported. */
  lcp: number | null;
  inp: number | null;
}
