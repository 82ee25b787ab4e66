import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database, DialectName } from './database.ts';

export type OpenDatabaseOptions = {
  /** PostgreSQL connection string (DATABASE_URL); when set, PostgreSQL is used. */
  url?: string;
  /** SQLite file used when no url is given; its directory is created. Default ':memory:'. */
  sqliteFile?: string;
};

export type OpenedDatabase = {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
};

const INT8_OID = 20;

/** pg returns bigint (count(*), sums) as text; every such value here fits a JS number. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export async function openDatabase(opts: OpenDatabaseOptions): Promise<OpenedDatabase> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: 10, types: pgTypes });
    // An idle connection that breaks (server restart, network) is dropped by the pool and the next
    // query reconnects; without a listener the 'error' event would end the process.
    pool.on('error', (err) => process.stderr.write(`[db] idle PostgreSQL connection failed: ${err.message}\n`));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    // Fail now, with a clear error, rather than on the first request.
    await pool.query('select 1');
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }

  const file = opts.sqliteFile ?? ':memory:';
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
