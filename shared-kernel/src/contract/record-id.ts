/**
 * The largest id a record has: the database's integer keys (PostgreSQL's `integer` refuses more).
 * Every id a request names is bounded by it. Without TypeBox, so every part may bundle it.
 */
export const MAX_RECORD_ID = 2_147_483_647;
