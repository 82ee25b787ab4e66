/**
 * A writer of audit rows in a process of its own (release-audit.test.ts starts several at once, as the
 * server, a worker and an owner's command write to one log): `tsx audit-appender.ts <dataDir> <count> <name>`,
 * on PostgreSQL when DATABASE_URL is set.
 */
import { openDatabase } from '../../src/db/connect.ts';
import { sqliteFileOf } from '../../src/db/create-database.ts';
import { appendAudit } from '../../src/domains/releases/audit-log.repository.ts';

const [dataDir, count, name] = process.argv.slice(2) as [string, string, string];
const databaseUrl = process.env.DATABASE_URL || undefined;
const database = await openDatabase(databaseUrl ? { url: databaseUrl } : { sqliteFile: sqliteFileOf(dataDir) });
try {
  // Every row at once: on PostgreSQL they take the pool's connections together.
  await Promise.all(
    Array.from({ length: Number(count) }, (_, index) =>
      appendAudit(database.db, { actor: name, action: 'concurrent-append', part: null, allowed: true, detail: `${name} ${index}` }),
    ),
  );
} finally {
  await database.close();
}
