/**
 * How the shoppers' browsers fare per area and version: the service other server code reads
 * (the operator's summary, the canary watchdog).
 */
import type { Db } from '../../../db/database.ts';
import { countsSince } from './client-metrics.repository.ts';

export type VersionHealth = { area: string; version: string; views: number; errors: number };

/** Page views and errors per area and version since `since` (inclusive, by minute). */
export async function clientHealth(db: Db, since: Date): Promise<VersionHealth[]> {
  return (await countsSince(db, since)).sort(
    (a, b) => compareText(a.area, b.area) || b.views - a.views || compareText(a.version, b.version),
  );
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
