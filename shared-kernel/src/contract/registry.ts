/**
 * The release registry `builds/latest.json`, written by the release tool and read by the shop's
 * server and the shell: which version of the shell and of each area is in force (and each area's
 * pages), canaries running, parts pinned. Read from storage without validation: these types are
 * the one description both sides share.
 */
import type { AreaName, PartName } from './parts.ts';
import type { AreaRoute } from './release-types.ts';

/** The path browsers fetch the public registry from (and its key in the release storage, without the slash). */
export const REGISTRY_PATH = '/builds/latest.json';

export type AreaRelease = {
  version: string;
  /** The area's remote entry, relative to the asset origin, e.g. remotes/catalog/0.1.0-ab12cd34ef/remoteEntry.js */
  entry: string;
  /** The kernel version the area was built against (its contract). */
  kernel: string;
  exposes: string[];
  /** The pages the area ships: every release carries them (a build that declares none is refused). */
  routes: AreaRoute[];
};

/**
 * A staged canary's plan (a ramp): the shares it goes through, the stage it is at, when that stage
 * began and how long each stage must hold before the canary watch moves it on. Bounds: canary-stages.ts.
 */
export type CanaryStages = {
  /** 1–5 shares, each 1–99, strictly increasing; `share` is `shares[index]`. */
  shares: number[];
  index: number;
  /** When the current stage began (ISO). */
  stageSince: string;
  /** How long each stage must hold without regression before the next one (ms). */
  stageMs: number;
  /** After the last stage: promoted to everyone on its own, or held there for an operator. */
  autoPromote: boolean;
};

/** A version of an area in force for a share (percent) of shoppers: those whose sticky bucket is below it. */
export type CanaryRelease = AreaRelease & { share: number; since: string; by: string; stages?: CanaryStages };

/** A part held at a version: nothing moves it until an operator unpins it or overrides the pin. */
export type Pin = { version: string; by: string; at: string; reason: string | null };

export type ShellRelease = { version: string; dir: string; kernel: string };

export type Registry = {
  /** Changes with every move; the shell compares it to detect a new release. */
  revision: string;
  updatedAt: string;
  shell: ShellRelease | null;
  areas: Partial<Record<AreaName, AreaRelease>>;
  canaries?: Partial<Record<AreaName, CanaryRelease>>;
  pins?: Partial<Record<PartName, Pin>>;
};

/** What browsers get from /builds/latest.json: what to load, nothing about who or why. */
export type PublicRegistry = Pick<Registry, 'revision' | 'areas'> & {
  canaries: Partial<Record<AreaName, Omit<CanaryRelease, 'by' | 'since' | 'stages'>>>;
};
