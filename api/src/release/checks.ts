/**
 * The checks a release must pass before its pointer moves: it fits the
 * shell in force (kernel contract, every module the route table needs),
 * or, for a shell, every area in force fits it; and an area keeps its budget.
 */
import { isContractCompatible } from '@shop/shared-kernel/rules';
import { ReleaseRefused } from './refusal.ts';
import { AREAS, type Registry } from './registry.ts';
import type { AreaBuild, PartBuild, ShellBuild } from './build-info.ts';
import type { ReleaseStorage } from './storage.ts';

async function shellInForce(storage: ReleaseStorage, registry: Registry): Promise<ShellBuild | null> {
  if (!registry.shell) return null;
  const text = await storage.readText(`${registry.shell.dir}/routes.json`);
  if (text === null) return { kind: 'shell', kernel: registry.shell.kernel, requires: {} };
  const routes = JSON.parse(text) as { kernel: string; requires: ShellBuild['requires'] };
  return { kind: 'shell', kernel: routes.kernel, requires: routes.requires };
}

function checkAreaFitsShell(build: AreaBuild, shell: ShellBuild): void {
  if (!isContractCompatible(shell.kernel, build.kernel)) {
    throw new ReleaseRefused(
      'incompatible_kernel',
      `${build.area} was built against kernel ${build.kernel}; the shell in force provides ${shell.kernel}. Nothing was changed.`,
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

export async function checkRelease(
  storage: ReleaseStorage,
  registry: Registry,
  build: PartBuild,
  options: { budgetBytes?: number | null } = {},
): Promise<void> {
  if (build.kind === 'area') {
    const shell = await shellInForce(storage, registry);
    if (shell) checkAreaFitsShell(build, shell);
    if (options.budgetBytes && build.jsBytes > options.budgetBytes) {
      throw new ReleaseRefused(
        'over_budget',
        `${build.area} loads ${(build.jsBytes / 1024).toFixed(1)} KB of compressed JavaScript; its budget is ${(options.budgetBytes / 1024).toFixed(0)} KB. Nothing was changed.`,
      );
    }
    return;
  }
  for (const area of AREAS) {
    const release = registry.areas[area];
    if (!release) continue;
    checkAreaFitsShell({ kind: 'area', area, kernel: release.kernel, exposes: release.exposes, entry: '', jsBytes: 0 }, build);
  }
}
