/**
 * What a browser may report (POST /api/telemetry): the batch's schema is the contract's
 * (`TelemetryBatch`, checked as it is, without coercion, whether it came as application/json or as
 * text/plain from navigator.sendBeacon); the body's size is bounded here.
 */

/** Bytes per request (the route's body limit; the API's default is 256 KB). */
export const TELEMETRY_BODY_LIMIT = 16 * 1024;
