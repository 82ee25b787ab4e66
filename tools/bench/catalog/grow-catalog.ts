/**
 * Grows a shop database to a large generated catalog for the load test, with the catalog
 * work's own generator: SQLite in <dataDir>, or PostgreSQL when DATABASE_URL is set. Kept and
 * reused: the generator adds only what is missing (nothing once grown). Each use also gives back
 * the stock the bench's earlier orders took, so the load's orders find in-stock goods however
 * many runs came before.
 *   node --import tsx tools/bench/catalog/grow-catalog.ts <dataDir> <products>   (in tools/bench/)
 */
import { sql } from 'kysely';
import { createDatabase } from '../../../server/src/app.ts';
import { generateCatalog } from './generate-catalog.ts';

const [dataDir, total] = [process.argv[2]!, Number(process.argv[3] ?? 100_000)];
const log = (message: string) => process.stderr.write(`[grow] ${message}\n`);
const database = await createDatabase({ dataDir, databaseUrl: process.env.DATABASE_URL || undefined });
try {
  const added = await generateCatalog(database.db, { total, log });
  if (added > 0) {
    log(`${added} products added (${database.dialect})`);
    await sql`analyze`.execute(database.db);
  }
  // The bench is this database's only buyer: every in-stock variant an order took pieces of is full again.
  const restocked = await database.db
    .updateTable('variants')
    .set({ v_stock: 400 })
    .where('v_availability', '=', 'in_stock')
    .where('v_stock', '<', 400)
    .where('v_id', 'in', (eb) => eb.selectFrom('order_items').select('v_id'))
    .executeTakeFirst();
  if (Number(restocked.numUpdatedRows) > 0)
    log(`${restocked.numUpdatedRows} variants restocked after earlier runs' orders (${database.dialect})`);
  // PostgreSQL as it runs for a while: autovacuum has set the visibility map and the statistics (a bitmap scan then skips the pages all visible).
  if (database.dialect === 'postgres') await sql`vacuum analyze`.execute(database.db);
} finally {
  await database.close();
}
