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
