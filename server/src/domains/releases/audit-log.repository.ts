/**
 * The release audit log: append-only in the database itself (triggers refuse UPDATE and DELETE on
 * both engines; on PostgreSQL the rows are added as the role `shop_audit_append`, which may only
 * read and add them) and chained by hash: each row holds the hash of the row before it and its own,
 * the SHA-256 of that previous hash and its fields as canonical JSON. A row changed, removed or
 * slipped in anywhere breaks the chain from there on; `verifyAuditChain` finds the first such row
 * (`npm run credentials -- audit-verify`).
 *
 * Two appends at once never fork the chain: the previous hash is unique (one of two rows naming the
 * same predecessor is refused and tries again on the new last row), and on PostgreSQL appends also
 * queue on a transaction-scoped advisory lock so they rarely need to.
 */
import { createHash } from 'node:crypto';
import { PostgresAdapter, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.ts';
import type { ReleaseAuditRow } from '../../db/release-identity.table.ts';

export type AuditEntry = { actor: string; action: string; part: string | null; allowed: boolean; detail?: string | null };

/** The first row's previous hash. */
export const AUDIT_GENESIS = '0'.repeat(64);
/** The advisory lock appends queue on (PostgreSQL): any fixed number the shop uses for nothing else. */
const AUDIT_LOCK = 7_306_021;
const APPEND_ROLE = 'shop_audit_append';
const TRIES = 20;

type ChainFields = Pick<ReleaseAuditRow, 'at' | 'actor' | 'action' | 'part' | 'allowed' | 'detail'>;

/** The chain's one rule: the hash of a row from the previous row's hash and its own fields. */
export function auditRowHash(previous: string, row: ChainFields): string {
  const canonical = JSON.stringify([previous, row.at, row.actor, row.action, row.part, Number(row.allowed), row.detail]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

const isPostgres = (db: DbOrTrx) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Whether this connection may append as the restricted role (PostgreSQL, when the migration could set it up). */
const roleUsable = new WeakMap<object, Promise<boolean>>();
function canUseAppendRole(db: DbOrTrx): Promise<boolean> {
  const key = db.getExecutor();
  let known = roleUsable.get(key);
  if (!known) {
    known = sql<{ usable: boolean }>`select exists (select from pg_roles where rolname = ${APPEND_ROLE})
        and pg_has_role(current_user, ${APPEND_ROLE}, 'MEMBER')
        and has_table_privilege(${APPEND_ROLE}, 'release_audit', 'INSERT') as usable`
      .execute(db)
      .then(
        (result) => result.rows[0]?.usable === true,
        () => false,
      );
    roleUsable.set(key, known);
  }
  return known;
}

/** A unique-index refusal (another append took that predecessor) or a busy SQLite: try again on the new last row. */
function isContention(error: unknown): boolean {
  const code = String((error as { code?: unknown }).code ?? '');
  const message = String((error as Error).message ?? '');
  return code === '23505' || code.startsWith('SQLITE_CONSTRAINT') || code.startsWith('SQLITE_BUSY') || /UNIQUE constraint/.test(message);
}

async function appendIn(trx: DbOrTrx, entry: AuditEntry): Promise<void> {
  const pg = isPostgres(trx);
  const asRole = pg && (await canUseAppendRole(trx));
  if (pg) await sql`select pg_advisory_xact_lock(${AUDIT_LOCK})`.execute(trx);
  if (asRole) await sql`set local role ${sql.raw(APPEND_ROLE)}`.execute(trx);
  const last = await trx.selectFrom('release_audit').select('row_hash').orderBy('audit_id', 'desc').limit(1).executeTakeFirst();
  const previous = last?.row_hash ?? AUDIT_GENESIS;
  const row: ChainFields = {
    at: new Date().toISOString(),
    actor: entry.actor.slice(0, 200),
    action: entry.action.slice(0, 100),
    part: entry.part?.slice(0, 40) ?? null,
    allowed: entry.allowed ? 1 : 0,
    detail: entry.detail?.slice(0, 500) ?? null,
  };
  await trx
    .insertInto('release_audit')
    .values({ ...row, prev_hash: previous, row_hash: auditRowHash(previous, row) })
    .execute();
  // Back to the connection's own role for whatever else the caller's transaction does.
  if (asRole) await sql`reset role`.execute(trx);
}

/** Adds a row at the end of the chain (inside the caller's transaction when given one). */
export async function appendAudit(db: DbOrTrx, entry: AuditEntry): Promise<void> {
  if (db.isTransaction) return appendIn(db, entry);
  for (let attempt = 1; ; attempt += 1) {
    try {
      await db.transaction().execute((trx) => appendIn(trx, entry));
      return;
    } catch (error) {
      if (attempt >= TRIES || !isContention(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
    }
  }
}

export function recentAudit(db: DbOrTrx, limit: number): Promise<ReleaseAuditRow[]> {
  return db.selectFrom('release_audit').selectAll().orderBy('audit_id', 'desc').limit(limit).execute();
}

export type AuditVerdict =
  | { intact: true; rows: number; lastHash: string }
  | { intact: false; rows: number; broken: { auditId: number; at: string; actor: string; action: string; why: string } };

const PAGE = 1000;

/** Walks the whole chain in order; the first row whose hash or link does not hold is reported. */
export async function verifyAuditChain(db: DbOrTrx): Promise<AuditVerdict> {
  let previous = AUDIT_GENESIS;
  let after = -1;
  let rows = 0;
  for (;;) {
    const page = await db.selectFrom('release_audit').selectAll().where('audit_id', '>', after).orderBy('audit_id').limit(PAGE).execute();
    for (const row of page) {
      const broken = (why: string): AuditVerdict => ({
        intact: false,
        rows,
        broken: { auditId: row.audit_id, at: row.at, actor: row.actor, action: row.action, why },
      });
      if (row.prev_hash !== previous)
        return broken('it does not name the row before it (a row was removed, inserted or changed before it)');
      if (auditRowHash(previous, row) !== row.row_hash) return broken('its fields do not match its hash (the row was changed)');
      previous = row.row_hash;
      rows += 1;
    }
    if (page.length < PAGE) return { intact: true, rows, lastHash: previous };
    after = page.at(-1)!.audit_id;
  }
}
