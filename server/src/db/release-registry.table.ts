import type { Generated, Selectable } from 'kysely';

/**
 * The release registry in force: one row (`registry_id` 1), its revision growing by one with every
 * move. The origin's `builds/latest.json` is an export of it, never read back as the truth.
 */
export interface ReleaseRegistryTable {
  registry_id: number;
  revision: number;
  /** The registry as JSON (the kernel contract's Registry without its revision and time). */
  state: string;
  updated_at: string;
}

/** One move of a part (the history; `builds/history.jsonl` on the origin is an export of it). */
export interface ReleaseMoveTable {
  move_id: Generated<number>;
  /** The registry's revision the move made. */
  revision: number;
  at: string;
  part: string;
  action: string;
  from_version: string | null;
  to_version: string;
  share: number | null;
  who: string;
  reason: string | null;
  commit_ref: string | null;
  dirty: number | null;
}

/** A version of a part marked never to be put in force again (lifted only by an audited operator's override). */
export interface ReleaseFloorTable {
  part: string;
  version: string;
  floored_at: string;
  floored_by: string;
  reason: string | null;
  lifted_at: string | null;
  lifted_by: string | null;
  lift_reason: string | null;
}

export type ReleaseMoveRow = Selectable<ReleaseMoveTable>;
export type ReleaseFloorRow = Selectable<ReleaseFloorTable>;
