/**
 * Operator accounts of the operator console: an operator signs in with a name, a password and the
 * second factor's code and gets a session cookie. Passwords are scrypt hashes (infra/pure/password.ts),
 * sessions SHA-256 hashes of their 32 random bytes, looked up on every request, so revoking an
 * operator ends its sessions on every server at once.
 *
 * - A session ends 12 h after the sign-in, or after `idleMs` (15 minutes) without a request; each
 *   request moves the idle end on.
 * - An operator without a confirmed second factor gets a session that may only set it up.
 * - Release actions need a re-authentication (a fresh code) within `reauthMs` (5 minutes).
 * - Failed sign-ins and re-authentications are counted in the database (so a cluster counts together)
 *   per name and client address together, and per address: failing another operator's sign-in from
 *   one address locks that address out, never the operator signing in from their own.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import { DUMMY_HASH, verifyPassword } from '../../infra/pure/password.ts';
import { newRecoveryCodes, newTotpSecret, normalizedRecoveryCode, recoveryCodeHash, totpStep } from './second-factor.ts';

/** A session lasts at most this long from the sign-in, used or not. */
export const OPERATOR_SESSION_MS = 12 * 60 * 60_000;
/** A session unused this long is over (sliding: every request moves it on). */
export const OPERATOR_IDLE_MS = 15 * 60_000;
/** A release action needs a code typed within this long. */
export const OPERATOR_REAUTH_MS = 5 * 60_000;
/** Failed sign-ins allowed in the window per operator name from one address, and per address for every name. */
export const OPERATOR_SIGN_IN_LIMIT = { perNameAndAddress: 5, perAddress: 20, windowMs: 15 * 60_000 };
/** Any fixed number no other part of the shop locks (seed and backup use others). */
const SIGN_IN_LOCK_KEY = 7_340_127;

const sha256 = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/**
 * The address failures are counted by: an IPv4 address, or an IPv6 address's /64 (one subscriber's
 * network gets a whole /64; counting each address of it would let one network try without limit).
 */
