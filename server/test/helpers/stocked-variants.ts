import type { Db } from '../../src/db/database.ts';

/** The first `count` variants in stock (100 or more) and light enough for any carrier: ids a test can order again and again. */
export async function stockedLightVariants(db: Db, count: number): Promise<number[]> {
  const rows = await db
    .selectFrom('variants')
    .select('v_id')
    .where('v_availability', '=', 'in_stock')
    .where('v_stock', '>=', 100)
    .where('v_weight', '<=', 1_000)
    .where('v_weight', '>', 0)
    .orderBy('v_id')
    .limit(count)
    .execute();
  return rows.map((row) => row.v_id);
}
