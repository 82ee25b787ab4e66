/**
 * Client telemetry: what the shell reports from the shoppers' browsers (page views, client
 * errors, Web Vitals and additions to the basket per area and version, `POST /api/telemetry`, usually by `navigator.sendBeacon`) and what
 * the operator reads back (`GET /api/telemetry/summary`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_CLIENT_MESSAGE_LENGTH, MAX_VITAL_CLS, MAX_VITAL_MS, MAX_VITAL_TARGET_LENGTH } from '../rules/telemetry-rules.ts';
import { MAX_FRAME_FUNCTION_LENGTH, MAX_FRAME_POSITION, MAX_FRAME_URL_LENGTH, MAX_STACK_FRAMES } from '../rules/client-stack.ts';
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
const NotAVital = { properties: { type: { enum: ['view', 'error', 'basket-add'] } } };

/** One frame of a client error's stack as the browser reported it (minified), scrubbed (rules/client-stack.ts). */
export type ClientStackFrame = Static<typeof ClientStackFrame>;
export const ClientStackFrame = Type.Object(
  {
    fn: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_FRAME_FUNCTION_LENGTH })),
    url: Type.String({ minLength: 1, maxLength: MAX_FRAME_URL_LENGTH }),
    line: Type.Integer({ minimum: 0, maximum: MAX_FRAME_POSITION }),
    column: Type.Integer({ minimum: 0, maximum: MAX_FRAME_POSITION }),
  },
  { additionalProperties: false },
);

export type TelemetryEvent = Static<typeof TelemetryEvent>;
export const TelemetryEvent = Type.Object(
  {
    /** `basket-add`: the shopper added pieces to the basket on a page of this area version (the kernel bus's `basket:added`). */
    type: Type.Union([Type.Literal('view'), Type.Literal('error'), Type.Literal('vital'), Type.Literal('basket-add')]),
    area: TelemetryArea,
    /** The area's released version. */
    version: Type.String({ pattern: '^[0-9A-Za-z.+-]{1,64}$' }),
    /** The route's name, never its URL. */
    route: Type.Optional(Type.String({ pattern: '^[a-z0-9-]{1,40}$' })),
    /** Errors only. */
    kind: Type.Optional(ClientErrorKind),
    /** Errors only; scrubbed of query strings, e-mail addresses and long numbers. */
    message: Type.Optional(Type.String({ maxLength: MAX_CLIENT_MESSAGE_LENGTH })),
    /** Errors only: the stack's frames, innermost first, scrubbed; the server maps them with the version's source maps. */
    stack: Type.Optional(Type.Array(ClientStackFrame, { maxItems: MAX_STACK_FRAMES })),
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
      // A page view or an addition to the basket has no kind, message or stack (those describe errors).
      {
        if: { properties: { type: { enum: ['view', 'basket-add'] } } },
        then: { not: { anyOf: [{ required: ['kind'] }, { required: ['message'] }, { required: ['stack'] }] } },
      },
      // A view, an error or an addition to the basket carries nothing of a vital.
      {
        if: NotAVital,
        then: { not: { anyOf: [{ required: ['metric'] }, { required: ['value'] }, { required: ['ssr'] }, { required: ['target'] }] } },
      },
      // A vital names its metric and value, and nothing of an error; a layout shift score is at most MAX_VITAL_CLS.
      {
        if: { properties: { type: { const: 'vital' } } },
        then: {
          required: ['metric', 'value'],
          not: { anyOf: [{ required: ['kind'] }, { required: ['message'] }, { required: ['stack'] }] },
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

/** A frame of a client error's stack as the shop's server mapped it with the version's source map. */
export type MappedStackFrame = Static<typeof MappedStackFrame>;
export const MappedStackFrame = Type.Object({
  /** The original function (the enclosing declaration in the original source), else the name the browser gave; null: none. */
  fn: Type.Union([Type.String(), Type.Null()]),
  /** The original source file (e.g. `src/pages/cart-page.tsx`), or the reported address's path when not mapped. */
  file: Type.String(),
  /** 1-based line and column in `file`. */
  line: Type.Integer(),
  column: Type.Integer(),
  /** Mapped with the version's signed source map; false: as the browser reported it. */
  mapped: Type.Boolean(),
});

/** Client errors of one area version, route and top frame (the innermost frame of the part's own code). */
export type ClientErrorGroup = Static<typeof ClientErrorGroup>;
export const ClientErrorGroup = Type.Object({
  area: TelemetryArea,
  version: Type.String(),
  /** The route's name; '' when the error came outside a route. */
  route: Type.String(),
  /** The group's top frame as one line: `function (file:line:column)`. */
  topFrame: Type.String(),
  /** The last report's kind, message (scrubbed) and mapped stack. */
  kind: Type.String(),
  message: Type.String(),
  stack: Type.Array(MappedStackFrame),
  /** Reports in the group (each browser reports a message once per page load). */
  count: Type.Integer(),
  /** The first and the last report (ISO, UTC). */
  firstAt: Type.String(),
  lastAt: Type.String(),
});

export type ClientErrorReport = Static<typeof ClientErrorReport>;
export const ClientErrorReport = Type.Object({
  /** Groups last reported at or after this (ISO, UTC). */
  since: Type.String(),
  /** Most reports first. */
  groups: Type.Array(ClientErrorGroup),
});
