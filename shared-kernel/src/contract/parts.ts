/**
 * The parts of the shop and the layouts the shell offers: the one list every part, the
 * release tool and the tests read (no TypeBox here, so a page may import the values).
 */

/** The independently released areas, in the order the release tool lists them. */
export const AREAS = ['catalog', 'checkout', 'account', 'content'] as const;
export type AreaName = (typeof AREAS)[number];

/** Every independently released part: the areas and the shell. */
export const PARTS = [...AREAS, 'shell'] as const;
export type PartName = (typeof PARTS)[number];

export function isArea(value: string): value is AreaName {
  return (AREAS as readonly string[]).includes(value);
}

export function isPart(value: string): value is PartName {
  return (PARTS as readonly string[]).includes(value);
}

/** The page frames the shell renders an area's route in (a route names one). */
export const LAYOUTS = ['default', 'checkout', 'account'] as const;
export type LayoutName = (typeof LAYOUTS)[number];

export function isLayout(value: string): value is LayoutName {
  return (LAYOUTS as readonly string[]).includes(value);
}

/** A part's folder in the workspace (and its package, `@shop/<folder>`): `shell`, `mf-<area>`. */
export function partFolder(part: PartName): string {
  return part === 'shell' ? 'shell' : `mf-${part}`;
}
