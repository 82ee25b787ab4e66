/** The operator's releases and the client telemetry (TO BE CONVERTED to a defineCalls table). */
import type { ReleasePart, ReleaseStatus } from './release-types.ts';
import type { TelemetryBatch, TelemetrySummary } from './telemetry-types.ts';

type ReleaseChange = { data: { part: ReleasePart; version: string; from: string | null; changed: boolean } };

export type OpsCalls = {
  // operator (Bearer operator token)
  'GET /api/ops/releases': { answer: { data: ReleaseStatus } };
  'POST /api/ops/releases/:part/rollback': { body: { version?: string; reason?: string }; answer: ReleaseChange };
  'POST /api/ops/releases/:part/pin': { body: { reason?: string }; answer: { data: { pinned: boolean } } };
  'POST /api/ops/releases/:part/unpin': { body: { reason?: string }; answer: { data: { pinned: boolean } } };
  'POST /api/ops/releases/:part/promote': { body: { version?: string }; answer: ReleaseChange };
  'POST /api/ops/releases/:part/abort': { body: { version?: string; reason?: string }; answer: ReleaseChange };
  'POST /api/ops/releases/:part/preview': { body: { version: string }; answer: { data: { url: string; expires: string } } };
  // client telemetry (public; JSON or text/plain as navigator.sendBeacon sends it); 204 No Content
  'POST /api/telemetry': { body: TelemetryBatch; answer: void };
  'GET /api/telemetry/summary': { query: { minutes?: number }; answer: { data: TelemetrySummary } };
};