export function addressKey(ip: string): string {
  const bare = ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
  if (!bare.includes(':')) return bare;
  const [head = '', tail = ''] = bare.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = bare.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, '').toLowerCase())
    .join(':')}::/64`;
}

/** Who a session is, as every operator route sees it. */
export type OperatorSessionState = {
  sessionId: number;
  operatorId: number;
  name: string;
  /** The absolute end (12 h after the sign-in). */
  expiresAt: string;
  /** When it ends unless used before. */
  idleUntil: string;
  /** Whether this session passed the second factor (false: it may only set it up). */
  secondFactor: boolean;
  /** The last re-authentication (a code typed), or the sign-in with a code. */
  reauthAt: string | null;
};

export type SignInResult = { ok: true; secret: string; session: OperatorSessionState } | { ok: false; reason: 'wrong' | 'limited' };
export type CodeResult = { ok: true; session: OperatorSessionState } | { ok: false; reason: 'wrong' | 'limited' };

export type OperatorAccounts = {
  /**
   * Checks a name, a password and, when the operator has a second factor, its code (or a recovery
   * code). Past the limit of failures (per name and address, or per address) it answers `limited`
   * without looking at them; a right sign-in opens a session whose secret (for the cookie) is answered once.
   */
  signIn(input: { name: string; password: string; code?: string | undefined; address: string }): Promise<SignInResult>;
  /** The session a cookie's secret opens, while it is neither revoked, expired nor idle; its use moves the idle end on. */
  session(secret: string): Promise<OperatorSessionState | null>;
  /** A fresh code for this session (release actions need one within `reauthMs`); counted as a sign-in when wrong. */
  reauthenticate(session: OperatorSessionState, code: string, address: string): Promise<CodeResult>;
  /** A new TOTP secret for an operator without a confirmed one, pending until `confirmSecondFactor`; null when one is set up already. */
  startSecondFactor(session: OperatorSessionState): Promise<{ secret: string; uri: string } | null>;
  /**
   * The first code confirms the pending secret: the operator has a second factor from now on, this
   * session passed it, and ten new recovery codes are answered (once; only their hashes are kept).
   */
  confirmSecondFactor(
    session: OperatorSessionState,
    code: string,
    address: string,
  ): Promise<{ ok: true; recoveryCodes: string[]; session: OperatorSessionState } | { ok: false; reason: 'wrong' | 'limited' | 'none' }>;
  /** Ends one session (sign-out); true when it was open. */
  signOut(secret: string): Promise<boolean>;
};

export type OperatorAccountsOptions = {
  /** The clock (tests move it on instead of waiting). */
  now?: () => Date;
  /** The idle timeout (default OPERATOR_IDLE_MS). */
  idleMs?: number;
};

type SecondFactorRow = { operator_id: number; totp_secret: string | null; totp_last_step: number | string | null };

export function operatorAccounts(db: Db, options: OperatorAccountsOptions = {}): OperatorAccounts {
  const now = () => options.now?.() ?? new Date();
  const idleMs = options.idleMs ?? OPERATOR_IDLE_MS;
  const idleUntil = (lastSeen: string) => new Date(Math.min(Date.parse(lastSeen) + idleMs, 8.64e15)).toISOString();

  /**
   * Counts an attempt before anything is checked, in one transaction with the count (serialised on
   * PostgreSQL by an advisory lock), so parallel guesses cannot pass the limit; a right one takes its
   * count back (`forgive`). Null: past the limit.
   */
  async function attempt(name: string, address: string, at: Date): Promise<number | null> {
    const key = addressKey(address);
    const since = new Date(at.getTime() - OPERATOR_SIGN_IN_LIMIT.windowMs).toISOString();
    return db.transaction().execute(async (trx) => {
      if (dialectOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(${SIGN_IN_LOCK_KEY})`.execute(trx);
      await trx.deleteFrom('operator_sign_in_failures').where('at', '<', since).execute();
      const counted = (byName: boolean) => {
        let query = trx
          .selectFrom('operator_sign_in_failures')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('address', '=', key)
          .where('at', '>=', since);
        if (byName) query = query.where('name', '=', name);
        return query.executeTakeFirstOrThrow().then((row) => Number(row.n));
      };
      if ((await counted(true)) >= OPERATOR_SIGN_IN_LIMIT.perNameAndAddress || (await counted(false)) >= OPERATOR_SIGN_IN_LIMIT.perAddress)
        return null;
      const row = await trx
        .insertInto('operator_sign_in_failures')
        .values({ name, address: key, at: at.toISOString() })
        .returning('failure_id')
        .executeTakeFirstOrThrow();
      return row.failure_id;
    });
  }
  const forgive = (failureId: number) => db.deleteFrom('operator_sign_in_failures').where('failure_id', '=', failureId).execute();

  /**
   * Takes a code of the operator's confirmed second factor: a TOTP code of a step after the last one
   * taken (a conditional update, so two requests cannot both take one), or an unused recovery code.
   */
  async function takeCode(operator: SecondFactorRow, code: string, at: Date): Promise<boolean> {
    if (!operator.totp_secret) return false;
    const step = totpStep(operator.totp_secret, code.trim(), at);
    if (step !== null) {
      const taken = await db
        .updateTable('operators')
        .set({ totp_last_step: step })
        .where('operator_id', '=', operator.operator_id)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      return Number(taken.numUpdatedRows) === 1;
    }
    const recovery = normalizedRecoveryCode(code);
    if (!recovery) return false;
    const used = await db
      .updateTable('operator_recovery_codes')
      .set({ used_at: at.toISOString() })
      .where('operator_id', '=', operator.operator_id)
      .where('code_hash', '=', recoveryCodeHash(recovery))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1;
  }

  const sessionRow = (secretHash: string) =>
    db
      .selectFrom('operator_sessions as s')
      .innerJoin('operators as o', 'o.operator_id', 's.operator_id')
      .select([
        's.session_id',
        's.operator_id',
        'o.name',
        's.expires_at',
        's.last_seen_at',
        's.second_factor_at',
        's.reauth_at',
        's.revoked_at',
        'o.revoked_at as operator_revoked_at',
      ])
      .where('s.secret_hash', '=', secretHash)
      .executeTakeFirst();

  const stateOf = (row: NonNullable<Awaited<ReturnType<typeof sessionRow>>>, lastSeen: string): OperatorSessionState => ({
    sessionId: row.session_id,
    operatorId: row.operator_id,
    name: row.name,
    expiresAt: row.expires_at,
    idleUntil: idleUntil(lastSeen),
    secondFactor: row.second_factor_at !== null,
    reauthAt: row.reauth_at,
  });

  return {
    async signIn({ name, password, code, address }) {
      const at = now();
      const failure = await attempt(name, address, at);
      if (failure === null) return { ok: false, reason: 'limited' };
      const operator = await db
        .selectFrom('operators')
        .select(['operator_id', 'name', 'password_hash', 'totp_secret', 'totp_last_step'])
        .where('name', '=', name)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      // An unknown name costs the same scrypt as a known one, so timing does not tell names apart.
      const matches = await verifyPassword(password, operator?.password_hash ?? DUMMY_HASH);
      if (!operator || !matches) return { ok: false, reason: 'wrong' };
      const hasSecondFactor = operator.totp_secret !== null;
      if (hasSecondFactor && !(code && (await takeCode(operator, code, at)))) return { ok: false, reason: 'wrong' };
      const secret = randomBytes(32).toString('base64url');
      const stamp = at.toISOString();
      const expiresAt = new Date(at.getTime() + OPERATOR_SESSION_MS).toISOString();
      const sessionId = await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('operator_sign_in_failures').where('failure_id', '=', failure).execute();
        const row = await trx
          .insertInto('operator_sessions')
          .values({
            secret_hash: sha256(secret),
            operator_id: operator.operator_id,
            created_at: stamp,
            expires_at: expiresAt,
            last_seen_at: stamp,
            second_factor_at: hasSecondFactor ? stamp : null,
            reauth_at: hasSecondFactor ? stamp : null,
          })
          .returning('session_id')
          .executeTakeFirstOrThrow();
        return row.session_id;
      });
      return {
        ok: true,
        secret,
        session: {
          sessionId,
          operatorId: operator.operator_id,
          name: operator.name,
          expiresAt,
          idleUntil: idleUntil(stamp),
          secondFactor: hasSecondFactor,
          reauthAt: hasSecondFactor ? stamp : null,
        },
      };
    },

    async session(secret) {
      if (secret.length > 100) return null;
      const at = now();
      const row = await sessionRow(sha256(secret));
      if (!row || row.revoked_at !== null || row.operator_revoked_at !== null) return null;
      if (row.expires_at <= at.toISOString()) return null;
      if (!row.last_seen_at || Date.parse(row.last_seen_at) + idleMs <= at.getTime()) return null;
      const stamp = at.toISOString();
      await db
        .updateTable('operator_sessions')
        .set({ last_seen_at: stamp })
        .where('session_id', '=', row.session_id)
        .where('last_seen_at', '<', stamp)
        .execute();
      return stateOf(row, stamp);
    },

    async reauthenticate(session, code, address) {
      const at = now();
      const failure = await attempt(session.name, address, at);
      if (failure === null) return { ok: false, reason: 'limited' };
      const operator = await db
        .selectFrom('operators')
        .select(['operator_id', 'totp_secret', 'totp_last_step'])
        .where('operator_id', '=', session.operatorId)
        .executeTakeFirstOrThrow();
      if (!(await takeCode(operator, code, at))) return { ok: false, reason: 'wrong' };
      await forgive(failure);
      await db.updateTable('operator_sessions').set({ reauth_at: at.toISOString() }).where('session_id', '=', session.sessionId).execute();
      return { ok: true, session: { ...session, reauthAt: at.toISOString() } };
    },

    async startSecondFactor(session) {
      const { secret, uri } = newTotpSecret(session.name);
      const result = await db
        .updateTable('operators')
        .set({ totp_pending: secret })
        .where('operator_id', '=', session.operatorId)
        .where('totp_secret', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1 ? { secret, uri } : null;
    },

    async confirmSecondFactor(session, code, address) {
      const at = now();
      const failure = await attempt(session.name, address, at);
      if (failure === null) return { ok: false, reason: 'limited' };
      const operator = await db
        .selectFrom('operators')
        .select(['totp_secret', 'totp_pending'])
        .where('operator_id', '=', session.operatorId)
        .executeTakeFirstOrThrow();
      if (operator.totp_secret !== null || operator.totp_pending === null) return { ok: false, reason: 'none' };
      const step = totpStep(operator.totp_pending, code, at);
      if (step === null) return { ok: false, reason: 'wrong' };
      const codes = newRecoveryCodes();
      const stamp = at.toISOString();
      const confirmed = await db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable('operators')
          .set({ totp_secret: operator.totp_pending, totp_pending: null, totp_confirmed_at: stamp, totp_last_step: step })
          .where('operator_id', '=', session.operatorId)
          .where('totp_secret', 'is', null)
          .where('totp_pending', '=', operator.totp_pending)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return false;
        await trx.deleteFrom('operator_recovery_codes').where('operator_id', '=', session.operatorId).execute();
        await trx
          .insertInto('operator_recovery_codes')
          .values(
            codes.map((recovery) => ({
              operator_id: session.operatorId,
              code_hash: recoveryCodeHash(normalizedRecoveryCode(recovery)!),
              created_at: stamp,
            })),
          )
          .execute();
        await trx
          .updateTable('operator_sessions')
          .set({ second_factor_at: stamp, reauth_at: stamp })
          .where('session_id', '=', session.sessionId)
          .execute();
        await trx.deleteFrom('operator_sign_in_failures').where('failure_id', '=', failure).execute();
        return true;
      });
      if (!confirmed) return { ok: false, reason: 'none' };
      return { ok: true, recoveryCodes: codes, session: { ...session, secondFactor: true, reauthAt: stamp } };
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
