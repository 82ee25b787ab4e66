/* eslint-disable @typescript-eslint/no-explicit-any -- the admin connection has no schema */
import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';

/**
 * A uniquely named PostgreSQL database created through the admin connection DATABASE_URL, and a
 * drop() that waits for its sessions to end first; a copy of `template` when named (nobody may be
 * connected to it). Without DATABASE_URL: null (the test uses SQLite).
 */
export async function throwawayPostgres(
  adminUrl = process.env.DATABASE_URL,
  options: { template?: string } = {},
): Promise<{ url: string; drop(): Promise<void> } | null> {
  if (!adminUrl) return null;
  const name = `shop_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: adminUrl, max: 1 }) }) });
  await (
    options.template ? sql`create database ${sql.id(name)} template ${sql.id(options.template)}` : sql`create database ${sql.id(name)}`
  ).execute(admin);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      // pg's pool.end() resolves before its sockets have closed: wait for the sessions to go,
      // so dropping the database does not kill a connection that is still saying goodbye.
      for (let i = 0; i < 100; i++) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = ${name}`.execute(admin);
        if (rows[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
      await admin.destroy();
    },
  };
}
