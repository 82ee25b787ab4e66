/**
 * Client telemetry: what the shell reports from the shoppers' browsers (page views, client
 * errors and Web Vitals per area and version, `POST /api/telemetry`, usually by `navigator.sendBeacon`) and what
 * the operator reads back (`GET /api/telemetry/summary`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_CLIENT_MESSAGE_LENGTH, MAX_VITAL_CLS, MAX_VITAL_MS, MAX_VITAL_TARGET_LENGTH } from '../rules/telemetry-rules.ts';
import { ReleasePart } from './release-types.ts';

/** Events per request (the route's body limit is 16 KB). */
export const MAX_TELEMETRY_EVENTS = 50;

/** The part of the shop an event belongs to (the shell or an area). */
export type TelemetryArea = Static<typeof TelemetryArea>;
export const TelemetryArea = ReleasePart;

/**
 * How a client error happened: an area's code failed to load, an error boundary caught a render error, an uncaught error, an unhandled
 * rejection, a hydration mismatch. `recovered` is no error: an area's code loaded after a failed attempt (a retry, or the shop's own
 * origin in place of the asset origin); it is counted apart and never as a failure.
 */
export type ClientErrorKind = Static<typeof ClientErrorKind>;
export const ClientErrorKind = Type.Union([
  Type.Literal('load-failed'),
  Type.Literal('boundary'),
  Type.Literal('uncaught'),
  Type.Literal('rejection'),
  Type.Literal('hydration'),
  Type.Literal('recovered'),
]);

/** The Web Vitals a browser reports (Google's web-vitals library): times in ms, CLS unitless. */
export type VitalMetric = Static<typeof VitalMetric>;
export const VitalMetric = Type.Union([
  Type.Literal('lcp'),
  Type.Literal('inp'),
  Type.Literal('cls'),
  Type.Literal('fcp'),
  Type.Literal('ttfb'),
]);
const ViewOrError = { properties: { type: { enum: ['view', 'error'] } } };

export type TelemetryEvent = Static<typeof TelemetryEvent>;
export const TelemetryEvent = Type.Object(
  {
    type: Type.Union([Type.Literal('view'), Type.Literal('error'), Type.Literal('vital')]),
    area: TelemetryArea,
    /** The area's released version. */
    version: Type.String({ pattern: '^[0-9A-Za-z.+-]{1,64}$' }),
    /** The route's name, never its URL. */
    route: Type.Optional(Type.String({ pattern: '^[a-z0-9-]{1,40}$' })),
    /** Errors only. */
    kind: Type.Optional(ClientErrorKind),
    /** Errors only; scrubbed of query strings, e-mail addresses and long numbers. */
    message: Type.Optional(Type.String({ maxLength: MAX_CLIENT_MESSAGE_LENGTH })),
    /** Vitals only: which one. */
    metric: Type.Optional(VitalMetric),
    /** Vitals only: ms (lcp, inp, fcp, ttfb) or the layout shift score (cls). */
    value: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_VITAL_MS })),
    /** Vitals only: the page came server-rendered (its first view), or rendered in the browser. */
    ssr: Type.Optional(Type.Boolean()),
    /** Vitals only: the element it is about (a selector without query or numbers), for the log. */
    target: Type.Optional(Type.String({ maxLength: MAX_VITAL_TARGET_LENGTH, pattern: '^[A-Za-z0-9_.#>:() *\\[\\]="\'-]*$' })),
  },
  {
    additionalProperties: false,
    allOf: [
      // A page view has no kind and no message (those describe errors).
      { if: { properties: { type: { const: 'view' } } }, then: { not: { anyOf: [{ required: ['kind'] }, { required: ['message'] }] } } },
      // A view or an error carries nothing of a vital.
      {
        if: ViewOrError,
        then: { not: { anyOf: [{ required: ['metric'] }, { required: ['value'] }, { required: ['ssr'] }, { required: ['target'] }] } },
      },
      // A vital names its metric and value, and nothing of an error; a layout shift score is at most MAX_VITAL_CLS.
      {
        if: { properties: { type: { const: 'vital' } } },
        then: {
          required: ['metric', 'value'],
          not: { anyOf: [{ required: ['kind'] }, { required: ['message'] }] },
          if: { properties: { metric: { const: 'cls' } } },
          then: { properties: { value: { type: 'number', maximum: MAX_VITAL_CLS } } },
        },
      },
    ],
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

/** One metric of one area version over the window: the 75th percentile (ms, or the CLS score) of its samples. */
export type VitalP75 = Static<typeof VitalP75>;
export const VitalP75 = Type.Object({
  metric: VitalMetric,
  /** null without samples. */
  p75: Type.Union([Type.Number(), Type.Null()]),
  samples: Type.Integer({ minimum: 0 }),
});

export type VitalsRow = Static<typeof VitalsRow>;
export const VitalsRow = Type.Object({
  area: TelemetryArea,
  version: Type.String(),
  /** In the registry now: the stable version, the canary, or neither (an earlier version). */
  state: Type.Union([Type.Literal('stable'), Type.Literal('canary'), Type.Literal('other')]),
  /** lcp, inp, cls, fcp, ttfb in that order, each with its samples (0: none). */
  metrics: Type.Array(VitalP75),
});

export type VitalsReport = Static<typeof VitalsReport>;
export const VitalsReport = Type.Object({
  /** The first hour counted and the end of the window (ISO, UTC). */
  since: Type.String(),
  until: Type.String(),
  hours: Type.Integer(),
  /** By area; the stable version first, then the canary, then the others by samples. */
  rows: Type.Array(VitalsRow),
});
