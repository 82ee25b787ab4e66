/**
 * The feature switches in force, as one store every part reads: the shell sets them from the
 * page's configuration (the server rendered the page with the same ones) and again whenever the
 * server's registry events carry a change, so an open tab follows a switch within seconds. An area
 * asks `useFlag(area, name)`; the answer uses this browser's canary bucket (flag-rules.ts).
 */
import { create } from 'zustand';
import { flagOn, type FlagShares } from '../rules/flag-rules.ts';

export type FlagState = {
  flags: FlagShares;
  /** This browser's canary bucket (0–99); null while unknown (a first server render). */
  bucket: number | null;
};

export const useFlagStore = create<FlagState>()(() => ({ flags: {}, bucket: null }));

/** Whether an area's switch is on for this browser (a switch the table does not name is on). */
export function useFlag(area: string, name: string): boolean {
  return useFlagStore((state) => flagOn(state.flags, area, name, state.bucket));
}
