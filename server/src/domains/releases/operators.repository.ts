/**
 * Operator accounts of /ops. The shop's owner creates and revokes them (`npm run credentials --
 * operator-create <name>`); an operator signs in with a name and a password and gets a session
 * cookie. Passwords are kept as scrypt hashes (lib/password.ts, a salt per password), sessions as
 * SHA-256 hashes of their 32 random bytes. Sessions are looked up in the database on every request,
 * so revoking an operator ends its sessions on every server at once. Failed sign-ins are counted
 * in the database too, per name and per client address, so the servers of a cluster count together.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Db, DbOrTrx } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../../infra/pure/password.ts';
import { releaseIdentities } from './identities.repository.ts';

/** A session lasts this long from the sign-in, used or not (no sliding). */
export const OPERATOR_SESSION_MS = 12 * 60 * 60_000;
/** Failed sign-ins allowed in the window, per operator name and per client address. */
export const OPERATOR_SIGN_IN_LIMIT = { perName: 5, perAddress: 20, windowMs: 15 * 60_000 };
/** The name of the operator `npm start` creates on a shop that has none, and where its password goes. */
export const FIRST_OPERATOR = { name: 'spravca', file: 'operator-password' } as const;

const NAME = /^[a-z0-9][a-z0-9._-]{1,39}$/;
const MIN_PASSWORD = 12;
/** Any fixed number no other part of the shop locks (seed and backup use others). */
const SIGN_IN_LOCK_KEY = 7_340_127;

const sha256 = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');
/** A strong generated password: 24 random bytes, 32 characters, safe to paste. */
export const generatePassword = () => randomBytes(24).toString('base64url');

export type OperatorSession = { name: string; expiresAt: string };
export type SignInResult = { ok: true; secret: string; session: OperatorSession } | { ok: false; reason: 'wrong' | 'limited' };

export type OperatorAccounts = {
  /**
   * Checks a name and a password. Past the limit of failures (per name or per address) it answers
   * `limited` without looking at the password; a right one opens a session whose secret (for the
   * cookie) is answered once.
   */
  signIn(input: { name: string; password: string; address: string }): Promise<SignInResult>;
  /** The operator a session's secret belongs to, while neither the session nor the operator is revoked or expired. */
  session(secret: string): Promise<OperatorSession | null>;
  /** Ends one session (sign-out); true when it was open. */
  signOut(secret: string): Promise<boolean>;
};

