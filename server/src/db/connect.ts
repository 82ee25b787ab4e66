import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Driver, SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import pg from 'pg';
import type { Database, DialectName } from './database.ts';
import { runByName, statementNames } from './pg-prepared.ts';

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

/** How much of the SQLite file is read through a memory map (more than the generated 100,000-product catalog's file). */
const MMAP_BYTES = 1024 * 1024 * 1024;

/** Opens the database (PostgreSQL with a url, else SQLite). */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<OpenedDatabase> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: 10, types: pgTypes });
    // An idle connection that breaks (server restart, network) is dropped by the pool and the next
    // query reconnects; without a listener the 'error' event would end the process.
    pool.on('error', (err) => process.stderr.write(`[db] idle PostgreSQL connection failed: ${err.message}\n`));
    // Each connection runs the shop's statements by name: parsed once, not on every call (pg-prepared.ts).
    const names = statementNames();
    pool.on('connect', (client) => runByName(client, names));
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
  // Pages are read straight from the file's memory map (the OS's page cache, shared with the other
  // processes) instead of copied into SQLite's own 16 MB cache one read() at a time, which made
  // random reads across a large catalog markedly slower.
  sqlite.pragma(`mmap_size = ${MMAP_BYTES}`);
  const db = new Kysely<Database>({ dialect: new YieldingSqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/** Prepared statements kept per SQL text (at most this many, least recently used dropped first). */
const STATEMENT_CACHE = 500;

/** A schema change: the statements kept may now name other columns, so they are all dropped. */
const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

type Statement = ReturnType<KyselySqliteDatabase['prepare']>;

/**
 * Kysely prepares every query it runs; compiling the SQL again each time is a measurable share of a
 * catalog request. The statements are kept and reused: Kysely runs one query at a time on its
 * single SQLite connection, so a statement is never in use twice, and SQLite recompiles a kept
 * statement by itself after a schema change (and every statement kept is dropped when one runs
 * here, since a `select *` may then answer other columns).
 */
function withStatementCache(sqlite: SqliteDatabase.Database): KyselySqliteDatabase {
  const statements = new Map<string, Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      if (SCHEMA_CHANGE.test(sql)) statements.clear();
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = withRowObjects(sqlite.prepare(sql));
        if (statements.size >= STATEMENT_CACHE) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

/**
 * A statement that answers rows reads them as arrays (better-sqlite3's raw mode) and makes them
 * objects here, each with one object literal of its columns: better-sqlite3 builds a row object
 * property by property, which costs more, and row objects are a sizeable share of a catalog
 * request's work in SQLite (figures: tools/bench/results.md). Same objects: the columns' names
 * as keys, in their order, a later column of the same name winning.
 */
function withRowObjects(statement: SqliteDatabase.Statement): Statement {
  if (!statement.reader) return statement;
  const names = statement.columns().map((column) => column.name);
  // Names that an object literal would not make own properties keep better-sqlite3's objects.
  if (names.includes('__proto__')) return statement;
  statement.raw(true);
  // The names are the query's own result columns; JSON.stringify makes each a safe string key.
  const toRow = new Function('v', `return { ${names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ')} };`) as (
    values: unknown[],
  ) => object;
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(toRow),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>) yield toRow(values);
    },
  };
}

/**
 * better-sqlite3 runs queries synchronously and Kysely hands its one connection from query to
 * query with promises, so under load all requests in flight run to their end in one unbroken chain
 * of microtasks: meanwhile the event loop accepts no connection and reads no request, so new
 * clients wait to be let in, and a request's queries issued together hold the loop for their sum.
 * So queries run in time slices: a query that would start more than SLICE_MS after the last yield
 * first yields to the event loop, so I/O is served between queries and the loop is held at most
 * for one slice plus the longest single query, while a short chain of quick queries pays for no
 * extra turn of the loop (a yield before every query made every request slower). Figures:
 * tools/bench/results.md.
 */
const SLICE_MS = 8;
let sliceStarted = 0;

class YieldingSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    const acquire = driver.acquireConnection.bind(driver);
    // The driver hands out its one connection again and again: it is wrapped once, not at every
    // acquisition (wrappers around wrappers grew a call chain one level deeper per query, until
    // the stack overflowed after some ten thousand queries).
    const yielding = new WeakSet<object>();
    driver.acquireConnection = async () => {
      const connection = await acquire();
      if (yielding.has(connection)) return connection;
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = async (query) => {
        if (performance.now() - sliceStarted > SLICE_MS) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          sliceStarted = performance.now();
        }
        return execute(query);
      };
      yielding.add(connection);
      return connection;
    };
    return driver;
  }
}
