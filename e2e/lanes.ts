/**
 * `npm test` runs the single-server end-to-end tests in two lanes side by side, each with its own
 * shop (port, data directory, database, release origin): one browser and one server keep about one
 * core busy, and a lane's files still run one after another, so the release tests' moves of what is
 * in force never meet another test. E2E_LANE picks a lane; without it every spec runs in one.
 */
export const LANES = ['shop', 'releases'] as const;
export type Lane = (typeof LANES)[number];

/** The specs that move what is in force: releases, canaries, switches, tampered or failing files. */
const RELEASES = /\/(?:release-[\w-]+|canary-[\w-]+|integrity|load-recovery|feature-flags|render-sandbox|server-render)\.spec\.ts$/;

export function laneFilter(lane: string | undefined): { testMatch?: RegExp; testIgnore?: RegExp } {
  if (lane === undefined || lane === '') return {};
  if (lane === 'releases') return { testMatch: RELEASES };
  if (lane === 'shop') return { testIgnore: RELEASES };
  throw new Error(`E2E_LANE must be one of ${LANES.join(', ')}, not ${lane}`);
}