export function operatorAccounts(db: Db, options: { now?: () => Date } = {}): OperatorAccounts {
  const now = () => options.now?.() ?? new Date();
  return {
    async signIn({ name, password, address }) {
      const at = now();
      const since = new Date(at.getTime() - OPERATOR_SIGN_IN_LIMIT.windowMs).toISOString();
      // The attempt is counted before the password is checked, in one transaction with the count
      // (serialised on PostgreSQL by an advisory lock), so parallel guesses cannot pass the limit;
      // a right password takes its count back. scrypt runs outside: it must not hold the lock.
      const attempt = await db.transaction().execute(async (trx) => {
        if (dialectOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(${SIGN_IN_LOCK_KEY})`.execute(trx);
        await trx.deleteFrom('operator_sign_in_failures').where('at', '<', since).execute();
        const count = async (column: 'name' | 'address', value: string) =>
          Number(
            (
              await trx
                .selectFrom('operator_sign_in_failures')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .where(column, '=', value)
                .where('at', '>=', since)
                .executeTakeFirstOrThrow()
            ).n,
          );
        if (
          (await count('name', name)) >= OPERATOR_SIGN_IN_LIMIT.perName ||
          (await count('address', address)) >= OPERATOR_SIGN_IN_LIMIT.perAddress
        )
          return null;
        const row = await trx
          .insertInto('operator_sign_in_failures')
          .values({ name, address, at: at.toISOString() })
          .returning('failure_id')
          .executeTakeFirstOrThrow();
        return row.failure_id;
      });
      if (attempt === null) return { ok: false, reason: 'limited' };
      const operator = await db
        .selectFrom('operators')
        .select(['operator_id', 'name', 'password_hash'])
        .where('name', '=', name)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      // An unknown name costs the same scrypt as a known one, so timing does not tell names apart.
      const matches = await verifyPassword(password, operator?.password_hash ?? DUMMY_HASH);
      if (!operator || !matches) return { ok: false, reason: 'wrong' };
      const secret = randomBytes(32).toString('base64url');
      const expiresAt = new Date(at.getTime() + OPERATOR_SESSION_MS).toISOString();
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('operator_sign_in_failures').where('failure_id', '=', attempt).execute();
        await trx
          .insertInto('operator_sessions')
          .values({ secret_hash: sha256(secret), operator_id: operator.operator_id, created_at: at.toISOString(), expires_at: expiresAt })
          .execute();
      });
      return { ok: true, secret, session: { name: operator.name, expiresAt } };
    },

    async session(secret) {
      if (secret.length > 100) return null;
      const row = await db
        .selectFrom('operator_sessions as s')
        .innerJoin('operators as o', 'o.operator_id', 's.operator_id')
        .select(['o.name', 's.expires_at'])
        .where('s.secret_hash', '=', sha256(secret))
        .where('s.revoked_at', 'is', null)
        .where('o.revoked_at', 'is', null)
        .where('s.expires_at', '>', now().toISOString())
        .executeTakeFirst();
      return row ? { name: row.name, expiresAt: row.expires_at } : null;
    },

    async signOut(secret) {
      if (secret.length > 100) return false;
      const result = await db
        .updateTable('operator_sessions')
        .set({ revoked_at: now().toISOString() })
        .where('secret_hash', '=', sha256(secret))
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

// The owner's commands (credentials-cli.ts), each in the audit log as `owner`.

/** Creates an operator; the password is the given one or a generated one, answered once and never stored. */
export async function createOperator(
  db: Db,
  input: { name: string; password?: string },
  /** Runs before the operator is committed: when it fails, no operator is created. */
  beforeCommit?: (password: string) => Promise<void>,
): Promise<{ name: string; password: string }> {
  if (!NAME.test(input.name)) throw new Error('an operator name is 2 to 40 lower-case letters, digits, dots, dashes or underscores');
  const password = input.password ?? generatePassword();
  if (password.length < MIN_PASSWORD || password.length > 200) throw new Error(`an operator password is ${MIN_PASSWORD} to 200 characters`);
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    const taken = await trx.selectFrom('operators').select('operator_id').where('name', '=', input.name).executeTakeFirst();
    if (taken) throw new Error(`an operator named ${input.name} exists already (revoked ones keep their name)`);
    await trx
      .insertInto('operators')
      .values({ name: input.name, password_hash: passwordHash, created_at: new Date().toISOString() })
      .execute();
    await releaseIdentities(trx).audit({ actor: 'owner', action: 'operator-create', part: null, allowed: true, detail: input.name });
    await beforeCommit?.(password);
  });
  return { name: input.name, password };
}

/** Ends every open session of an operator; the count of those ended. */
async function endSessions(trx: DbOrTrx, name: string): Promise<number> {
  const operator = trx.selectFrom('operators').select('operator_id').where('name', '=', name);
  const result = await trx
    .updateTable('operator_sessions')
    .set({ revoked_at: new Date().toISOString() })
    .where('operator_id', 'in', operator)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Revokes an operator and ends all its sessions at once; false when there is no active one of that name. */
export function revokeOperator(db: Db, name: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('operators')
      .set({ revoked_at: new Date().toISOString() })
      .where('name', '=', name)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await endSessions(trx, name);
    await releaseIdentities(trx).audit({ actor: 'owner', action: 'operator-revoke', part: null, allowed: true, detail: name });
    return true;
  });
}

/** Ends every session of an operator (who may sign in again); the count of those ended, null when no such operator. */
export function revokeSessions(db: Db, name: string): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const known = await trx.selectFrom('operators').select('operator_id').where('name', '=', name).executeTakeFirst();
    if (!known) return null;
    const ended = await endSessions(trx, name);
    await releaseIdentities(trx).audit({
      actor: 'owner',
      action: 'sessions-revoke',
      part: null,
      allowed: true,
      detail: `${name}: ${ended}`,
    });
    return ended;
  });
}

export async function listOperators(db: Db) {
  const now = new Date().toISOString();
  const rows = await db
    .selectFrom('operators as o')
    .leftJoin('operator_sessions as s', (join) =>
      join.onRef('s.operator_id', '=', 'o.operator_id').on('s.revoked_at', 'is', null).on('s.expires_at', '>', now),
    )
    .select(['o.name', 'o.created_at', 'o.revoked_at', (eb) => eb.fn.count<number>('s.session_id').as('sessions')])
    .groupBy(['o.operator_id', 'o.name', 'o.created_at', 'o.revoked_at'])
    .orderBy('o.name')
    .execute();
  return rows.map((row) => ({ ...row, sessions: Number(row.sessions) }));
}

/**
 * `npm start` on a shop without operators: creates `spravca` with a generated password, written to
 * <dataDir>/operator-password (mode 600). Answers that file when it created the operator, else null.
 * The file is written before the operator is committed (no operator whose password nobody has).
 * Two servers starting at once on one database: the second one's insert waits for the first and
 * fails on the unique name, so only the one that created the operator writes the file.
 */
export async function ensureFirstOperator(db: Db, dataDir: string): Promise<string | null> {
  if (await db.selectFrom('operators').select('operator_id').limit(1).executeTakeFirst()) return null;
  const file = join(dataDir, FIRST_OPERATOR.file);
  try {
    await createOperator(db, { name: FIRST_OPERATOR.name }, async (password) => {
      await mkdir(dataDir, { recursive: true });
      await writeFile(file, `${password}\n`, { mode: 0o600 });
      await chmod(file, 0o600);
    });
  } catch (error) {
    if (await db.selectFrom('operators').select('operator_id').where('name', '=', FIRST_OPERATOR.name).executeTakeFirst()) return null;
    throw error;
  }
  return file;
}
