/**
 * How the shoppers' browsers fare per area and version: the service other server code reads
 * (the operator's summary, the canary watchdog).
 */
import type { Db } from '../../db/database.ts';
import { minuteOf } from './client-metrics.repository.ts';

export type VersionHealth = { area: string; version: string; views: number; errors: number };

/** Page views and errors per area and version since `since` (inclusive, by minute). */
export async function clientHealth(db: Db, since: Date): Promise<VersionHealth[]> {
  const rows = await db
    .selectFrom('client_metrics')
    .select(['area', 'version'])
    .select((eb) => [eb.fn.sum<number | string>('views').as('views'), eb.fn.sum<number | string>('errors').as('errors')])
    .where('minute', '>=', minuteOf(since))
    .groupBy(['area', 'version'])
    .execute();
  // PostgreSQL's sum of integers is a bigint, which the driver hands over as text.
  return rows
    .map((row) => ({ area: row.area, version: row.version, views: Number(row.views), errors: Number(row.errors) }))
    .sort((a, b) => compareText(a.area, b.area) || b.views - a.views || compareText(a.version, b.version));
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
