import type { Generated, Selectable } from 'kysely';

/**
 * A key whose signatures on release manifests the shop accepts: a team's (its area only) or the
 * shop's own release key (`area` null). Only the public key is kept.
 */
export interface ReleaseSigningKeyTable {
  key_id: string;
  owner: string;
  area: string | null;
  public_key: string;
  created_at: string;
  /** From then on nothing it signed is trusted: not new uploads, not the versions it signed before. */
  revoked_at: string | null;
}

/** A signed manifest accepted once through an upload: the same signature again is a replay. */
export interface ReleaseSignatureTable {
  signature_hash: string;
  key_id: string;
  part: string;
  version: string;
  accepted_at: string;
}

/** A difference the integrity check found: a file, a manifest's signature, or a checkout page's headers. */
export interface ReleaseIntegrityFindingTable {
  finding_id: Generated<number>;
  part: string;
  version: string;
  /** The file (relative to the version's folder), or the page whose headers differ. */
  subject: string;
  kind: string;
  expected: string | null;
  actual: string | null;
  first_seen: string;
  last_seen: string;
  /** What was done: 'fallback' (the part went back to its last good version), 'canary-aborted', 'alert'. */
  action: string;
  detail: string | null;
}

/** The integrity watch's last finished check ('files': the released files and the checkout page's headers). */
export interface ReleaseIntegrityCheckTable {
  name: string;
  checked_at: string;
  outcome: string;
  /** The registry revision the check began with (null: it could not read it). */
  revision: string | null;
}

export type ReleaseIntegrityFindingRow = Selectable<ReleaseIntegrityFindingTable>;
