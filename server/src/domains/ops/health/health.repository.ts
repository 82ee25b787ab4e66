import { sql } from 'kysely';
import type { Db } from '../../../db/database.ts';

/** Whether the database answers a query (readiness). */
export async function databaseAnswers(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
