/**
 * Pickup points: searched by town, PSČ or name (diacritics and spaces do not matter), nearest
 * first when the browser gives a position. The partner's list is small (tens of points), so it
 * is read whole and matched here, the same way on every database.
 */
import type { PickupPoint } from '@shop/shared-kernel/contract';
import { PICKUP_POINT_LIMITS } from '@shop/shared-kernel/schemas';
import type { DbOrTrx } from '../../../db/database.ts';
import type { PickupPointTable } from '../../../db/orders.table.ts';
import { foldText } from '../../../infra/pure/format.ts';

type Row = Omit<PickupPointTable, 'pp_active'>;

function toPoint(row: Row, distanceKm: number | null): PickupPoint {
  return {
    code: row.pp_code,
    name: row.pp_name,
    street: row.pp_street,
    zip: row.pp_zip,
    city: row.pp_city,
    hours: row.pp_hours,
    lat: row.pp_lat,
    lon: row.pp_lon,
    distanceKm,
  };
}

/** Great-circle distance in kilometres. */
export function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

const COLUMNS = ['pp_code', 'pp_name', 'pp_street', 'pp_zip', 'pp_city', 'pp_lat', 'pp_lon', 'pp_hours'] as const;
const compact = (text: string) => foldText(text).replace(/\s+/g, '');

export async function findPickupPoints(db: DbOrTrx, query: { q?: string; lat?: number; lon?: number }): Promise<PickupPoint[]> {
  const rows = await db.selectFrom('pickup_points').select(COLUMNS).where('pp_active', '=', 1).execute();
  const wanted = compact(query.q ?? '');
  const matching =
    wanted === ''
      ? rows
      : rows.filter((row) => [row.pp_city, row.pp_zip, row.pp_name, row.pp_street].some((field) => compact(field).includes(wanted)));
  const here = query.lat !== undefined && query.lon !== undefined ? { lat: query.lat, lon: query.lon } : null;
  const points = matching.map((row) =>
    toPoint(row, here ? Math.round(distanceKm(here, { lat: row.pp_lat, lon: row.pp_lon }) * 10) / 10 : null),
  );
  points.sort(
    (a, b) => (here ? a.distanceKm! - b.distanceKm! : 0) || a.city.localeCompare(b.city, 'sk') || a.name.localeCompare(b.name, 'sk'),
  );
  return points.slice(0, PICKUP_POINT_LIMITS.results);
}

/** An active pickup point by its code, without a distance (what an order keeps). */
export async function pickupPointByCode(db: DbOrTrx, code: string): Promise<PickupPoint | null> {
  const row = await db
    .selectFrom('pickup_points')
    .select(COLUMNS)
    .where('pp_code', '=', code)
    .where('pp_active', '=', 1)
    .executeTakeFirst();
  return row ? toPoint(row, null) : null;
}
