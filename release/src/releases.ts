/**
 * Release operations: deploy (check, upload to an immutable versioned path,
 * move the pointer: for everyone, for a canary share, or for nobody yet as a
 * preview), rollback (move the pointer back and pin it there), pin and unpin,
 * status and pruning. Every move happens under the release lock and is
 * appended to the history with who, why and from which commit.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { hashBuild, listFiles, readBuild, type PartBuild } from './build-info.ts';
import { checkRelease, checkRoutes } from './checks.ts';
import { readLock, type HeldLock } from './lock.ts';
import { originBook, type Floor, type FloorChange, type RegistryBook } from './registry-book.ts';
import { ReleaseRefused } from './refusal.ts';
import {
  AREAS,
  historyEntry,
  versionOf,
  type AreaName,
  type HistoryEntry,
  type PartName,
  type Pin,
  type Provenance,
  type Registry,
} from './registry.ts';
import { rollbackTarget, type RollbackTarget } from './rollback-target.ts';
import { partPrefix, partRoot } from './release-paths.ts';
import { digestBuild, MANIFEST_FILE, SIGNATURE_FILE, signManifest, type SignedManifest, type SigningKey } from './signing.ts';
import type { ReleaseIntegrity } from './integrity.ts';
import type { ReleaseStorage } from './storage.ts';

const COMPRESSIBLE = /\.(js|mjs|css|json|html|svg|txt)$/;
/** The manifest and its signature are read by the server, never sent compressed. */
const NOT_PRECOMPRESSED = new Set([MANIFEST_FILE, SIGNATURE_FILE]);

export { partPrefix };

export type MoveResult = {
  part: PartName;
  version: string;
  from: string | null;
  changed: boolean;
  /** Why this part was not moved (only with `onlyNew`): pinned, released before, canary running. */
  left?: string;
};

