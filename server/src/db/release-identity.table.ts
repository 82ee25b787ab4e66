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
