/**
 * Creates (once) a shop database grown to a large generated catalogue for
 * the load test, with the catalogue work's own generator. Kept and reused.
 *   node --import tsx bench/grow-catalogue.ts <dataDir> <products>   (in api/)
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createDatabase } from '../src/app.ts';
import { generateCatalogue } from './generate-catalogue.ts';

const [dataDir, total] = [process.argv[2]!, Number(process.argv[3] ?? 100_000)];
const marker = join(dataDir, `catalogue-${total}.done`);
if (!existsSync(marker)) {
  mkdirSync(dataDir, { recursive: true });
  const database = await createDatabase({ dataDir });
  await generateCatalogue(database.db, { total, log: (message) => process.stderr.write(`[grow] ${message}\n`) });
  await sql`analyze`.execute(database.db);
  await database.close();
  writeFileSync(marker, new Date().toISOString());
}
