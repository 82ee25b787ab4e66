/** Client telemetry: page views and client errors per area and version. */
import { Type, type Static } from '@sinclair/typebox';
import { ReleasePart } from './release-types.ts';

export type TelemetryArea = Static<typeof TelemetryArea>
export const TelemetryArea = ReleasePart

export type ClientErrorKind = Static<typeof ClientErrorKind>
export const ClientErrorKind = Type.Union([
Type.Literal('load-failed'),
Type.Literal('boundary'),
Type.Literal('uncaught'),
Type.Literal('rejection')
])

export type TelemetryEvent = Static<typeof TelemetryEvent>
export const TelemetryEvent = Type.Object({
type: Type.Union([
Type.Literal('view'),
Type.Literal('error')
]),
area: TelemetryArea,
version: Type.String(),
route: Type.Optional(Type.String()),
kind: Type.Optional(ClientErrorKind),
message: Type.Optional(Type.String())
})

export type TelemetryBatch = Static<typeof TelemetryBatch>
export const TelemetryBatch = Type.Object({
events: Type.Array(TelemetryEvent)
})

export type TelemetrySummaryRow = Static<typeof TelemetrySummaryRow>
export const TelemetrySummaryRow = Type.Object({
area: TelemetryArea,
version: Type.String(),
views: Type.Number(),
errors: Type.Number(),
errorRate: Type.Number()
})

export type TelemetrySummary = Static<typeof TelemetrySummary>
export const TelemetrySummary = Type.Object({
since: Type.String(),
rows: Type.Array(TelemetrySummaryRow)
})
