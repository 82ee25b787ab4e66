/**
 * The React a part was built with against the React the shell provides. The shell alone bundles
 * react-dom and provides the one shared react every area's pages run on; an area's own copy is a
 * fallback never loaded while the shell provides it (shared-kernel/build/federation.mjs). So an
 * area runs on the shell's React whatever it was built with, and must be built for it: the same
 * major (an element made by another major's JSX runtime is not one this renderer renders) and no
 * newer a minor than the shell's (a minor adds APIs the area's code may call). Patches add none.
 */
const VERSION = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/;

function majorMinor(version: string): [number, number] | null {
  const match = VERSION.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2])] : null;
}

/** True when a shell providing React `provided` can serve an area built with React `built`; unparseable versions never can. */
export function isReactCompatible(provided: string, built: string): boolean {
  const have = majorMinor(provided);
  const need = majorMinor(built);
  if (!have || !need) return false;
  return have[0] === need[0] && have[1] >= need[1];
}
