/**
 * The catalogue version: a number that changes whenever this process has changed catalogue data
 * (products, variants and their stock and prices, categories, brands, attributes, …). Caches of
 * catalogue answers (lib/response-cache.ts, the category tree) keep what they computed together
 * with the version it was computed at and throw it away once the version has moved on.
 *
 * The version is bumped by the database driver itself (`watchCatalogueWrites`, installed by
 * db/connect.ts), so every write path is covered, including ones added later and raw SQL: a write
 * outside a transaction bumps it when the statement has run; a write inside a transaction bumps it
 * when the transaction has committed (PostgreSQL readers on other connections see the old rows
 * until then, and a reader that starts in between must not cache them as the new version).
 * Writes by other processes (another server on the same PostgreSQL database, a script on the
 * SQLite file) are not seen here; the caches' short time to live bounds how long they stay unseen.
 */
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, Kysely, QueryResult, TransactionSettings } from 'kysely';

let version = 0;

/** The current catalogue version of this process. */
export function catalogueVersion(): number {
  return version;
}

/** Marks the catalogue as changed: everything cached at an older version is stale. */
export function catalogueChanged(): void {
  version += 1;
}

/** Tables whose rows show up in catalogue and search answers. */
const CATALOGUE_TABLES = [
  'categories', 'brands', 'products', 'variants', 'attributes', 'attribute_values', 'price_history',
  'product_accessories', 'product_search',
];
const TABLE = new RegExp(`(^|[^a-z0-9_])(${CATALOGUE_TABLES.join('|')})($|[^a-z0-9_])`, 'i');
const WRITE = /\b(insert|update|delete|replace|merge|drop|alter|create|truncate)\b/i;

/** True when a statement may change catalogue rows (false positives only cost a cache refill). */
export function writesCatalogue(query: CompiledQuery): boolean {
  const kind = query.query.kind;
  if (kind === 'SelectQueryNode') return false;
  if (kind === 'RawNode' && !WRITE.test(query.sql)) return false;
  return TABLE.test(query.sql);
}

/**
 * Wraps a dialect so that its driver reports catalogue writes (see the top of this file).
 * The wrapped dialect compiles and adapts exactly like the original one.
 */
export function watchCatalogueWrites(dialect: Dialect, onChange: () => void = catalogueChanged): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db: Kysely<unknown>) => dialect.createIntrospector(db),
    createDriver: () => new WatchedDriver(dialect.createDriver(), onChange),
  };
}

class WatchedConnection implements DatabaseConnection {
  /** Inside a transaction: whether it has written catalogue rows (reported on commit). */
  transaction: { dirty: boolean } | null = null;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly onChange: () => void,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.inner.executeQuery<R>(compiledQuery);
    this.written(compiledQuery);
    return result;
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    yield* this.inner.streamQuery<R>(compiledQuery, chunkSize);
    this.written(compiledQuery);
  }

  private written(compiledQuery: CompiledQuery): void {
    if (!writesCatalogue(compiledQuery)) return;
    if (this.transaction) this.transaction.dirty = true;
    else this.onChange();
  }
}

class WatchedDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, WatchedConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly onChange: () => void,
  ) {
    // Savepoints are optional in a driver: offer them only when the inner driver has them.
    if (inner.savepoint) this.savepoint = (c, name, compile) => inner.savepoint!(unwrap(c), name, compile);
    if (inner.rollbackToSavepoint) this.rollbackToSavepoint = (c, name, compile) => inner.rollbackToSavepoint!(unwrap(c), name, compile);
    if (inner.releaseSavepoint) this.releaseSavepoint = (c, name, compile) => inner.releaseSavepoint!(unwrap(c), name, compile);
  }

  savepoint?: Driver['savepoint'];
  rollbackToSavepoint?: Driver['rollbackToSavepoint'];
  releaseSavepoint?: Driver['releaseSavepoint'];

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let watched = this.wrapped.get(connection);
    if (!watched) {
      watched = new WatchedConnection(connection, this.onChange);
      this.wrapped.set(connection, watched);
    }
    return watched;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.inner.beginTransaction(unwrap(connection), settings);
    (connection as WatchedConnection).transaction = { dirty: false };
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const watched = connection as WatchedConnection;
    try {
      await this.inner.commitTransaction(unwrap(connection));
    } finally {
      // Also after a failed commit: whether it took effect is unknown, so the caches start over.
      const dirty = watched.transaction?.dirty ?? false;
      watched.transaction = null;
      if (dirty) this.onChange();
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as WatchedConnection).transaction = null;
    await this.inner.rollbackTransaction(unwrap(connection));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

const unwrap = (connection: DatabaseConnection): DatabaseConnection =>
  connection instanceof WatchedConnection ? connection.inner : connection;
