import type { Selectable } from 'kysely';

/** Feature switches per area (domains/releases/feature-flags.repository.ts): a switch not listed is on. */
export interface FeatureFlagTable {
  area: string;
  /** `^[a-z][a-z0-9-]{0,39}$`, at most 20 per area. */
  name: string;
  /** Percent of browsers it is on for (0 off, 100 on), by the canary's sticky bucket. */
  share: number;
  /** The operator or team credential (or signed request's author) that set it last. */
  updated_by: string;
  /** ISO, UTC. */
  updated_at: string;
}

export type FeatureFlagRow = Selectable<FeatureFlagTable>;
