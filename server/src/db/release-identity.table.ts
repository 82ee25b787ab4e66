import type { Generated, Selectable } from 'kysely';

/** A team's release credential: one area, its secret kept only as a SHA-256 hash. */
export interface ReleaseCredentialTable {
  credential_id: Generated<number>;
  name: string;
  area: string;
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
}

/**
 * One release action, allowed or refused; rows are only ever added (triggers refuse UPDATE and
 * DELETE), each chained to the one before by hash (domains/releases/audit-chain.ts).
 */
export interface ReleaseAuditTable {
  audit_id: Generated<number>;
  at: string;
  actor: string;
  action: string;
  part: string | null;
  allowed: number;
  detail: string | null;
  /** The previous row's `row_hash` (the first row: 64 zeros); unique, so the chain cannot fork. */
  prev_hash: string;
  /** SHA-256 of the previous hash and this row's fields (canonical JSON). */
  row_hash: string;
}

export type ReleaseAuditRow = Selectable<ReleaseAuditTable>;

/** An operator of /ops: a scrypt hash of the password (its salt inside, infra/pure/password.ts); revocable. */
export interface OperatorTable {
  operator_id: Generated<number>;
  name: string;
  password_hash: string;
  created_at: string;
  revoked_at: string | null;
}

/** An operator's sign-in: only a SHA-256 of the cookie's secret is kept; an absolute expiry. */
export interface OperatorSessionTable {
  session_id: Generated<number>;
  secret_hash: string;
  operator_id: number;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** A failed (or running) sign-in, counted per name and per client address within the window. */
export interface OperatorSignInFailureTable {
  failure_id: Generated<number>;
  name: string;
  address: string;
  at: string;
}
