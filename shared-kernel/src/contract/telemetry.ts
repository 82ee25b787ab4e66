/**
 * Client telemetry: what the shell reports from the shoppers' browsers (page views and client
 * errors per area and version, `POST /api/telemetry`, usually by `navigator.sendBeacon`) and what
 * the operator reads back (`GET /api/telemetry/summary`).
 */
import type { ReleasePart } from './domain.ts';

/** The part of the shop an event belongs to (the shell or an area). */
export type TelemetryArea = ReleasePart;

/** How a client error happened: an area's code failed to load, an error boundary caught a render error, an uncaught error, an unhandled rejection. */
export type ClientErrorKind = 'load-failed' | 'boundary' | 'uncaught' | 'rejection';

export type TelemetryEvent = {
  type: 'view' | 'error';
  area: TelemetryArea;
  /** The area's released version (`^[0-9A-Za-z.+-]{1,64}$`). */
  version: string;
  /** The route's name (`^[a-z0-9-]{1,40}$`), never its URL. */
  route?: string;
  /** Errors only. */
  kind?: ClientErrorKind;
  /** Errors only; at most 300 characters, scrubbed of query strings, e-mail addresses and long numbers. */
  message?: string;
};

/** At most 50 events and 16 KB per request. */
export type TelemetryBatch = { events: TelemetryEvent[] };

export type TelemetrySummaryRow = {
  area: TelemetryArea;
  version: string;
  views: number;
  errors: number;
  /** errors / max(views, 1), rounded to 4 decimals. */
  errorRate: number;
};

export type TelemetrySummary = {
  /** The first minute counted (ISO, UTC). */
  since: string;
  /** By area, then by views (most first). */
  rows: TelemetrySummaryRow[];
};
