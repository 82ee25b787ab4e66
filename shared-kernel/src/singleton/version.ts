/**
 * The contract version of the shared kernel. Areas are built against one
 * contract version; a deploy refuses an area whose required version the
 * shell in force does not provide (see isContractCompatible).
 * Must equal the "version" field of shared-kernel/package.json.
 */
export const KERNEL_VERSION = '3.1.0';

type Semver = readonly [major: number, minor: number, patch: number];

const SEMVER = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/;

function parseSemver(text: string): Semver | null {
  const match = SEMVER.exec(text.trim());
  if (!match) return null;
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/**
 * True when a kernel of version `provided` can serve an area built against
 * `required`: same major version and provided >= required.
 * Unparseable versions are never compatible. Pre-release suffixes are ignored.
 */
export function isContractCompatible(provided: string, required: string): boolean {
  const have = parseSemver(provided);
  const need = parseSemver(required);
  if (!have || !need) return false;
  if (have[0] !== need[0]) return false;
  if (have[1] !== need[1]) return have[1] > need[1];
  return have[2] >= need[2];
}
