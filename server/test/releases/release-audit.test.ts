/**
 * The release audit log no one edits (domains/releases/audit-log.repository.ts), on SQLite and
 * PostgreSQL: UPDATE and DELETE are refused by the database itself; every row is chained to the one
 * before by hash, and `npm run credentials -- audit-verify` names the first row changed directly
 * in the file or the database (by someone who first drops the triggers, as the database's owner
 * could); writers in several processes at once never fork the chain; on PostgreSQL the application
 * appends as a role that could not change a row even without the triggers.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, sqliteFileOf, type CreatedDatabase } from '../../src/db/create-database.ts';
import { appendAudit, AUDIT_GENESIS, verifyAuditChain } from '../../src/domains/releases/audit-log.repository.ts';
import { releaseIdentities } from '../../src/domains/releases/identities.repository.ts';
import { throwawayPostgres } from '../helpers/throwaway-database.ts';
import { tempDir } from '@shop/release/testing';

const serverDir = join(import.meta.dirname, '..', '..');
const dataDir = tempDir('release-audit-');
let postgres: Awaited<ReturnType<typeof throwawayPostgres>>;
let database: CreatedDatabase;

beforeAll(async () => {
  postgres = await throwawayPostgres();
  database = await createDatabase({ dataDir, databaseUrl: postgres?.url });
});
afterAll(async () => {
  await database?.close();
  await postgres?.drop();
});

const env = () => ({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: postgres?.url ?? '' });

function run(script: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', ...script], { cwd: serverDir, env: env() }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const auditVerify = () => run(['src/domains/operators/credentials-cli.ts', 'audit-verify']);

/** A statement the database must refuse: its error message. */
async function refused(statement: Promise<unknown>): Promise<string> {
  const error = await statement.then(
    () => null,
    (caught: unknown) => caught as Error,
  );
  expect(error, 'the database accepted the statement').not.toBeNull();
  return error!.message;
}

describe(`the release audit log on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('chains every row to the one before by hash, from a fixed first link', async () => {
    const log = releaseIdentities(database.db);
    await log.audit({ actor: 'spravca', action: 'rollback', part: 'checkout', allowed: true, detail: 'košík padá' });
    await log.audit({ actor: 'tim-pokladna', action: 'upload', part: 'catalog', allowed: false });
    const rows = await database.db.selectFrom('release_audit').selectAll().orderBy('audit_id').execute();
    expect(rows[0]!.prev_hash).toBe(AUDIT_GENESIS);
    for (let index = 1; index < rows.length; index += 1) expect(rows[index]!.prev_hash).toBe(rows[index - 1]!.row_hash);
    expect(await verifyAuditChain(database.db)).toMatchObject({ intact: true, rows: rows.length });
    const verified = await auditVerify();
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toContain(`audit log intact: ${rows.length} rows chained`);
  });

  it('refuses UPDATE and DELETE in the database itself (and TRUNCATE on PostgreSQL)', async () => {
    const before = await database.db.selectFrom('release_audit').selectAll().orderBy('audit_id').execute();
    expect(await refused(sql`update release_audit set allowed = 1, detail = 'prepísané'`.execute(database.db))).toMatch(/append-only/);
    expect(await refused(sql`delete from release_audit`.execute(database.db))).toMatch(/append-only/);
    if (postgres) expect(await refused(sql`truncate release_audit`.execute(database.db))).toMatch(/append-only/);
    expect(await database.db.selectFrom('release_audit').selectAll().orderBy('audit_id').execute()).toEqual(before);
  });

  it('keeps one chain while several processes append at once', async () => {
    const before = (await verifyAuditChain(database.db)).rows;
    const writers = await Promise.all(
      ['writer-a', 'writer-b', 'writer-c'].map((name) => run(['test/helpers/audit-appender.ts', dataDir, '25', name])),
    );
    for (const writer of writers) expect(writer.code, writer.stderr).toBe(0);
    const verdict = await verifyAuditChain(database.db);
    expect(verdict).toMatchObject({ intact: true, rows: before + 75 });
    const links = await database.db.selectFrom('release_audit').select('prev_hash').execute();
    expect(new Set(links.map((row) => row.prev_hash)).size).toBe(links.length);
  }, 60_000);

  it('names the first row changed behind the triggers’ back, and the rows before it as intact', async () => {
    await appendAudit(database.db, { actor: 'spravca', action: 'pin', part: 'content', allowed: true });
    const rows = await database.db.selectFrom('release_audit').selectAll().orderBy('audit_id').execute();
    const victim = rows[2]!;
    // An attacker with the database owner's rights (or the SQLite file) removes the guard and edits a row.
    if (postgres) {
      await sql`drop trigger release_audit_no_update on release_audit`.execute(database.db);
      await sql`update release_audit set allowed = 1, detail = 'nič sa nestalo' where audit_id = ${victim.audit_id}`.execute(database.db);
    } else {
      const file = new SqliteDatabase(sqliteFileOf(dataDir));
      file.exec('drop trigger release_audit_no_update');
      file.prepare(`update release_audit set allowed = 1, detail = 'nič sa nestalo' where audit_id = ?`).run(victim.audit_id);
      file.close();
    }
    expect(await verifyAuditChain(database.db)).toMatchObject({ intact: false, rows: 2, broken: { auditId: victim.audit_id } });
    const verified = await auditVerify();
    expect(verified.code).toBe(1);
    expect(verified.stdout).toContain(`audit log BROKEN at row ${victim.audit_id} (${victim.at}, ${victim.actor}, ${victim.action})`);
  });

  // PostgreSQL's own: SQLite has no roles.
  if (process.env.DATABASE_URL)
    it('appends as a role that may not change a row even without the triggers', async () => {
      const session = await database.db.connection().execute(async (connection) => {
        await sql`set role shop_audit_append`.execute(connection);
        try {
          const update = await refused(sql`update release_audit set detail = 'x'`.execute(connection));
          const remove = await refused(sql`delete from release_audit`.execute(connection));
          return { update, remove };
        } finally {
          await sql`reset role`.execute(connection);
        }
      });
      expect(session.update).toMatch(/permission denied/);
      expect(session.remove).toMatch(/permission denied/);
    });
});
