/**
 * Staged canaries (ramps): a canary that goes through up to five shares, e.g. 5 → 25 → 50 %, each
 * held for a minimum time without regression before the canary watch moves it on, aborted from any
 * stage, and at the end promoted to everyone or held for an operator. The plan lives in the canary's
 * registry entry (`stages`); these are its bounds, its parsing and its moves.
 */
import type { CanaryRelease, CanaryStages } from './registry.ts';

export const MAX_STAGES = 5;
/** The bounds of a stage's time as the command takes it (`--stage-min`). */
export const STAGE_MINUTES = { min: 1, max: 1440 } as const;
/**
 * The bounds of a stage's time in a plan (ms): the command's minutes, or the server's default
 * (CANARY_STAGE_MS), which may be as short as a second for tests.
 */
export const STAGE_MS = { min: 1000, max: STAGE_MINUTES.max * 60_000 } as const;
/** A stage's time when neither the command nor the server names one. */
export const DEFAULT_STAGE_MS = 30 * 60_000;

/** Why a list of shares is no valid ramp, or null when it is one. */
export function stagesProblem(shares: readonly unknown[]): string | null {
  if (shares.length < 1 || shares.length > MAX_STAGES) return `1 to ${MAX_STAGES} stages`;
  for (const [index, share] of shares.entries()) {
    if (typeof share !== 'number' || !Number.isInteger(share) || share < 1 || share > 99)
      return 'each stage a whole percentage from 1 to 99';
    if (index > 0 && share <= (shares[index - 1] as number)) return 'each stage larger than the one before';
  }
  return null;
}

/** `--stages 5,25,50`: the shares of a ramp, or an error naming the bounds. */
export function parseStages(text: string): number[] {
  const parts = text.split(',').map((part) => part.trim());
  const shares = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : Number.NaN));
  const problem = parts.length > MAX_STAGES ? `1 to ${MAX_STAGES} stages` : stagesProblem(shares);
  if (problem)
    throw new Error(
      `--stages takes 1 to ${MAX_STAGES} whole percentages from 1 to 99, each larger than the one before, e.g. 5,25,50 (${problem})`,
    );
  return shares;
}

/** `--stage-min 30`: a stage's minimum time in ms. */
export function parseStageMinutes(text: string): number {
  const minutes = /^\d{1,4}$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!(minutes >= STAGE_MINUTES.min && minutes <= STAGE_MINUTES.max))
    throw new Error(`--stage-min takes whole minutes from ${STAGE_MINUTES.min} to ${STAGE_MINUTES.max}, e.g. 30`);
  return minutes * 60_000;
}

export const isStageMs = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= STAGE_MS.min && value <= STAGE_MS.max;

/** The plan of a ramp that starts now at its first share. */
export function startStages(shares: number[], at: string, stageMs: number, autoPromote: boolean): CanaryStages {
  return { shares: [...shares], index: 0, stageSince: at, stageMs, autoPromote };
}

/** The canary at its next stage from `at`; null at the last stage. */
export function nextStage(canary: CanaryRelease, at: string): CanaryRelease | null {
  const stages = canary.stages;
  if (!stages || stages.index >= stages.shares.length - 1) return null;
  const index = stages.index + 1;
  return { ...canary, share: stages.shares[index]!, stages: { ...stages, index, stageSince: at } };
}

/** "stage 2 of 3 (25 %)": the history's and the logs' name of a stage. */
export const stageName = (stages: CanaryStages, index = stages.index) =>
  `fáza ${index + 1} z ${stages.shares.length} (${stages.shares[index]} %)`;
