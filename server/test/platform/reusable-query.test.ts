/**
 * A reusable query (db/reusable-query.ts) is compiled once and run again with new values: every
 * call must answer as the same query built anew would, and a query whose parameters are not
 * exactly its values is refused at its first call. Runs on SQLite and, with DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbOrTrx } from '../../src/db/database.ts';
import { reusableIdsQuery, reusableQuery } from '../../src/db/reusable-query.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ responseCache: false });
});
afterAll(async () => {
  await api?.close();
});

const byCategory = (db: DbOrTrx, catId: number, minPrice: number) =>
  db.selectFrom('products').select(['p_id', 'p_url']).where('cat_id', '=', catId).where('p_price', '>=', minPrice).orderBy('p_id');

describe('a reusable query', () => {
  it('answers every call with its own values, as the query built anew does', async () => {
    const reused = reusableQuery(byCategory);
    const categories = await api.db.selectFrom('categories').select('cat_id').orderBy('cat_id').execute();
    let found = 0;
    for (const { cat_id } of categories) {
      for (const minPrice of [0, 5_000, 50_000]) {
        const rows = await reused(api.db, cat_id, minPrice);
        expect(rows, `category ${cat_id} from ${minPrice}`).toEqual(await byCategory(api.db, cat_id, minPrice).execute());
        found += rows.length;
      }
    }
    expect(found).toBeGreaterThan(0);
  });

  it('runs inside a transaction, on its connection', async () => {
    const reused = reusableQuery((db: DbOrTrx, url: string) => db.selectFrom('products').select('p_name').where('p_url', '=', url));
    const product = await api.db.selectFrom('products').select(['p_id', 'p_url']).orderBy('p_id').executeTakeFirstOrThrow();
    await api.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('products').set({ p_name: 'Premenovaný v transakcii' }).where('p_id', '=', product.p_id).execute();
        expect(await reused(trx, product.p_url)).toEqual([{ p_name: 'Premenovaný v transakcii' }]);
        throw new Error('rolled back');
      })
      .catch((err: Error) => expect(err.message).toBe('rolled back'));
    expect((await reused(api.db, product.p_url))[0]?.p_name).not.toBe('Premenovaný v transakcii');
  });

  it('refuses a query with a value of its own or its values in another order', async () => {
    const ownValue = reusableQuery((db: DbOrTrx, catId: number) =>
      db.selectFrom('products').select('p_id').where('cat_id', '=', catId).where('p_price', '>', 0),
    );
    await expect(ownValue(api.db, 1)).rejects.toThrow(/exactly the values/);
    const swapped = reusableQuery((db: DbOrTrx, catId: number, minPrice: number) => byCategory(db, minPrice, catId));
    await expect(swapped(api.db, 1, 2)).rejects.toThrow(/exactly the values/);
  });
});

describe('a reusable query over a list of ids', () => {
  const byIds = (db: DbOrTrx, ids: readonly number[]) =>
    db.selectFrom('products').select(['p_id', 'p_url']).where('p_id', 'in', ids).orderBy('p_id');

  it('answers lists of every length, again and with other ids of the same length, as the query built anew does', async () => {
    const reused = reusableIdsQuery(byIds);
    const all = (await api.db.selectFrom('products').select('p_id').orderBy('p_id').execute()).map((r) => r.p_id);
    expect(all.length).toBeGreaterThan(70);
    expect(await reused(api.db, [])).toEqual([]);
    // Up to and past the longest list kept compiled (64), from two places in the catalog.
    for (const length of [1, 2, 24, 64, 65, 70]) {
      for (const from of [0, all.length - length]) {
        const ids = all.slice(from, from + length).reverse();
        expect(await reused(api.db, ids), `${length} ids from ${from}`).toEqual(await byIds(api.db, ids).execute());
      }
    }
  });

  it('refuses a query with a value of its own', async () => {
    const ownValue = reusableIdsQuery((db: DbOrTrx, ids: readonly number[]) =>
      db.selectFrom('products').select('p_id').where('p_id', 'in', ids).where('p_price', '>', 0),
    );
    await expect(ownValue(api.db, [1, 2])).rejects.toThrow(/exactly the values/);
  });
});
