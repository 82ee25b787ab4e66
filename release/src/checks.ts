/**
 * The checks a release must pass before its pointer moves: it fits the
 * shell in force (kernel contract, React, every module the route table needs),
 * or, for a shell, every area in force fits it; and an area keeps its budget.
 */
import { isContractCompatible } from '@shop/shared-kernel/rules';
import { ReleaseRefused } from './refusal.ts';
import { AREAS, type AreaName, type Registry } from './registry.ts';
import { partPrefix } from './release-paths.ts';
import { checkRouteClashes } from './route-specs.ts';
import { isReactCompatible } from './shared-versions.ts';
import { recordedVersion, type AreaBuild, type PartBuild, type ShellBuild } from './build-info.ts';
import type { ReleaseStorage } from './storage.ts';

/** A build's facts file on the origin (routes.json, area.json), or null when it has none or it is not JSON. */
async function readFacts(storage: ReleaseStorage, key: string): Promise<Record<string, unknown> | null> {
  const text = await storage.readText(key);
  if (text === null) return null;
  try {
    const facts = JSON.parse(text) as unknown;
    return typeof facts === 'object' && facts !== null ? (facts as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

async function shellInForce(storage: ReleaseStorage, registry: Registry): Promise<ShellBuild | null> {
  if (!registry.shell) return null;
  const routes = await readFacts(storage, `${registry.shell.dir}/routes.json`);
  if (routes === null) return { kind: 'shell', kernel: registry.shell.kernel, react: null, requires: {} };
  return {
    kind: 'shell',
    kernel: String(routes.kernel),
    react: recordedVersion(routes.react, 'shell'),
    requires: (routes.requires ?? {}) as ShellBuild['requires'],
  };
}

/** The React an area version on the origin was built with (its area.json); null: not recorded. */
async function reactOfVersion(storage: ReleaseStorage, area: AreaName, version: string): Promise<string | null> {
  const facts = await readFacts(storage, `${partPrefix(area, version)}/area.json`);
  return facts ? recordedVersion(facts.react, area) : null;
}

/** `running`: the area is not new but runs already (in force, or as a canary) and the shell is new. */
function checkAreaFitsShell(build: AreaBuild, shell: ShellBuild, running?: 'in force' | 'in a canary'): void {
  if (!isContractCompatible(shell.kernel, build.kernel)) {
    throw new ReleaseRefused(
      'incompatible_kernel',
      `${build.area} was built against kernel ${build.kernel}; the shell in force provides ${shell.kernel}. Nothing was changed.`,
    );
  }
  // A part built before builds recorded their React cannot be checked; every build since records it.
  if (build.react && shell.react && !isReactCompatible(shell.react, build.react)) {
    throw new ReleaseRefused(
      'incompatible_react',
      running
        ? `This shell provides React ${shell.react}; ${build.area} ${running} was built with React ${build.react} and would break under it (one React is shared: same major, the shell's minor at least the area's). Nothing was changed.`
        : `${build.area} was built with React ${build.react}; the shell in force provides React ${shell.react} (one React is shared: same major, the shell's minor at least the area's). Nothing was changed.`,
    );
  }
  const missing = (shell.requires[build.area] ?? []).filter((module) => !build.exposes.includes(module));
  if (missing.length > 0) {
    throw new ReleaseRefused(
      'missing_module',
      `${build.area} does not expose ${missing.join(', ')}, which the shell's route table needs. Nothing was changed.`,
    );
  }
}

export type CheckedBuild = { build: PartBuild; budgetBytes?: number | null };

/**
 * Checks parts released together: each area against the shell it will run
 * under (the new one when it is in the set, else the one in force), and the
 * areas in force that stay against a new shell; areas also against their budget.
 */
export async function checkRelease(storage: ReleaseStorage, registry: Registry, set: CheckedBuild[]): Promise<void> {
  const newShell = set.find((item) => item.build.kind === 'shell')?.build as ShellBuild | undefined;
  const shell = newShell ?? (await shellInForce(storage, registry));
  const newAreas = new Map(set.filter((item) => item.build.kind === 'area').map((item) => [(item.build as AreaBuild).area, item]));
  for (const [, item] of newAreas) {
    const build = item.build as AreaBuild;
    if (shell) checkAreaFitsShell(build, shell);
    if (item.budgetBytes && build.jsBytes > item.budgetBytes) {
      throw new ReleaseRefused(
        'over_budget',
        `${build.area} loads ${(build.jsBytes / 1024).toFixed(1)} KB of compressed JavaScript; its budget is ${(item.budgetBytes / 1024).toFixed(0)} KB. Nothing was changed.`,
      );
    }
  }
  if (!newShell) return;
  // Every area version shoppers may run under the new shell: in force, and a running canary.
  for (const area of AREAS) {
    const running = [
      [registry.areas[area], 'in force'],
      [registry.canaries?.[area], 'in a canary'],
    ] as const;
    for (const [release, how] of running) {
      if (!release || newAreas.has(area)) continue;
      const react = await reactOfVersion(storage, area, release.version);
      checkAreaFitsShell(
        {
          kind: 'area',
          area,
          kernel: release.kernel,
          react,
          exposes: release.exposes,
          routes: release.routes ?? [],
          entry: '',
          jsBytes: 0,
        },
        newShell,
        how,
      );
    }
  }
}

/**
 * The route table shoppers would get from a registry: the areas in force
 * together, and each canary with the other areas in force, without clashes.
 */
export function checkRoutes(next: Registry): void {
  const stable = (Object.entries(next.areas) as [AreaName, NonNullable<Registry['areas'][AreaName]>][]).map(([area, release]) => ({
    area,
    routes: release.routes ?? [],
  }));
  checkRouteClashes(stable);
  for (const [area, canary] of Object.entries(next.canaries ?? {}) as [AreaName, NonNullable<Registry['areas'][AreaName]>][]) {
    checkRouteClashes([...stable.filter((table) => table.area !== area), { area, routes: canary.routes ?? [] }]);
  }
}
