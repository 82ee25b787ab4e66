/** A release that was refused: a clear message, and nothing changed. */
export type RefusalCode =
  | 'broken_build'
  | 'missing_module'
  | 'incompatible_kernel'
  /** The area's React and the shell's cannot share one React (release/src/shared-versions.ts). */
  | 'incompatible_react'
  | 'over_budget'
  | 'route_clash'
  | 'lock_held'
  | 'unknown_version'
  | 'nothing_to_roll_back'
  | 'rollback_needs_version'
  | 'pinned'
  | 'not_pinned'
  | 'canary_running'
  | 'no_canary'
  /** A staged canary's plan out of bounds (release/src/canary-stages.ts). */
  | 'bad_stages'
  /** A staged canary's stage moved meanwhile (another server's watch, or an operator): nothing to do. */
  | 'stage_moved'
  | 'no_registry'
  /** A manifest missing, altered, signed by a key the shop does not accept, or replayed. */
  | 'bad_signature'
  /** Files on the origin differ from the version's signed manifest. */
  | 'tampered'
  /** The version is marked never to be served again. */
  | 'floored'
  /** The registry moved since the move was asked for (another move came first): ask again. */
  | 'registry_moved'
  /** A team's rollback without the team's signature. */
  | 'signature_required'
  /** An area has as many feature switches as it may: a new one is refused. */
  | 'too_many_flags';

export class ReleaseRefused extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
    this.name = 'ReleaseRefused';
  }
}
