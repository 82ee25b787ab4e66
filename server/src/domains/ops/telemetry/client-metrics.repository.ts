/** The client_metrics table: page views and errors counted per minute, area and version. */
import type { TelemetryEvent } from '@shop/shared-kernel/contract';
import type { Db } from '../../../db/database.ts';

/** The minute a moment falls in, as stored: ISO UTC with zero seconds (`2026-11-23T19:41:00.000Z`). */
export function minuteOf(at: Date): string {
  return new Date(Math.floor(at.getTime() / 60_000) * 60_000).toISOString();
}

type Counts = { area: string; version: string; views: number; errors: number };

/** The batch summed per area and version, in a fixed order (so concurrent batches lock rows in the same order). */
export function aggregate(events: readonly Pick<TelemetryEvent, 'type' | 'area' | 'version'>[]): Counts[] {
  const byKey = new Map<string, Counts>();
  for (const event of events) {
    // Vitals are kept as distributions (vitals.repository.ts), not counted here.
    if (event.type !== 'view' && event.type !== 'error') continue;
    const key = `${event.area}\u0000${event.version}`;
    const counts = byKey.get(key) ?? { area: event.area, version: event.version, views: 0, errors: 0 };
    if (event.type === 'view') counts.views += 1;
    else counts.errors += 1;
    byKey.set(key, counts);
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, counts]) => counts);
}

/**
 * Adds a batch to the counts of the minute `at` falls in (the server's clock, never the client's):
 * one upsert per distinct area and version, all in one transaction.
 */
export async function countEvents(db: Db, events: readonly Pick<TelemetryEvent, 'type' | 'area' | 'version'>[], at: Date): Promise<void> {
  const minute = minuteOf(at);
  const rows = aggregate(events);
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const row of rows) {
      await trx
        .insertInto('client_metrics')
        .values({ minute, ...row })
        .onConflict((oc) =>
          oc.columns(['minute', 'area', 'version']).doUpdateSet((eb) => ({
            views: eb('client_metrics.views', '+', eb.ref('excluded.views')),
            errors: eb('client_metrics.errors', '+', eb.ref('excluded.errors')),
          })),
        )
        .execute();
    }
  });
}

/** Page views and errors summed per area and version from the minute `since` falls in. */
export async function countsSince(db: Db, since: Date) {
  const rows = await db
    .selectFrom('client_metrics')
    .select(['area', 'version'])
    .select((eb) => [eb.fn.sum<number | string>('views').as('views'), eb.fn.sum<number | string>('errors').as('errors')])
    .where('minute', '>=', minuteOf(since))
    .groupBy(['area', 'version'])
    .execute();
  // PostgreSQL's sum of integers is a bigint, which the driver hands over as text.
  return rows.map((row) => ({ area: row.area, version: row.version, views: Number(row.views), errors: Number(row.errors) }));
}
