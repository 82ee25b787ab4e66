/**
 * The owner's commands on operator accounts (`npm run credentials -- operator-…`, credentials-cli.ts),
 * each in the audit log as `owner`, and the first operator `npm start` creates on a new shop.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db, DbOrTrx } from '../../db/database.ts';
import { hashPassword } from '../../infra/pure/password.ts';
import { releaseIdentities } from '../releases/identities.repository.ts';

/** The name of the operator `npm start` creates on a shop that has none, and where its password goes. */
export const FIRST_OPERATOR = { name: 'spravca', file: 'operator-password' } as const;

const NAME = /^[a-z0-9][a-z0-9._-]{1,39}$/;
const MIN_PASSWORD = 12;

/** A strong generated password: 24 random bytes, 32 characters, safe to paste. */
export const generatePassword = () => randomBytes(24).toString('base64url');

const audit = (trx: DbOrTrx, action: string, detail: string) =>
  releaseIdentities(trx).audit({ actor: 'owner', action, part: null, allowed: true, detail });

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
    await audit(trx, 'operator-create', input.name);
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
    await audit(trx, 'operator-revoke', name);
    return true;
  });
}

/** Ends every session of an operator (who may sign in again); the count of those ended, null when no such operator. */
export function revokeSessions(db: Db, name: string): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const known = await trx.selectFrom('operators').select('operator_id').where('name', '=', name).executeTakeFirst();
    if (!known) return null;
    const ended = await endSessions(trx, name);
    await audit(trx, 'sessions-revoke', `${name}: ${ended}`);
    return ended;
  });
}

/**
 * An operator who lost the device: the second factor and the recovery codes go, the sessions end; at
 * the next sign-in (name and password) the operator can only set up a new one. False when there is no
 * active operator of that name.
 */
export function resetSecondFactor(db: Db, name: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const operator = await trx
      .selectFrom('operators')
      .select('operator_id')
      .where('name', '=', name)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!operator) return false;
    await trx
      .updateTable('operators')
      .set({ totp_secret: null, totp_pending: null, totp_confirmed_at: null, totp_last_step: null })
      .where('operator_id', '=', operator.operator_id)
      .execute();
    await trx.deleteFrom('operator_recovery_codes').where('operator_id', '=', operator.operator_id).execute();
    await endSessions(trx, name);
    await audit(trx, 'operator-totp-reset', name);
    return true;
  });
}

export async function listOperators(db: Db) {
  const now = new Date().toISOString();
  const rows = await db
    .selectFrom('operators as o')
    .leftJoin('operator_sessions as s', (join) =>
      join.onRef('s.operator_id', '=', 'o.operator_id').on('s.revoked_at', 'is', null).on('s.expires_at', '>', now),
    )
    .select(['o.name', 'o.created_at', 'o.revoked_at', 'o.totp_confirmed_at', (eb) => eb.fn.count<number>('s.session_id').as('sessions')])
    .groupBy(['o.operator_id', 'o.name', 'o.created_at', 'o.revoked_at', 'o.totp_confirmed_at'])
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
