/**
 * How the shoppers' browsers fare per area and version: the service other server code reads
 * (the operator's summary, the canary watchdog). Counted in telemetry sessions (a short-lived id
 * the server gave one browser, client-sessions.repository.ts): `views` are the sessions that
 * showed a version, `errors` those of them that met an error in it. However many reports a page
 * sends, its session counts once, so no sender can steer a canary's error rate by repeating itself.
 */
import type { Db } from '../../../db/database.ts';
import { sessionCountsSince } from './client-sessions.repository.ts';

export type VersionHealth = { area: string; version: string; views: number; errors: number };

/** Sessions that showed each area version, and those that met an error in it, among the sessions seen since `since`. */
export async function clientHealth(db: Db, since: Date): Promise<VersionHealth[]> {
  return (await sessionCountsSince(db, since)).sort(
    (a, b) => compareText(a.area, b.area) || b.views - a.views || compareText(a.version, b.version),
  );
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
