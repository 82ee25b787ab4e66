// Types for TypeScript callers (the benchmark) of ensure-postgres.mjs.
export type RunningPostgres = { url: string; dir: string; stop(): Promise<void> };
/** A throwaway PostgreSQL on 127.0.0.1, or with `dir` one whose data is kept there across runs. */
export function ensurePostgres(options?: { dir?: string }): Promise<RunningPostgres>;
