/**
 * A query of fixed shape, built and compiled once per database and run again with new values.
 *
 * Kysely builds and compiles a query's tree on every call, a noticeable share of a product page's
 * service time over its several queries. A query whose only parameters are the
 * values it is called with, in their order (no lists of varying length, no values decided while
 * building), keeps its compiled SQL; each call passes its values as the parameters. The first
 * compilation checks that assumption.
 */
import type { Compilable, CompiledQuery } from 'kysely';
import type { DbOrTrx } from './database.ts';

export function reusableQuery<Params extends readonly (string | number)[], Row>(
  build: (db: DbOrTrx, ...params: Params) => Compilable<Row>,
): (db: DbOrTrx, ...params: Params) => Promise<Row[]> {
  const compiled = new WeakMap<DbOrTrx, CompiledQuery<Row>>();
  return async (db, ...params) => {
    let query = compiled.get(db);
    if (!query) {
      query = takingExactly(build(db, ...params).compile(), params);
      compiled.set(db, query);
    }
    return (await db.executeQuery<Row>({ ...query, parameters: params })).rows;
  };
}

/** Lists of ids up to this long keep their compiled query (a page of tiles is 24). */
const KEPT_LIST_LENGTH = 64;

/**
 * A query over a list of ids (`in (?, ?, …)`) and nothing else, kept compiled per length of the
 * list: its SQL is the same for any list of that length, and building a product tiles' query
 * (twenty columns) on every call is needless work. A longer list than KEPT_LIST_LENGTH is built anew; an empty one
 * answers no rows without a query.
 */
export function reusableIdsQuery<Row>(
  build: (db: DbOrTrx, ids: readonly number[]) => Compilable<Row>,
): (db: DbOrTrx, ids: readonly number[]) => Promise<Row[]> {
  const compiled = new WeakMap<DbOrTrx, Map<number, CompiledQuery<Row>>>();
  return async (db, ids) => {
    if (ids.length === 0) return [];
    if (ids.length > KEPT_LIST_LENGTH) return (await db.executeQuery(build(db, ids).compile())).rows;
    let byLength = compiled.get(db);
    if (!byLength) compiled.set(db, (byLength = new Map()));
    let query = byLength.get(ids.length);
    if (!query) {
      query = takingExactly(build(db, ids).compile(), ids);
      byLength.set(ids.length, query);
    }
    return (await db.executeQuery<Row>({ ...query, parameters: ids })).rows;
  };
}

/** The compiled query, checked to take exactly `values` as its parameters, in their order. */
function takingExactly<Row>(query: CompiledQuery<Row>, values: readonly unknown[]): CompiledQuery<Row> {
  if (query.parameters.length !== values.length || query.parameters.some((value, i) => value !== values[i])) {
    throw new Error('a reusable query takes exactly the values it is called with, in their order');
  }
  return query;
}
