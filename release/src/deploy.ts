/**
 * Deploys: one part or several together are checked, uploaded to their immutable versioned paths
 * and put in force (for everyone, for a canary share, or for nobody yet as a preview) in one
 * registry write under the release lock, each move appended to the history with who, why and from
 * which commit. Versions already on the origin go the same way (a move request the server applies).
 */
import { hashBuild, readBuild, type PartBuild } from './build-info.ts';
import { DEFAULT_STAGE_MS, isStageMs, stagesProblem, startStages } from './canary-stages.ts';
import { checkRelease, checkRoutes } from './checks.ts';
import type { ReleaseIntegrity } from './integrity.ts';
import { prune } from './prune.ts';
import { originBook, type Floor, type RegistryBook } from './registry-book.ts';
import { areaRelease, assertNotFloored, buildOnOrigin, pointTo, requireRegistry, withoutKey, type MoveResult } from './registry-moves.ts';
import { ReleaseRefused } from './refusal.ts';
import { historyEntry, versionOf, type HistoryEntry, type PartName, type Provenance, type Registry } from './registry.ts';
import { partPrefix } from './release-paths.ts';
import { digestBuild, signManifest, type SignedManifest, type SigningKey } from './signing.ts';
import type { ReleaseStorage } from './storage.ts';
import { uploadVersion } from './upload-version.ts';

export type PartInput = {
  part: PartName;
  distDir: string;
  packageVersion: string;
  budgetBytes?: number | null;
  /** The build's manifest as its team signed it (an upload; the caller verified it against the files). */
  signed?: SignedManifest;
};

export type DeployMode =
  /** In force for every shopper. */
  | { kind: 'live' }
  /** Uploaded and checked, in force for nobody: a signed preview link loads it. */
  | { kind: 'publish' }
  /**
   * In force for `share` percent of shoppers beside the stable version; with `stages` (a ramp whose
   * first share is `share`), moved on by the canary watch after each stage's `stageMs` (default
   * DEFAULT_STAGE_MS) without regression, and at the end promoted (`autoPromote`) or held.
   */
  | { kind: 'canary'; share: number; stages?: number[]; stageMs?: number; autoPromote?: boolean };

export type DeploySetOptions = {
  storage: ReleaseStorage;
  /** Where the registry in force is kept (default: the origin's files, untrusted by the shop's servers). */
  book?: RegistryBook;
  parts: PartInput[];
  provenance: Provenance;
  keep?: number;
  mode?: DeployMode;
  /** `npm start`: move only parts whose build is new to the origin and not pinned; report the rest. */
  onlyNew?: boolean;
  /** Deploy a pinned part anyway (and unpin it). */
  overridePin?: boolean;
  /** Allow an origin without a registry (a new origin); otherwise such a release is refused. */
  init?: boolean;
  /** Signs each build that comes without a signed manifest (the shop's or the team's key); without it such a build goes unsigned and no server will serve it. */
  signingKey?: SigningKey | null;
};

type Prepared = Omit<PartInput, 'distDir'> & {
  /** The build to upload; null: the version is on the origin already (a request the server applies). */
  distDir: string | null;
  build: PartBuild;
  version: string;
  manifest: SignedManifest | null;
};

/** Why a part is not moved by this release; null: it moves. Throws when the release must be refused. */
async function reasonToLeave(
  storage: ReleaseStorage,
  registry: Registry,
  floors: readonly Floor[],
  item: Prepared,
  options: DeploySetOptions,
): Promise<string | null> {
  const current = versionOf(registry, item.part);
  if (item.version !== current && floors.some((floor) => floor.part === item.part && floor.version === item.version)) {
    if (options.onlyNew) return `${item.version} is marked never to be served again`;
    assertNotFloored(floors, item.part, item.version);
  }
  const pin = registry.pins?.[item.part];
  // A preview moves nothing, so a pin does not stop it.
  if (pin && !options.overridePin && options.mode?.kind !== 'publish') {
    const why = `pinned at ${pin.version} by ${pin.by} (${pin.at}${pin.reason ? `: ${pin.reason}` : ''})`;
    if (options.onlyNew) return why;
    throw new ReleaseRefused(
      'pinned',
      `${item.part} is ${why}. Unpin it (release unpin ${item.part}) or deploy with --override-pin. Nothing was changed.`,
    );
  }
  const canary = item.part === 'shell' ? undefined : registry.canaries?.[item.part];
  if (canary && (options.mode?.kind ?? 'live') !== 'publish') {
    const why = `a canary (${canary.version}, ${canary.share} %) is running`;
    if (options.onlyNew) return why;
    throw new ReleaseRefused('canary_running', `${item.part}: ${why}. Promote or abort it first. Nothing was changed.`);
  }
  if (options.onlyNew && item.version !== current && (await storage.exists(partPrefix(item.part, item.version)))) {
    return `${item.version} was released before and is not in force now (rolled back or replaced); deploy it by name to bring it back`;
  }
  return null;
}

/**
 * Releases one part, or several together (`deploy all`): every build is
 * checked against the new versions of the others (a shell whose kernel the
 * new areas need; routes that clash with no other area's), then all are
 * uploaded to their immutable paths and every pointer moves in one registry
 * write. Anything refused changes nothing.
 */
export async function deploySet(options: DeploySetOptions): Promise<MoveResult[]> {
  const prepared: Prepared[] = [];
  for (const input of options.parts) {
    const version = `${input.packageVersion}-${await hashBuild(input.distDir)}`;
    const manifest =
      input.signed ??
      (options.signingKey
        ? signManifest(options.signingKey, { part: input.part, version, files: await digestBuild(input.distDir) })
        : null);
    prepared.push({ ...input, build: await readBuild(input.distDir, input.part), version, manifest });
  }
  return applyDeploy(options, prepared);
}

