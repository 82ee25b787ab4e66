/**
 * One backup at a time. On PostgreSQL several workers may run the schedule: a session-level
 * advisory lock, held on one connection for the whole backup, lets exactly one of them take it
 * (the others find it held and skip). On SQLite one process runs the shop, so a flag per database
 * handle is enough.
 */
import { sql } from 'kysely';
import type { Db, DialectName } from '../db/database.ts';

/** The advisory lock's key: any fixed number no other part of the shop locks. */
const BACKUP_LOCK_KEY = '7300451901160422051';

const heldInProcess = new WeakSet<Db>();

export type Locked<T> = { held: true; value: T } | { held: false };

/** Runs `work` holding the backup lock, or answers `held: false` at once when another holds it. */
export async function withBackupLock<T>(db: Db, dialect: DialectName, work: () => Promise<T>): Promise<Locked<T>> {
  if (dialect === 'sqlite') {
    if (heldInProcess.has(db)) return { held: false };
    heldInProcess.add(db);
    try {
      return { held: true, value: await work() };
    } finally {
      heldInProcess.delete(db);
    }
  }
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${BACKUP_LOCK_KEY}::bigint) as locked`.execute(connection);
    if (!rows[0]?.locked) return { held: false };
    try {
      return { held: true, value: await work() };
    } finally {
      await sql`select pg_advisory_unlock(${BACKUP_LOCK_KEY}::bigint)`.execute(connection);
    }
  });
}
