import { createHash } from 'node:crypto';
import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const generatedId = (db: Kysely<any>) => (col: ColumnDefinitionBuilder) =>
  isPostgres(db) ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();

/** The first row's previous hash: every row has one, so the unique index below covers the first too. */
const GENESIS = '0'.repeat(64);

type AuditRow = { audit_id: number; at: string; actor: string; action: string; part: string | null; allowed: number; detail: string | null };

/** The chain's rule, as domains/releases/audit-chain.ts has it (a copy: a migration never changes). */
function rowHash(previous: string, row: AuditRow) {
  const canonical = JSON.stringify([previous, row.at, row.actor, row.action, row.part, Number(row.allowed), row.detail]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/**
 * The release trust chain in the database:
 * - `release_audit` chained by hash (each row names the hash of the one before, so a changed, removed
 *   or inserted row breaks the chain from there) and append-only in the database itself: triggers
 *   refuse UPDATE and DELETE on both engines (and TRUNCATE on PostgreSQL); the unique previous hash
 *   makes two concurrent appends after the same row impossible (one is refused and tries again).
 *   On PostgreSQL a role `shop_audit_append` may only read and add rows; the application appends as it.
 * - `release_registry`: the registry in force, one row, with a revision that only grows. The origin's
 *   `builds/latest.json` and `builds/history.jsonl` are only an export of it and of `release_moves`.
 * - `release_floors`: versions of a part marked never to be put in force again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.alterTable('release_audit').addColumn('prev_hash', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('release_audit').addColumn('row_hash', 'text', (c) => c.notNull().defaultTo('')).execute();
  // The rows written before the chain are chained now, in their order.
  const rows = (await db.selectFrom('release_audit').selectAll().orderBy('audit_id').execute()) as AuditRow[];
  let previous = GENESIS;
  for (const row of rows) {
    const hash = rowHash(previous, row);
    await db.updateTable('release_audit').set({ prev_hash: previous, row_hash: hash }).where('audit_id', '=', row.audit_id).execute();
    previous = hash;
  }
  await db.schema.createIndex('release_audit_prev_hash').on('release_audit').column('prev_hash').unique().execute();

  if (pg) {
    await sql`
      create function release_audit_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'release_audit is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
      end $$`.execute(db);
    await sql`create trigger release_audit_no_update before update or delete on release_audit for each row execute function release_audit_append_only()`.execute(
      db,
    );
    await sql`create trigger release_audit_no_truncate before truncate on release_audit for each statement execute function release_audit_append_only()`.execute(
      db,
    );
    // A role that may read and add audit rows and nothing else. Roles belong to the whole cluster:
    // created once (several databases of one cluster share it); a database user without the right
    // to create roles goes without it (operations.md says what production grants instead).
    await sql`
      do $$
      begin
        if not exists (select from pg_roles where rolname = 'shop_audit_append') then
          begin
            create role shop_audit_append nologin;
          exception when duplicate_object then null;
          end;
        end if;
        grant select, insert on release_audit to shop_audit_append;
        execute format('grant usage on sequence %s to shop_audit_append', pg_get_serial_sequence('release_audit', 'audit_id'));
        begin
          execute format('grant shop_audit_append to %I', current_user);
        exception when others then null;
        end;
      exception when insufficient_privilege then
        raise notice 'role shop_audit_append not set up: %', sqlerrm;
      end $$`.execute(db);
  } else {
    await sql`create trigger release_audit_no_update before update on release_audit begin select raise(abort, 'release_audit is append-only: UPDATE refused'); end`.execute(
      db,
    );
    await sql`create trigger release_audit_no_delete before delete on release_audit begin select raise(abort, 'release_audit is append-only: DELETE refused'); end`.execute(
      db,
    );
  }

  await db.schema
    .createTable('release_registry')
    .addColumn('registry_id', 'integer', (c) => c.primaryKey())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('release_moves')
    .addColumn('move_id', 'integer', generatedId(db))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('part', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('from_version', 'text')
    .addColumn('to_version', 'text', (c) => c.notNull())
    .addColumn('share', 'integer')
    .addColumn('who', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('commit_ref', 'text')
    .addColumn('dirty', 'integer')
    .execute();
  await db.schema.createIndex('release_moves_part').on('release_moves').columns(['part', 'move_id']).execute();
  await db.schema
    .createTable('release_floors')
    .addColumn('part', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('floored_at', 'text', (c) => c.notNull())
    .addColumn('floored_by', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('lifted_at', 'text')
    .addColumn('lifted_by', 'text')
    .addColumn('lift_reason', 'text')
    .addPrimaryKeyConstraint('release_floors_pk', ['part', 'version'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('release_floors').execute();
  await db.schema.dropTable('release_moves').execute();
  await db.schema.dropTable('release_registry').execute();
  if (isPostgres(db)) {
    await sql`drop trigger if exists release_audit_no_truncate on release_audit`.execute(db);
    await sql`drop trigger if exists release_audit_no_update on release_audit`.execute(db);
    await sql`drop function if exists release_audit_append_only()`.execute(db);
  } else {
    await sql`drop trigger if exists release_audit_no_update`.execute(db);
    await sql`drop trigger if exists release_audit_no_delete`.execute(db);
  }
  await db.schema.dropIndex('release_audit_prev_hash').execute();
  await db.schema.alterTable('release_audit').dropColumn('row_hash').execute();
  await db.schema.alterTable('release_audit').dropColumn('prev_hash').execute();
}
