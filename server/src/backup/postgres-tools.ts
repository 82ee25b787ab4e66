/**
 * PostgreSQL's own dump and restore: `pg_dump --format=custom` of the whole database (the shop's
 * tables and pg-boss's `pgboss` schema with the jobs not yet done), and `pg_restore` of it.
 *
 * The tools must be at least as new as the server: they are looked for in PG_BIN, then in
 * /usr/lib/postgresql/<major>/bin for the server's major version (then a newer one), then on PATH.
 * The password goes to the tool in PGPASSWORD, not on its command line (which others can read).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { JOBS_SCHEMA } from '../infra/outbox/outbox-pg-boss.repository.ts';

type Tool = 'pg_dump' | 'pg_restore';

/** The server's major version (e.g. 15 for 15.10). */
async function serverMajor(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string }>('show server_version_num');
    return Math.floor(Number(rows[0]?.version) / 10_000);
  } finally {
    await client.end();
  }
}

/** Where `tool` is for a server of version `major`. */
export function postgresTool(tool: Tool, major: number, env: NodeJS.ProcessEnv = process.env): string {
  if (env.PG_BIN && existsSync(join(env.PG_BIN, tool))) return join(env.PG_BIN, tool);
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .map(Number)
      .filter((version) => Number.isInteger(version) && version >= major && existsSync(join(root, String(version), 'bin', tool)))
      .sort((a, b) => a - b);
    if (majors.length > 0) return join(root, String(majors[0]), 'bin', tool);
  }
  return tool;
}

/** The connection string without its password, and the password for PGPASSWORD. */
function splitPassword(databaseUrl: string): { url: string; password: string | null } {
  const url = new URL(databaseUrl);
  const password = url.password ? decodeURIComponent(url.password) : null;
  url.password = '';
  return { url: url.toString(), password };
}

/** Runs a PostgreSQL tool against the database; rejects with its exit status and the end of its error output. */
async function runTool(tool: Tool, databaseUrl: string, args: string[], signal?: AbortSignal): Promise<void> {
  const binary = postgresTool(tool, await serverMajor(databaseUrl));
  const { url, password } = splitPassword(databaseUrl);
  const env = { ...process.env, ...(password !== null ? { PGPASSWORD: password } : {}) };
  await new Promise<void>((resolve, reject) => {
    const child = spawn(binary, [...args, `--dbname=${url}`], { env, stdio: ['ignore', 'ignore', 'pipe'], ...(signal ? { signal } : {}) });
    let errors = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      errors = (errors + chunk).slice(-4000);
    });
    child.once('error', (error) => reject(new Error(`${binary} could not run: ${error.message}`)));
    child.once('close', (code, ended) => {
      if (code === 0) resolve();
      else reject(new Error(`${binary} failed (${code === null ? `signal ${ended}` : `exit ${code}`}): ${errors.trim() || 'no message'}`));
    });
  });
}

/** Dumps the whole database into `target` (custom format: compressed, restorable table by table). */
export function dumpPostgres(databaseUrl: string, target: string, signal?: AbortSignal): Promise<void> {
  return runTool('pg_dump', databaseUrl, ['--format=custom', `--file=${target}`, '--no-password'], signal);
}

/**
 * Restores a dump into an empty database (see emptyPostgres) in one transaction: all of it or
 * nothing. `--no-owner` lets another role than the one that was dumped own the restored objects.
 * Not `--clean` over the shop's objects: it cannot drop pg-boss's partitioned job tables, nor a
 * table that a newer migration added and that refers to the dumped ones.
 */
export function restorePostgres(databaseUrl: string, file: string): Promise<void> {
  return runTool('pg_restore', databaseUrl, ['--no-owner', '--single-transaction', '--exit-on-error', '--no-password', file]);
}

/**
 * Empties the shop's part of a database for a forced restore, in one transaction: pg-boss's schema,
 * and every table, view, sequence, type and function in `public` that no extension owns. The
 * `public` schema itself stays, with its owner and grants, and so do extensions (the dump creates
 * them only if they are missing).
 */
export async function emptyPostgres(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // The drops are listed first and run after, so none names an object an earlier cascade removed.
    await client.query(`do $$
      declare statements text[]; statement text;
      begin
        drop schema if exists ${JOBS_SCHEMA} cascade;
        select coalesce(array_agg(drop_sql order by step), '{}') into statements from (
          select 1 as step, format('drop %s if exists public.%I cascade',
              case c.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'S' then 'sequence' when 'f' then 'foreign table' else 'table' end,
              c.relname) as drop_sql
            from pg_class c
            where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
              and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype in ('e', 'i', 'a'))
          union all
          select 2, format('drop type if exists public.%I cascade', t.typname)
            from pg_type t
            where t.typnamespace = 'public'::regnamespace and t.typtype in ('e', 'd', 'r', 'm')
              and not exists (select 1 from pg_depend d where d.classid = 'pg_type'::regclass and d.objid = t.oid and d.deptype in ('e', 'i'))
          union all
          select 3, format('drop routine if exists public.%I(%s) cascade', p.proname, pg_get_function_identity_arguments(p.oid))
            from pg_proc p
            where p.pronamespace = 'public'::regnamespace and p.prokind in ('f', 'p')
              and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
        ) drops;
        foreach statement in array statements loop
          execute statement;
        end loop;
      end $$`);
  } finally {
    await client.end();
  }
}

/** Whether the database has any table of its own (beyond PostgreSQL's catalogs). */
export async function postgresHasTables(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_catalog.pg_tables where schemaname not in ('pg_catalog', 'information_schema')",
    );
    return (rows[0]?.n ?? 0) > 0;
  } finally {
    await client.end();
  }
}
