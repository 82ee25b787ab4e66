/**
 * The client_vitals table: the shoppers' Web Vitals kept as distributions. Each value falls in a
 * log-spaced bucket (20 a decade: a bucket is about 12 % wide); a row counts the values of one
 * bucket per server hour, part, version, route and metric. A percentile over a range of hours is
 * then the sum of a few hundred counts, interpolated inside its bucket.
 */
import type { TelemetryEvent, VitalMetric } from '@shop/shared-kernel/contract';
import type { Db } from '../../../db/database.ts';

/** Buckets a decade. */
const PER_DECADE = 20;
/** CLS is counted in thousandths, so its buckets are as fine as the times' (ms). */
const CLS_SCALE = 1000;
/** The last bucket: values from about 89 s (or a CLS of 89) up. */
export const LAST_BUCKET = 100;

const scaleOf = (metric: string) => (metric === 'cls' ? CLS_SCALE : 1);

/** The bucket of a value: 0 holds [0, 1) (in ms, or CLS thousandths); k ≥ 1 holds [10^((k-1)/20), 10^(k/20)). */
export function bucketOf(metric: string, value: number): number {
  const scaled = value * scaleOf(metric);
  if (!(scaled >= 1)) return 0;
  return Math.min(LAST_BUCKET, Math.floor(Math.log10(scaled) * PER_DECADE + 1e-9) + 1);
}

/** The bucket's bounds in the metric's unit (ms, or the CLS score). */
export function bucketBounds(metric: string, bucket: number): [number, number] {
  const scale = scaleOf(metric);
  if (bucket <= 0) return [0, 1 / scale];
  return [10 ** ((bucket - 1) / PER_DECADE) / scale, 10 ** (bucket / PER_DECADE) / scale];
}

/**
 * The p-quantile of bucketed counts (`[bucket, count]`, any order): the bucket it falls in, and
 * inside it a geometric interpolation (a linear one in bucket 0). null without counts.
 */
export function quantile(metric: string, counts: readonly (readonly [number, number])[], q = 0.75): number | null {
  const sorted = [...counts].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  for (const [bucket, n] of sorted) {
    if (below + n >= rank) {
      const [low, high] = bucketBounds(metric, bucket);
      const share = Math.min(1, Math.max(0, (rank - below) / n));
      const value = bucket <= 0 ? low + (high - low) * share : low * (high / low) ** share;
      return metric === 'cls' ? Math.round(value * 1000) / 1000 : Math.round(value);
    }
    below += n;
  }
  /* c8 ignore next */
  return null;
}

/** The hour a moment falls in, as stored: ISO UTC (`2026-11-27T13:00:00.000Z`). */
export function hourOf(at: Date): string {
  return new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000).toISOString();
}

type VitalEvent = Pick<TelemetryEvent, 'type' | 'area' | 'version' | 'route' | 'metric' | 'value'>;
type Key = { part: string; version: string; route: string; metric: string; bucket: number };

/**
 * Adds a batch's vitals to the counts of the hour `at` falls in (the server's clock): one statement,
 * one row per distinct key, inserted or its count raised (concurrent batches never lose a count;
 * the rows sorted, so they take their locks in the same order on PostgreSQL).
 */
export async function recordVitals(db: Db, events: readonly VitalEvent[], at: Date): Promise<number> {
  const counts = new Map<string, Key & { count: number }>();
  for (const event of events) {
    if (event.type !== 'vital' || event.metric === undefined || event.value === undefined) continue;
    const key: Key = {
      part: event.area,
      version: event.version,
      route: event.route ?? '',
      metric: event.metric,
      bucket: bucketOf(event.metric, event.value),
    };
    const id = `${key.part}\u0000${key.version}\u0000${key.route}\u0000${key.metric}\u0000${String(key.bucket).padStart(3, '0')}`;
    const entry = counts.get(id) ?? { ...key, count: 0 };
    entry.count += 1;
    counts.set(id, entry);
  }
  if (counts.size === 0) return 0;
  const hour = hourOf(at);
  const rows = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => ({ hour, ...row }));
  await db
    .insertInto('client_vitals')
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['hour', 'part', 'version', 'route', 'metric', 'bucket'])
        .doUpdateSet((eb) => ({ count: eb('client_vitals.count', '+', eb.ref('excluded.count')) })),
    )
    .execute();
  return rows.length;
}

export type VitalSummary = { part: string; version: string; metric: VitalMetric; samples: number; p75: number | null };

/** The bucket counts summed per part, version and metric over the hours from `since` to `until` (both included). */
async function bucketCounts(db: Db, range: { since: Date; until: Date }, only?: { part: string; version: string; metric: string }) {
  let query = db
    .selectFrom('client_vitals')
    .select(['part', 'version', 'metric', 'bucket'])
    .select((eb) => eb.fn.sum<number | string>('count').as('count'))
    .where('hour', '>=', hourOf(range.since))
    .where('hour', '<=', hourOf(range.until));
  if (only) query = query.where('part', '=', only.part).where('version', '=', only.version).where('metric', '=', only.metric);
  const rows = await query.groupBy(['part', 'version', 'metric', 'bucket']).execute();
  // PostgreSQL's sum of integers is a bigint, which the driver hands over as text.
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

/** Samples and p75 per part, version and metric over the hours from `since` to `until` (both included). */
export async function vitalsSummary(db: Db, range: { since: Date; until: Date }): Promise<VitalSummary[]> {
  const groups = new Map<string, { part: string; version: string; metric: VitalMetric; counts: [number, number][] }>();
  for (const row of await bucketCounts(db, range)) {
    const id = `${row.part}\u0000${row.version}\u0000${row.metric}`;
    const group = groups.get(id) ?? { part: row.part, version: row.version, metric: row.metric as VitalMetric, counts: [] };
    group.counts.push([row.bucket, row.count]);
    groups.set(id, group);
  }
  return [...groups.values()].map(({ counts, ...key }) => ({
    ...key,
    samples: counts.reduce((sum, [, n]) => sum + n, 0),
    p75: quantile(key.metric, counts),
  }));
}

/** The p75 and samples of one part version's metric from the hour `sinceMs` falls in until now. */
export async function p75For(
  db: Db,
  part: string,
  version: string,
  metric: VitalMetric,
  sinceMs: number,
  now = Date.now(),
): Promise<{ p75: number | null; samples: number }> {
  const rows = await bucketCounts(db, { since: new Date(sinceMs), until: new Date(now) }, { part, version, metric });
  const counts = rows.map((row) => [row.bucket, row.count] as const);
  return { p75: quantile(metric, counts), samples: counts.reduce((sum, [, n]) => sum + n, 0) };
}

/** What the canary watch reads (release's canary judgement is written against this shape). */
export type VitalsSource = {
  p75(part: string, version: string, metric: 'lcp' | 'inp', since: Date): Promise<{ p75: number | null; samples: number }>;
};

/** The vitals of a database: storing a batch, the summary /ops shows, and the canary watch's source. */
export function vitalsRepository(db: Db) {
  return {
    record: (events: readonly VitalEvent[], at: Date) => recordVitals(db, events, at),
    summary: (range: { since: Date; until: Date }) => vitalsSummary(db, range),
    /** The canary watch's source (VitalsSource). */
    p75: ((part, version, metric, since) => p75For(db, part, version, metric, since.getTime())) satisfies VitalsSource['p75'],
    p75For: (part: string, version: string, metric: VitalMetric, sinceMs: number) => p75For(db, part, version, metric, sinceMs),
  };
}
