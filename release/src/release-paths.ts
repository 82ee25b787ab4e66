import type { PartName } from './registry.ts';

/** Where a released version's folder lives on the origin (immutable once uploaded). */
export const partPrefix = (part: PartName, version: string) =>
  part === 'shell' ? `shells/shell/${version}` : `remotes/${part}/${version}`;

/** The folder of every kept version of a part. */
export const partRoot = (part: PartName) => (part === 'shell' ? 'shells/shell' : `remotes/${part}`);
