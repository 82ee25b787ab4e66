import type { Selectable } from 'kysely';

/**
 * The Web Vitals the shoppers' browsers report (POST /api/telemetry, events of type `vital`):
 * how many values fell in each log-spaced bucket, per server hour, part, version of that part,
 * route and metric (domains/ops/telemetry/vitals.repository.ts). No shopper, page address or element kept.
 */
export interface ClientVitalTable {
  /** The server's hour the reports arrived in: ISO UTC (`2026-11-27T13:00:00.000Z`). */
  hour: string;
  /** shell | catalog | checkout | account | content. */
  part: string;
  version: string;
  /** The route's name (`product`), or '' when the browser named none. */
  route: string;
  /** lcp | inp | cls | fcp | ttfb. */
  metric: string;
  /** The value's bucket (vitals.repository.ts: bucketOf). */
  bucket: number;
  count: number;
}

export type ClientVitalRow = Selectable<ClientVitalTable>;
