/**
 * PostgreSQL statements run by name (db/pg-prepared.ts): parsed once per connection, never a
 * `select *`, at most a bounded number of texts, and a text whose result type changed under the
 * running server still answers.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.ts';
import { statementNames } from '../../src/db/pg-prepared.ts';
import { throwawayPostgres } from '../helpers/throwaway-database.ts';

describe('names of the statements run by name', () => {
  it('names a text from its second run, never a select of all columns or a full-text search, and no more texts than its bound', () => {
    const names = statementNames(2);
    // A text runs unnamed the first time (a one-off takes no place), by name from the second.
    expect(names.nameOf('select "p_id" from "products" where "p_url" = $1')).toBeNull();
    const first = names.nameOf('select "p_id" from "products" where "p_url" = $1');
    expect(first).toMatch(/^shop_\d+$/);
    expect(names.nameOf('select "p_id" from "products" where "p_url" = $1')).toBe(first);
    expect(names.nameOf('select * from "products" where "p_id" = $1')).toBeNull();
    expect(names.nameOf('select * from "products" where "p_id" = $1')).toBeNull();
    expect(names.nameOf('select "p".* from "products" as "p" where "p_id" = $1')).toBeNull();
    expect(names.nameOf('select "p".* from "products" as "p" where "p_id" = $1')).toBeNull();
    expect(names.nameOf('begin')).toBeNull();
    expect(names.nameOf('begin')).toBeNull();
    // A full-text search is planned for its words on every run.
    const search = `select "p_id" from "product_search" where "document" @@ to_tsquery('simple', $1) order by "p_popularity" desc limit $2`;
    expect(names.nameOf(search)).toBeNull();
    expect(names.nameOf(search)).toBeNull();
    expect(names.nameOf('select count(*) as "n" from "products" where "cat_id" = $1')).toBeNull();
    const second = names.nameOf('select count(*) as "n" from "products" where "cat_id" = $1');
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
    // The bound is reached: a third text runs unnamed.
    expect(names.nameOf('update "products" set "p_name" = $1 where "p_id" = $2')).toBeNull();
    expect(names.nameOf('update "products" set "p_name" = $1 where "p_id" = $2')).toBeNull();
    // A forgotten text runs unnamed from then on, and its name is not given to another.
    names.forget('select "p_id" from "products" where "p_url" = $1');
    expect(names.nameOf('select "p_id" from "products" where "p_url" = $1')).toBeNull();
    expect(names.size).toBe(2);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL statements run by name', () => {
  it('prepares a query once on its connection, leaves a select of all columns unnamed, and answers after a column changes type', async () => {
    const database = (await throwawayPostgres())!;
    const { db, close } = await openDatabase({ url: database.url });
    try {
      await sql`create table t (id integer primary key, name text)`.execute(db);
      await sql`insert into t values (1, 'tehla'), (2, 'cement')`.execute(db);
      const byId = (id: number) =>
        db
          .selectFrom('t' as never)
          .select(['id' as never, 'name' as never])
          .where('id' as never, '=', id as never)
          .execute();
      const allOf = (id: number) =>
        db
          .selectFrom('t' as never)
          .selectAll()
          .where('id' as never, '=', id as never)
          .execute();
      expect(await byId(1)).toEqual([{ id: 1, name: 'tehla' }]);
      expect(await byId(2)).toEqual([{ id: 2, name: 'cement' }]);
      expect(await allOf(2)).toEqual([{ id: 2, name: 'cement' }]);
      expect(await allOf(1)).toEqual([{ id: 1, name: 'tehla' }]);
      // Queries one after another use the pool's one idle connection: its prepared statements.
      const prepared = async () =>
        (await sql<{ statement: string }>`select statement from pg_prepared_statements where name like 'shop_%'`.execute(db)).rows.map(
          (row) => row.statement,
        );
      const statements = await prepared();
      const byIdText = db
        .selectFrom('t' as never)
        .select(['id' as never, 'name' as never])
        .where('id' as never, '=', 1 as never)
        .compile().sql;
      expect(statements).toContain(byIdText);
      expect(statements.some((text) => text.includes('*') && text.includes('"t"'))).toBe(false);

      // A migration changes the type of a column the prepared statement answers: it still answers.
      await sql`alter table t alter column name type varchar(40)`.execute(db);
      expect(await byId(1)).toEqual([{ id: 1, name: 'tehla' }]);
      expect(await byId(2)).toEqual([{ id: 2, name: 'cement' }]);
    } finally {
      await close();
      await database.drop();
    }
  });
});
