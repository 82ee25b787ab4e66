import type { Generated } from 'kysely';

/**
 * An operator of the console: a scrypt hash of the password (its salt inside, infra/pure/password.ts),
 * the second factor's TOTP secret (`totp_pending` until a first code confirms it) and the last time
 * step a code was taken for; revocable.
 */
export interface OperatorTable {
  operator_id: Generated<number>;
  name: string;
  password_hash: string;
  created_at: string;
  revoked_at: string | null;
  totp_secret: string | null;
  totp_pending: string | null;
  totp_confirmed_at: string | null;
  totp_last_step: number | string | null;
}

/**
 * An operator's sign-in: only a SHA-256 of the cookie's secret is kept; an absolute expiry, the last
 * use (the idle timeout), and when it passed the second factor and last re-authenticated.
 */
export interface OperatorSessionTable {
  session_id: Generated<number>;
  secret_hash: string;
  operator_id: number;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_seen_at: string | null;
  second_factor_at: string | null;
  reauth_at: string | null;
}

/** A failed (or running) sign-in or re-authentication, counted per name and address within the window. */
export interface OperatorSignInFailureTable {
  failure_id: Generated<number>;
  name: string;
  address: string;
  at: string;
}

/** One of an operator's ten one-time recovery codes, kept as a SHA-256 hash; `used_at` once taken. */
export interface OperatorRecoveryCodeTable {
  code_id: Generated<number>;
  operator_id: number;
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

/** A machine's credential (Prometheus's `metrics`): one scope, a SHA-256 of the secret, revocable. */
export interface MachineCredentialTable {
  credential_id: Generated<number>;
  name: string;
  scope: string;
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
}
