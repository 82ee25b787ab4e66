/**
 * PostgreSQL statements prepared once per connection and run by name afterwards.
 *
 * Kysely hands the pg driver each query as text. pg then sends it unnamed: PostgreSQL parses,
 * analyses and plans it again on every call. A catalog answer is three to five queries in
 * series, so that work was a large share of it. Run by name, a text is parsed once per
 * connection. PostgreSQL plans its first five calls afresh for their values, then keeps a
 * generic plan only if that plan costs no more than the fresh ones did.
 * Measured unnamed and named in turns, every catalog call but search got clearly faster
 * (tools/bench/results.md). Forcing a fresh plan per call (plan_cache_mode) kept only part of that
 * gain, so PostgreSQL's own choice stays.
 *
 * - Which texts: queries, inserts, updates and deletes the shop's code generates. Never a
 *   `select *` or `t.*`: after a migration adds a column, a statement prepared before it
 *   would fail with "cached plan must not change result type".
 * - Never a full-text search (`to_tsquery`): its best plan depends on its words. A common word's
 *   page walks the popularity order and stops early; a kept generic plan, which PostgreSQL chose
 *   after five runs, guesses 500 hits for any word and fetched and sorted every hit instead, many
 *   times slower for a common word (and a suggestion fast or slow by the connection it ran on).
 * - Which ones: a text is named the second time it runs, so that one-off texts (a migration, the
 *   seed's batches) neither take a place nor stay prepared on the server; at most MAX_NAMED
 *   distinct texts per process (each connection prepares those it runs). Any other runs unnamed,
 *   as before.
 * - A text whose result type changed under a running server (error 0A000) runs unnamed from
 *   then on: the same call is retried at once, unnamed.
 * - Needs a direct connection or a pooler that keeps prepared statements (PgBouncer ≥ 1.21
 *   with max_prepared_statements); a pooler in transaction mode without that would break them.
 */
import type pg from 'pg';

/** Distinct SQL texts run by name in one process. */
export const MAX_NAMED = 500;
/** Texts seen once, remembered until their second run (forgotten all at once beyond this). */
const MAX_SEEN = 5_000;

const STATEMENT = /^\s*(?:select|with|insert|update|delete)\b/i;
/** A `select *` or `"t".*` (but not `count(*)`): its result type follows the table's columns. */
const ALL_COLUMNS = /(?:\bselect(?:\s+distinct)?|,)\s*\*|\.\*/i;
/** A full-text search: planned for its words on every run. */
const PLANNED_PER_RUN = /\bto_tsquery\(/i;
const RESULT_TYPE_CHANGED = '0A000';

export type StatementNames = { nameOf(text: string): string | null; forget(text: string): void; readonly size: number };

/** The names of the texts run by name: assigned on a text's second run, at most `max`. */
export function statementNames(max = MAX_NAMED): StatementNames {
  const names = new Map<string, string | null>();
  const seen = new Set<string>();
  let assigned = 0;
  return {
    nameOf(text) {
      const known = names.get(text);
      if (known !== undefined) return known;
      if (assigned >= max || !STATEMENT.test(text) || ALL_COLUMNS.test(text) || PLANNED_PER_RUN.test(text)) return null;
      if (!seen.has(text)) {
        if (seen.size >= MAX_SEEN) seen.clear();
        seen.add(text);
        return null;
      }
      seen.delete(text);
      assigned += 1;
      const name = `shop_${assigned}`;
      names.set(text, name);
      return name;
    },
    // Stays in the map as null (its name is never reused), so it is not counted again.
    forget(text) {
      names.set(text, null);
    },
    get size() {
      return assigned;
    },
  };
}

type Query = (text: unknown, values?: unknown, callback?: unknown) => unknown;

/** Makes a pool's connection run the known texts by name (pool.on('connect', …)). */
export function runByName(client: pg.PoolClient, names: StatementNames): void {
  const query = client.query.bind(client) as Query;
  const byName: Query = (text, values, callback) => {
    const name = typeof text === 'string' && Array.isArray(values) && callback === undefined ? names.nameOf(text) : null;
    if (name === null) return query(text, values, callback);
    return (query({ name, text, values }) as Promise<unknown>).catch((error: unknown) => {
      if ((error as { code?: string }).code !== RESULT_TYPE_CHANGED) throw error;
      names.forget(text as string);
      return query(text, values);
    });
  };
  (client as unknown as { query: Query }).query = byName;
}
