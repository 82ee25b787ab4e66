/**
 * The embedded SQLite connection (db/connect.ts) serves a long-running server: tens of thousands
 * of queries one after another must all answer (each acquisition of the one connection once
 * wrapped it again, so a query's call chain grew one level per query until the stack overflowed).
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/connect.ts';

describe('the SQLite connection of a long-running server', () => {
  it('answers 30,000 queries one after another, the last as the first', async () => {
    const { db, close } = await openDatabase({ sqliteFile: ':memory:' });
    try {
      let last = -1;
      for (let i = 0; i < 30_000; i += 1) last = (await sql<{ n: number }>`select ${i} as n`.execute(db)).rows[0]!.n;
      expect(last).toBe(29_999);
    } finally {
      await close();
    }
  }, 60_000);
});
