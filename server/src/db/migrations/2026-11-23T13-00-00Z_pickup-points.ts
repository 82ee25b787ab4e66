import { PostgresAdapter } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

const WEEKDAYS = 'Po – Pi 8:00 – 18:00, So 8:00 – 12:00';
const LONG = 'Po – Ne 7:00 – 21:00';

/** Pickup points of the parcel partner across Slovakia (reference data, like the shipping methods). */
const POINTS = [
  ['BA-RUZ', 'Výdajné miesto Ružinov', 'Bajkalská 25', '82105', 'Bratislava', 48.1535, 17.1362, WEEKDAYS],
  ['BA-PET', 'Výdajné miesto Petržalka', 'Romanova 7', '85102', 'Bratislava', 48.1205, 17.1099, LONG],
  ['TT-CEN', 'Výdajné miesto Trnava centrum', 'Hlavná 14', '91701', 'Trnava', 48.3774, 17.5872, WEEKDAYS],
  ['NR-CHR', 'Výdajné miesto Nitra Chrenová', 'Akademická 2', '94901', 'Nitra', 48.3102, 18.0946, LONG],
  ['TN-CEN', 'Výdajné miesto Trenčín', 'Hviezdoslavova 3', '91101', 'Trenčín', 48.8945, 18.0444, WEEKDAYS],
  ['PB-CEN', 'Výdajné miesto Považská Bystrica', 'Námestie A. Hlinku 30', '01701', 'Považská Bystrica', 49.1214, 18.4206, WEEKDAYS],
  ['ZA-VLC', 'Výdajné miesto Žilina Vlčince', 'Obchodná 4', '01008', 'Žilina', 49.2052, 18.7611, LONG],
  ['ZA-CEN', 'Výdajné miesto Žilina centrum', 'Národná 9', '01001', 'Žilina', 49.2231, 18.7394, WEEKDAYS],
  ['MT-CEN', 'Výdajné miesto Martin', 'M. R. Štefánika 12', '03601', 'Martin', 49.0665, 18.9216, WEEKDAYS],
  ['BB-CEN', 'Výdajné miesto Banská Bystrica', 'Námestie SNP 8', '97401', 'Banská Bystrica', 48.7363, 19.1462, LONG],
  ['ZV-CEN', 'Výdajné miesto Zvolen', 'Námestie SNP 40', '96001', 'Zvolen', 48.5762, 19.1371, WEEKDAYS],
  ['LC-CEN', 'Výdajné miesto Lučenec', 'Vajanského 5', '98401', 'Lučenec', 48.3299, 19.6665, WEEKDAYS],
  ['PP-CEN', 'Výdajné miesto Poprad', 'Námestie sv. Egídia 20', '05801', 'Poprad', 49.0566, 20.2979, LONG],
  ['PO-CEN', 'Výdajné miesto Prešov', 'Hlavná 60', '08001', 'Prešov', 48.9984, 21.2394, WEEKDAYS],
  ['KE-CEN', 'Výdajné miesto Košice centrum', 'Hlavná 48', '04001', 'Košice', 48.7205, 21.2578, LONG],
  ['KE-TER', 'Výdajné miesto Košice Terasa', 'Trieda SNP 61', '04011', 'Košice', 48.7115, 21.2173, WEEKDAYS],
  ['MI-CEN', 'Výdajné miesto Michalovce', 'Námestie osloboditeľov 10', '07101', 'Michalovce', 48.7544, 21.9195, WEEKDAYS],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('pickup_points')
    .addColumn('pp_code', 'text', (c) => c.primaryKey())
    .addColumn('pp_name', 'text', (c) => c.notNull())
    .addColumn('pp_street', 'text', (c) => c.notNull())
    .addColumn('pp_zip', 'text', (c) => c.notNull())
    .addColumn('pp_city', 'text', (c) => c.notNull())
    .addColumn('pp_lat', pg ? 'double precision' : 'real', (c) => c.notNull())
    .addColumn('pp_lon', pg ? 'double precision' : 'real', (c) => c.notNull())
    .addColumn('pp_hours', 'text', (c) => c.notNull())
    .addColumn('pp_active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db
    .insertInto('pickup_points')
    .values(POINTS.map(([code, name, street, zip, city, lat, lon, hours]) => ({ pp_code: code, pp_name: name, pp_street: street, pp_zip: zip, pp_city: city, pp_lat: lat, pp_lon: lon, pp_hours: hours })))
    .execute();
  // The chosen point, as it was when the order was placed (a point may move or close later).
  await db.schema.alterTable('orders').addColumn('pickup_point_json', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('pickup_point_json').execute();
  await db.schema.dropTable('pickup_points').execute();
}
