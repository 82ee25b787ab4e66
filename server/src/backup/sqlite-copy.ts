/**
 * A consistent copy of the live SQLite file through SQLite's online backup API (better-sqlite3's
 * `db.backup`), on a connection of its own in a worker thread.
 *
 * SQLite restarts a backup whenever another connection writes between two of its steps, so a copy
 * in small steps under a steady trickle of orders might never finish. Here the whole database goes
 * in one step: one read transaction, one snapshot (WAL lets the shop keep writing meanwhile). One
 * step holds its thread for the whole copy, hence the worker thread: the shop's event loop keeps
 * answering.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';

/** better-sqlite3's own module, loaded the same way by the worker as by this process (sources or bundle). */
const driverUrl = () => pathToFileURL(createRequire(import.meta.url).resolve('better-sqlite3')).href;

/**
 * The worker's code, evaluated (not a file of its own, so the bundle needs no second entry point).
 * It answers `{ ok: true }` or `{ error }`; progress returning the largest page count makes the
 * copy after the first step a single one.
 */
const WORKER = `(async () => {
  const { parentPort, workerData } = await import('node:worker_threads');
  try {
    const Database = (await import(workerData.driver)).default;
    const db = new Database(workerData.source, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      await db.backup(workerData.target, { progress: () => 0x7fffffff });
    } finally {
      db.close();
    }
    parentPort.postMessage({ ok: true });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
})();`;

type Answer = { ok: true } | { error: string };

/** Copies the SQLite database `source` (live, in WAL mode) to the new file `target`. */
export function copySqlite(source: string, target: string, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { driver: driverUrl(), source, target } });
    const abort = () => void worker.terminate();
    signal?.addEventListener('abort', abort, { once: true });
    let answered = false;
    const finish = (error: Error | null) => {
      if (answered) return;
      answered = true;
      signal?.removeEventListener('abort', abort);
      void worker.terminate();
      if (error) reject(error);
      else resolve();
    };
    worker.once('message', (answer: Answer) =>
      finish('error' in answer ? new Error(`SQLite backup of ${source} failed: ${answer.error}`) : null),
    );
    worker.once('error', (error) => finish(error));
    worker.once('exit', () =>
      finish(new Error(signal?.aborted ? 'SQLite backup stopped' : 'SQLite backup worker ended without an answer')),
    );
  });
}

/** SQLite's own check of a restored file ("ok", or what is broken). */
export function checkSqlite(file: string): string {
  const db = new SqliteDatabase(file, { fileMustExist: true });
  try {
    const rows = db.pragma('quick_check') as { quick_check: string }[];
    return rows.map((row) => row.quick_check).join('; ');
  } finally {
    db.close();
  }
}