/** Versions already on the origin (uploaded with their signed manifests by the release tool), as the server applies a request for them. */
export type OriginPart = { part: PartName; version: string; budgetBytes?: number | null };

/**
 * Puts versions that are on the origin already in force (or in a canary, or publishes them), with
 * the same checks as a deploy; each version's files must match its signed manifest first.
 */
export async function deployFromOrigin(
  options: Omit<DeploySetOptions, 'parts' | 'signingKey'> & { parts: OriginPart[]; integrity?: ReleaseIntegrity | null },
): Promise<MoveResult[]> {
  const prepared: Prepared[] = [];
  for (const item of options.parts) {
    const build = await buildOnOrigin(options.storage, item.part, item.version, options.integrity);
    prepared.push({
      part: item.part,
      version: item.version,
      distDir: null,
      packageVersion: '',
      budgetBytes: item.budgetBytes ?? null,
      build,
      manifest: null,
    });
  }
  return applyDeploy({ ...options, parts: [] }, prepared);
}

async function applyDeploy(options: DeploySetOptions, prepared: Prepared[]): Promise<MoveResult[]> {
  const { storage, provenance } = options;
  const book = options.book ?? originBook(storage);
  const mode = options.mode ?? { kind: 'live' };
  if (mode.kind === 'canary' && (prepared.length !== 1 || prepared[0]!.part === 'shell')) {
    throw new ReleaseRefused('broken_build', 'A canary releases one area at a time (not the shell). Nothing was changed.');
  }
  if (mode.kind === 'canary' && mode.stages) {
    const problem = stagesProblem(mode.stages) ?? (mode.stages[0] !== mode.share ? 'the first stage is the share' : null);
    if (problem || (mode.stageMs !== undefined && !isStageMs(mode.stageMs)))
      throw new ReleaseRefused(
        'bad_stages',
        `A staged canary takes 1 to 5 shares from 1 to 99, each larger than the one before, and a stage time from 1 to 1440 minutes${problem ? ` (${problem})` : ''}. Nothing was changed.`,
      );
  }
  const what = `${mode.kind === 'live' ? 'deploy' : mode.kind} ${prepared.map((item) => `${item.part} ${item.version}`).join(', ')}`;
  return book.exclusive(what, async () => {
    await requireRegistry(storage, book, options.init);
    const [registry, floors] = await Promise.all([book.read(), book.floors()]);
    const results: MoveResult[] = [];
    const moving: Prepared[] = [];
    for (const item of prepared) {
      const from = versionOf(registry, item.part);
      const left = await reasonToLeave(storage, registry, floors, item, options);
      if (left) results.push({ part: item.part, version: item.version, from, changed: false, left });
      else moving.push(item);
    }
    await checkRelease(storage, registry, moving);
    // Every mode is checked as if the builds were in force for everyone: a preview or canary may be promoted.
    let everyone = registry;
    for (const item of moving) everyone = pointTo(everyone, item.part, item.version, item.build);
    checkRoutes(everyone);

    for (const item of moving) if (item.distDir) await uploadVersion(storage, item.part, item.version, item.distDir, item.manifest);
    const at = new Date().toISOString();
    let next: Registry = registry;
    const entries: HistoryEntry[] = [];
    for (const item of moving) {
      const from = versionOf(registry, item.part);
      if (mode.kind === 'publish') {
        results.push({ part: item.part, version: item.version, from, changed: false });
        entries.push(historyEntry({ at, part: item.part, action: 'publish', from, to: item.version }, provenance));
        continue;
      }
      if (mode.kind === 'canary' && item.build.kind === 'area') {
        const changed = from !== item.version;
        results.push({ part: item.part, version: item.version, from, changed });
        if (!changed) continue;
        const canary = {
          ...areaRelease(item.build.area, item.version, item.build),
          share: mode.share,
          since: at,
          by: provenance.who,
          ...(mode.stages ? { stages: startStages(mode.stages, at, mode.stageMs ?? DEFAULT_STAGE_MS, mode.autoPromote === true) } : {}),
        };
        next = { ...next, canaries: { ...next.canaries, [item.build.area]: canary } };
        checkRoutes(next);
        entries.push(historyEntry({ at, part: item.part, action: 'canary', from, to: item.version, share: mode.share }, provenance));
        continue;
      }
      const changed = from !== item.version;
      results.push({ part: item.part, version: item.version, from, changed });
      if (registry.pins?.[item.part]) next = { ...next, pins: withoutKey(next.pins, item.part) };
      if (!changed) continue;
      next = pointTo(next, item.part, item.version, item.build);
      entries.push(historyEntry({ at, part: item.part, action: 'deploy', from, to: item.version }, provenance));
    }
    if (next !== registry || entries.length > 0) await book.commit(registry, next, entries);
    for (const item of moving) await prune(storage, item.part, options.keep, book);
    return results;
  });
}

export type DeployOptions = PartInput & {
  storage: ReleaseStorage;
  book?: RegistryBook;
  provenance: Provenance;
  keep?: number;
  mode?: DeployMode;
  overridePin?: boolean;
  init?: boolean;
  signingKey?: SigningKey | null;
};

/** Checks a build, uploads it to its immutable path and moves the part's pointer to it (or starts its canary, or publishes it). */
export async function deploy(options: DeployOptions): Promise<MoveResult> {
  const { storage, book, provenance, keep, mode, overridePin, init, signingKey, ...part } = options;
  const [result] = await deploySet({ storage, book, provenance, parts: [part], keep, mode, overridePin, init, signingKey });
  return result!;
}
