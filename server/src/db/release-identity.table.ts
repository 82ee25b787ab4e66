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

/** One release action, allowed or refused; rows are only ever added. */
export interface ReleaseAuditTable {
  audit_id: Generated<number>;
  at: string;
  actor: string;
  action: string;
  part: string | null;
  allowed: number;
  detail: string | null;
}

export type ReleaseAuditRow = Selectable<ReleaseAuditTable>;
