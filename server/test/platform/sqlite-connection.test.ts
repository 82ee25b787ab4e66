/**
 * The embedded SQLite connection (db/connect.ts) serves a long-running server: tens of thousands
 * of queries one after another must all answer (each acquisition of the one connection once
 * wrapped it again, so a query's call chain grew one level per query until the stack overflowed).
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.ts';

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

  it('answers rows as plain objects of their columns, also after a schema change and from returning and streamed queries', async () => {
    const { db, close } = await openDatabase({ sqliteFile: ':memory:' });
    try {
      await sql`create table t (id integer primary key, name text, price integer)`.execute(db);
      const inserted = await sql<{
        id: number;
        name: string;
      }>`insert into t (name, price) values ('tehla', 120), ('cement', null) returning id, name`.execute(db);
      expect(inserted.rows).toEqual([
        { id: 1, name: 'tehla' },
        { id: 2, name: 'cement' },
      ]);
      const all = () => sql<Record<string, unknown>>`select * from t order by id`.execute(db);
      expect((await all()).rows).toEqual([
        { id: 1, name: 'tehla', price: 120 },
        { id: 2, name: 'cement', price: null },
      ]);
      expect(Object.getPrototypeOf((await all()).rows[0])).toBe(Object.prototype);
      // A later column of the same name wins, as in better-sqlite3's own objects.
      expect((await sql`select id as x, name as x from t where id = 1`.execute(db)).rows).toEqual([{ x: 'tehla' }]);
      // The kept `select *` answers the new column after the table changes.
      await sql`alter table t add column unit text default 'ks'`.execute(db);
      expect((await all()).rows[0]).toEqual({ id: 1, name: 'tehla', price: 120, unit: 'ks' });
      const streamed: unknown[] = [];
      for await (const row of db
        .selectFrom('t' as never)
        .select(['id' as never])
        .stream())
        streamed.push(row);
      expect(streamed).toEqual([{ id: 1 }, { id: 2 }]);
      expect((await sql`update t set price = 1 where id = 2`.execute(db)).numAffectedRows).toBe(1n);
    } finally {
      await close();
    }
  });
});