async function precompress(dir: string): Promise<void> {
  for (const file of await listFiles(dir)) {
    if (!COMPRESSIBLE.test(file) || NOT_PRECOMPRESSED.has(file.replace(/^.*\//, ''))) continue;
    const body = await readFile(file);
    if (body.length < 256) continue;
    await writeFile(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
  }
}

function areaRelease(part: AreaName, version: string, build: PartBuild & { kind: 'area' }) {
  const prefix = partPrefix(part, version);
  return { version, entry: `${prefix}/${build.entry}`, kernel: build.kernel, exposes: build.exposes, routes: build.routes };
}

function pointTo(registry: Registry, part: PartName, version: string, build: PartBuild): Registry {
  if (build.kind === 'shell') return { ...registry, shell: { version, dir: partPrefix(part, version), kernel: build.kernel } };
  return { ...registry, areas: { ...registry.areas, [build.area]: areaRelease(build.area, version, build) } };
}

function withoutKey<T extends object>(record: T | undefined, key: string): T {
  const copy = { ...(record ?? {}) } as Record<string, unknown>;
  delete copy[key];
  return copy as T;
}

export type PartInput = {
  part: PartName;
  distDir: string;
  packageVersion: string;
  budgetBytes?: number | null;
  /** The build's manifest as its team signed it (an upload; the caller verified it against the files). */
  signed?: SignedManifest;
};

/** Uploads a build to its immutable versioned folder with its signed manifest (nothing when the version is there already). */
export async function uploadVersion(
  storage: ReleaseStorage,
  part: PartName,
  version: string,
  distDir: string,
  signed: SignedManifest | null,
): Promise<void> {
  const prefix = partPrefix(part, version);
  if (await storage.exists(prefix)) {
    // Released before signing began: the same content (the version is its hash) gets its manifest now.
    // Were the files on the origin changed meanwhile, they still differ from it and are found.
    if (signed && !(await storage.exists(`${prefix}/${MANIFEST_FILE}`))) {
      await storage.writeTextAtomic(`${prefix}/${SIGNATURE_FILE}`, `${signed.signature}\n`);
      await storage.writeTextAtomic(`${prefix}/${MANIFEST_FILE}`, signed.text);
    }
    return;
  }
  const staging = await mkdtemp(join(tmpdir(), `release-${part}-`));
  try {
    await cp(distDir, staging, { recursive: true });
    if (signed) {
      await writeFile(join(staging, MANIFEST_FILE), signed.text);
      await writeFile(join(staging, SIGNATURE_FILE), `${signed.signature}\n`);
    }
    await precompress(staging);
    await storage.putFolder(staging, prefix);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

export type DeployMode =
  /** In force for every shopper. */
  | { kind: 'live' }
  /** Uploaded and checked, in force for nobody: a signed preview link loads it. */
  | { kind: 'publish' }
  /** In force for `share` percent of shoppers beside the stable version. */
  | { kind: 'canary'; share: number };

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

async function requireRegistry(storage: ReleaseStorage, book: RegistryBook, init: boolean | undefined): Promise<void> {
  if (init || (await book.exists())) return;
  throw new ReleaseRefused(
    'no_registry',
    `There is no release registry on this origin (${storage.location('builds/latest.json')}). Check DATA_DIR or --origin; to start a new origin, pass --init. Nothing was changed.`,
  );
}

type Prepared = Omit<PartInput, 'distDir'> & {
  /** The build to upload; null: the version is on the origin already (a request the server applies). */
  distDir: string | null;
  build: PartBuild;
  version: string;
  manifest: SignedManifest | null;
};

/** Refuses to put a floored version in force (or in a canary, a preview, a pin). */
export function assertNotFloored(floors: readonly Floor[], part: PartName, version: string): void {
  const floor = floors.find((candidate) => candidate.part === part && candidate.version === version);
  if (!floor) return;
  throw new ReleaseRefused(
    'floored',
    `${part} ${version} is marked never to be served again (by ${floor.by}, ${floor.at}${floor.reason ? `: ${floor.reason}` : ''}). Only an operator's audited override lifts that. Nothing was changed.`,
  );
}

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
        const canary = { ...areaRelease(item.build.area, item.version, item.build), share: mode.share, since: at, by: provenance.who };
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

async function buildOnOrigin(
  storage: ReleaseStorage,
  part: PartName,
  version: string,
  integrity: ReleaseIntegrity | null | undefined,
): Promise<PartBuild> {
  const prefix = partPrefix(part, version);
  if (!(await storage.exists(prefix))) {
    throw new ReleaseRefused('unknown_version', `${part} ${version} is not on the origin (pruned or never released). Nothing was changed.`);
  }
  // A version goes back in force only with the files its team signed.
  await integrity?.requireIntact(part, version);
  return readBuild(await storage.materialize(prefix), part);
}

/** Ends a running canary in `next` and records why (a rollback or an operator's or the watchdog's abort). */
function endCanary(next: Registry, area: AreaName, at: string, provenance: Provenance, entries: HistoryEntry[]): Registry {
  const canary = next.canaries?.[area];
  if (!canary) return next;
  entries.push(
    historyEntry({ at, part: area, action: 'abort', from: canary.version, to: next.areas[area]?.version ?? canary.version }, provenance),
  );
  return { ...next, canaries: withoutKey(next.canaries, area) };
}

/**
 * Moves a part's pointer back, without building, and pins it there. Without a
 * version it goes to the last version in force before the current one was
 * first deployed, skipping versions rolled back from; a rollback of a
 * rollback must name its version. A running canary of the part ends too.
 */
export async function rollback(options: {
  storage: ReleaseStorage;
  book?: RegistryBook;
  part: PartName;
  to?: string | null;
  provenance: Provenance;
  integrity?: ReleaseIntegrity | null;
  /** Mark the version rolled back from never to be served again (default true; the integrity watch's fallback leaves it unmarked). */
  floorFrom?: boolean;
}): Promise<MoveResult> {
  const { storage, part, provenance } = options;
  const book = options.book ?? originBook(storage);
  return book.exclusive(`rollback ${part}`, async () => {
    await requireRegistry(storage, book, false);
    const [registry, floors] = await Promise.all([book.read(), book.floors(part)]);
    const current = versionOf(registry, part);
    const floored = new Set(floors.map((floor) => floor.version));
    const target = options.to ?? rollbackTarget(await book.history(), part, current, floored).version;
    assertNotFloored(floors, part, target);
    const build = await buildOnOrigin(storage, part, target, options.integrity);
    await checkRelease(storage, registry, [{ build }]);
    const at = new Date().toISOString();
    const entries: HistoryEntry[] = [];
    let next = part === 'shell' ? registry : endCanary(registry, part, at, { ...provenance, reason: `rollback of ${part}` }, entries);
    next = pointTo(next, part, target, build);
    checkRoutes(next);
    const pin: Pin = { version: target, by: provenance.who, at, reason: provenance.reason ?? null };
    next = { ...next, pins: { ...next.pins, [part]: pin } };
    entries.push(historyEntry({ at, part, action: 'rollback', from: current, to: target }, provenance));
    const floorChanges: FloorChange[] =
      options.floorFrom !== false && current && current !== target
        ? [
            {
              part,
              version: current,
              by: provenance.who,
              reason: `vrátené z tejto verzie${provenance.reason ? `: ${provenance.reason}` : ''}`,
            },
          ]
        : [];
    await book.commit(registry, next, entries, floorChanges);
    return { part, version: target, from: current, changed: current !== target };
  });
}

/** Pins a part at the version in force (nothing moves it until unpinned), or unpins it. */
export async function setPin(options: {
  storage: ReleaseStorage;
  book?: RegistryBook;
  part: PartName;
  pinned: boolean;
  provenance: Provenance;
}): Promise<Pin | null> {
  const { storage, part, pinned, provenance } = options;
  const book = options.book ?? originBook(storage);
  return book.exclusive(`${pinned ? 'pin' : 'unpin'} ${part}`, async () => {
    await requireRegistry(storage, book, false);
    const registry = await book.read();
    const current = versionOf(registry, part);
    const at = new Date().toISOString();
    if (pinned) {
      if (!current) throw new ReleaseRefused('unknown_version', `${part} has no version in force to pin. Nothing was changed.`);
      const pin: Pin = { version: current, by: provenance.who, at, reason: provenance.reason ?? null };
      assertNotFloored(await book.floors(part), part, current);
      await book.commit(registry, { ...registry, pins: { ...registry.pins, [part]: pin } }, [
        historyEntry({ at, part, action: 'pin', from: current, to: current }, provenance),
      ]);
      return pin;
    }
    const pin = registry.pins?.[part];
    if (!pin) throw new ReleaseRefused('not_pinned', `${part} is not pinned. Nothing was changed.`);
    await book.commit(registry, { ...registry, pins: withoutKey(registry.pins, part) }, [
      historyEntry({ at, part, action: 'unpin', from: pin.version, to: current ?? pin.version }, provenance),
    ]);
    return null;
  });
}

/** Finishes an area's canary: `promote` puts it in force for everyone, `abort` takes it away from everyone. */
export async function finishCanary(options: {
  storage: ReleaseStorage;
  book?: RegistryBook;
  area: AreaName;
  outcome: 'promote' | 'abort';
  provenance: Provenance;
  expectVersion?: string;
  integrity?: ReleaseIntegrity | null;
}): Promise<MoveResult> {
  const { storage, area, outcome, provenance } = options;
  const book = options.book ?? originBook(storage);
  return book.exclusive(`${outcome} ${area} canary`, async () => {
    await requireRegistry(storage, book, false);
    const registry = await book.read();
    const canary = registry.canaries?.[area];
    if (!canary || (options.expectVersion && canary.version !== options.expectVersion)) {
      throw new ReleaseRefused(
        'no_canary',
        `${area} has no canary${options.expectVersion ? ` ${options.expectVersion}` : ''} running. Nothing was changed.`,
      );
    }
    const from = versionOf(registry, area);
    const at = new Date().toISOString();
    if (outcome === 'abort') {
      const entries: HistoryEntry[] = [];
      await book.commit(registry, endCanary(registry, area, at, provenance, entries), entries);
      return { part: area, version: from ?? canary.version, from: canary.version, changed: true };
    }
    assertNotFloored(await book.floors(area), area, canary.version);
    const build = await buildOnOrigin(storage, area, canary.version, options.integrity);
    await checkRelease(storage, registry, [{ build }]);
    const next = pointTo(
      { ...registry, canaries: withoutKey(registry.canaries, area), pins: withoutKey(registry.pins, area) },
      area,
      canary.version,
      build,
    );
    checkRoutes(next);
    await book.commit(registry, next, [
      historyEntry({ at, part: area, action: 'promote', from, to: canary.version, share: 100 }, provenance),
    ]);
    return { part: area, version: canary.version, from, changed: true };
  });
}

export type PartStatus = {
  part: PartName;
  version: string | null;
  since: string | null;
  by: string | null;
  versionsKept: string[];
  pin: Pin | null;
  canary: { version: string; share: number; since: string; by: string } | null;
  /** Where a rollback without a version would go, or why it would be refused. */
  rollback: RollbackTarget | { refused: string };
  /** Versions marked never to be served again. */
  floors: Floor[];
};

export async function status(
  storage: ReleaseStorage,
  book: RegistryBook = originBook(storage),
): Promise<{ revision: string; registry: boolean; lock: HeldLock | null; parts: PartStatus[] }> {
  const [registry, entries, exists, lock, floors] = await Promise.all([
    book.read(),
    book.history(),
    book.exists(),
    readLock(storage),
    book.floors(),
  ]);
  const parts: PartStatus[] = [];
  for (const part of ['shell', ...AREAS] as PartName[]) {
    const version = versionOf(registry, part);
    const last = [...entries].reverse().find((entry) => entry.part === part && entry.to === version && entry.action !== 'publish') ?? null;
    const canary = part === 'shell' ? undefined : registry.canaries?.[part];
    const partFloors = floors.filter((floor) => floor.part === part);
    let target: PartStatus['rollback'];
    try {
      target = rollbackTarget(entries, part, version, new Set(partFloors.map((floor) => floor.version)));
    } catch (error) {
      if (!(error instanceof ReleaseRefused)) throw error;
      target = { refused: error.message };
    }
    parts.push({
      part,
      version,
      since: last?.at ?? null,
      by: last?.who ?? null,
      versionsKept: (await storage.list(partRoot(part))).filter((name) => !name.endsWith('.tmp')).sort(),
      pin: registry.pins?.[part] ?? null,
      canary: canary ? { version: canary.version, share: canary.share, since: canary.since, by: canary.by } : null,
      rollback: target,
      floors: partFloors,
    });
  }
  return { revision: registry.revision, registry: exists, lock, parts };
}

export async function history(storage: ReleaseStorage, part?: PartName, book: RegistryBook = originBook(storage)): Promise<HistoryEntry[]> {
  const entries = await book.history();
  return part ? entries.filter((entry) => entry.part === part) : entries;
}

/**
 * Keeps the last `keep` versions of a part (by when they were last in force or
 * published), never the one in force, its canary, its pin or its rollback target.
 * Runs under the lock.
 */
export async function prune(
  storage: ReleaseStorage,
  part: PartName,
  keep = Number(process.env.RELEASE_KEEP ?? 5),
  book: RegistryBook = originBook(storage),
): Promise<string[]> {
  const registry = await book.read();
  const entries = await book.history();
  const current = versionOf(registry, part);
  const protectedVersions = new Set<string>(
    [current, registry.pins?.[part]?.version, part === 'shell' ? undefined : registry.canaries?.[part]?.version].filter(
      Boolean,
    ) as string[],
  );
  try {
    protectedVersions.add(rollbackTarget(entries, part, current).version);
  } catch {
    // No default target: nothing more to keep.
  }
  const lastUsed = new Map<string, number>();
  entries.forEach((entry, index) => {
    if (entry.part === part) lastUsed.set(entry.to, index);
  });
  const versions = (await storage.list(partRoot(part))).filter((name) => !name.endsWith('.tmp'));
  const ranked = versions.sort((a, b) => (lastUsed.get(b) ?? -1) - (lastUsed.get(a) ?? -1));
  const removed: string[] = [];
  for (const version of ranked.slice(Math.max(keep, 2))) {
    if (protectedVersions.has(version)) continue;
    await storage.removeFolder(`${partRoot(part)}/${version}`);
    removed.push(version);
  }
  return removed;
}
