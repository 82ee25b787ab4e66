/**
 * How much of a broad comparison against SQL a test runs on each engine. The comparisons check
 * our in-memory structures (the same code on both engines) against reference SQL: SQLite answers
 * those queries in microseconds and runs them all; PostgreSQL, an order of magnitude slower per
 * query, runs every `POSTGRES_STRIDE`-th case, a different third in each round (each change of
 * the data), so the dialect's own SQL is still compared across the catalog.
 */
import type { TestApi } from './test-api.ts';

export const POSTGRES_STRIDE = 3;

/** Whether case `n` is compared in round `round` on `api`'s engine. */
export function comparedOn(api: Pick<TestApi, 'dialect'>, n: number, round = 0): boolean {
  return api.dialect !== 'postgres' || (n + round) % POSTGRES_STRIDE === 0;
}
