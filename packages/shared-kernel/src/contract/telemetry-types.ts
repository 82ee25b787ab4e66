/**
 * Client telemetry: what the shell reports from the shoppers' browsers (page views and client
 * errors per area and version, `POST /api/telemetry`, usually by `navigator.sendBeacon`) and what
 * the operator reads back (`GET /api/telemetry/summary`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_CLIENT_MESSAGE_LENGTH } from '../rules/telemetry-rules.ts';
import { ReleasePart } from './release-types.ts';

/** Events per request (the route's body limit is 16 KB). */
export const MAX_TELEMETRY_EVENTS = 50;

/** The part of the shop an event belongs to (the shell or an area). */
export type TelemetryArea = Static<typeof TelemetryArea>;
export const TelemetryArea = ReleasePart;

/** How a client error happened: an area's code failed to load, an error boundary caught a render error, an uncaught error, an unhandled rejection. */
export type ClientErrorKind = Static<typeof ClientErrorKind>;
export const ClientErrorKind = Type.Union([
  Type.Literal('load-failed'),
  Type.Literal('boundary'),
  Type.Literal('uncaught'),
  Type.Literal('rejection'),
  Type.Literal('hydration'),
]);

export type TelemetryEvent = Static<typeof TelemetryEvent>;
export const TelemetryEvent = Type.Object(
  {
    type: Type.Union([Type.Literal('view'), Type.Literal('error')]),
    area: TelemetryArea,
    /** The area's released version. */
    version: Type.String({ pattern: '^[0-9A-Za-z.+-]{1,64}$' }),
    /** The route's name, never its URL. */
    route: Type.Optional(Type.String({ pattern: '^[a-z0-9-]{1,40}$' })),
    /** Errors only. */
    kind: Type.Optional(ClientErrorKind),
    /** Errors only; scrubbed of query strings, e-mail addresses and long numbers. */
    message: Type.Optional(Type.String({ maxLength: MAX_CLIENT_MESSAGE_LENGTH })),
  },
  {
    additionalProperties: false,
    // A page view has no kind and no message (those describe errors).
    if: { properties: { type: { const: 'view' } } },
    then: { not: { anyOf: [{ required: ['kind'] }, { required: ['message'] }] } },
  },
);

export type TelemetryBatch = Static<typeof TelemetryBatch>;
export const TelemetryBatch = Type.Object(
  { events: Type.Array(TelemetryEvent, { minItems: 1, maxItems: MAX_TELEMETRY_EVENTS }) },
  { additionalProperties: false },
);

export type TelemetrySummaryRow = Static<typeof TelemetrySummaryRow>;
export const TelemetrySummaryRow = Type.Object({
  area: TelemetryArea,
  version: Type.String(),
  views: Type.Integer(),
  errors: Type.Integer(),
  /** errors / max(views, 1), rounded to 4 decimals. */
  errorRate: Type.Number(),
});

export type TelemetrySummary = Static<typeof TelemetrySummary>;
export const TelemetrySummary = Type.Object({
  /** The first minute counted (ISO, UTC). */
  since: Type.String(),
  /** By area, then by views (most first). */
  rows: Type.Array(TelemetrySummaryRow),
});
