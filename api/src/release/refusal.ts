/** A release that was refused: a clear message, and nothing changed. */
export type RefusalCode =
  | 'broken_build'
  | 'missing_module'
  | 'incompatible_kernel'
  | 'over_budget'
  | 'lock_held'
  | 'unknown_version'
  | 'nothing_to_roll_back';

export class ReleaseRefused extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
    this.name = 'ReleaseRefused';
  }
}
