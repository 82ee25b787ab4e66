/**
 * Release operations: deploy (check, upload to an immutable versioned path,
 * move the pointer), rollback (move the pointer back, no build), status,
 * history, and pruning old versions. Every pointer move happens under the
 * release lock and is appended to the history.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { hashBuild, listFiles, readBuild, type PartBuild } from './build-info.ts';
import { checkRelease } from './checks.ts';
import { withReleaseLock } from './lock.ts';
import { ReleaseRefused } from './refusal.ts';
import {
  AREAS,
  appendHistory,
  readHistory,
  readRegistry,
  versionOf,
  writeRegistry,
  type HistoryEntry,
  type PartName,
  type Registry,
} from './registry.ts';
import type { ReleaseStorage } from './storage.ts';

const COMPRESSIBLE = /\.(js|mjs|css|json|html|svg|txt)$/;

export const partPrefix = (part: PartName, version: string) =>
  part === 'shell' ? `shells/shell/${version}` : `remotes/${part}/${version}`;

export type MoveResult = { part: PartName; version: string; from: string | null; changed: boolean };

async function precompress(dir: string): Promise<void> {
  for (const file of await listFiles(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const body = await readFile(file);
    if (body.length < 256) continue;
    await writeFile(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
  }
}

function pointTo(registry: Registry, part: PartName, version: string, build: PartBuild): Registry {
  const prefix = partPrefix(part, version);
  if (build.kind === 'shell') return { ...registry, shell: { version, dir: prefix, kernel: build.kernel } };
  return {
    ...registry,
    areas: {
      ...registry.areas,
      [build.area]: { version, entry: `${prefix}/${build.entry}`, kernel: build.kernel, exposes: build.exposes },
    },
  };
}

async function movePointer(
  storage: ReleaseStorage,
  registry: Registry,
  part: PartName,
  version: string,
  build: PartBuild,
  action: HistoryEntry['action'],
  who: string,
): Promise<MoveResult> {
  const from = versionOf(registry, part);
  if (from === version) return { part, version, from, changed: false };
  const next = await writeRegistry(storage, pointTo(registry, part, version, build));
  await appendHistory(storage, { at: next.updatedAt, who, part, action, from, to: version });
  return { part, version, from, changed: true };
}

export type PartInput = { part: PartName; distDir: string; packageVersion: string; budgetBytes?: number | null };

async function upload(storage: ReleaseStorage, part: PartName, version: string, distDir: string): Promise<void> {
  const prefix = partPrefix(part, version);
  if (await storage.exists(prefix)) return;
  const staging = await mkdtemp(join(tmpdir(), `release-${part}-`));
  try {
    await cp(distDir, staging, { recursive: true });
    await precompress(staging);
    await storage.putFolder(staging, prefix);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * Releases one part, or several together (`deploy all`): every build is
 * checked against the new versions of the others (a shell whose kernel the
 * new areas need, areas with the modules a new shell's routes need), then all
 * are uploaded to their immutable paths and every pointer moves in one
 * registry write. Anything refused changes nothing.
 */
export async function deploySet(options: { storage: ReleaseStorage; parts: PartInput[]; who: string; keep?: number }): Promise<MoveResult[]> {
  const { storage, who } = options;
  const prepared: (PartInput & { build: PartBuild; version: string })[] = [];
  for (const input of options.parts) {
    prepared.push({ ...input, build: await readBuild(input.distDir, input.part), version: `${input.packageVersion}-${await hashBuild(input.distDir)}` });
  }
  const what = `deploy ${prepared.map((item) => `${item.part} ${item.version}`).join(', ')}`;
  return withReleaseLock(storage, what, async () => {
    const registry = await readRegistry(storage);
    await checkRelease(storage, registry, prepared);
    for (const item of prepared) await upload(storage, item.part, item.version, item.distDir);
    let next = registry;
    const results: MoveResult[] = [];
    for (const item of prepared) {
      const from = versionOf(registry, item.part);
      results.push({ part: item.part, version: item.version, from, changed: from !== item.version });
      next = pointTo(next, item.part, item.version, item.build);
    }
    if (results.some((result) => result.changed)) {
      const written = await writeRegistry(storage, next);
      for (const result of results.filter((moved) => moved.changed)) {
        await appendHistory(storage, { at: written.updatedAt, who, part: result.part, action: 'deploy', from: result.from, to: result.version });
      }
    }
    for (const item of prepared) await prune(storage, item.part, options.keep);
    return results;
  });
}

export type DeployOptions = PartInput & { storage: ReleaseStorage; who: string; keep?: number };

/** Checks a build, uploads it to its immutable path and moves the part's pointer to it. */
export async function deploy(options: DeployOptions): Promise<MoveResult> {
  const { storage, who, keep, ...part } = options;
  const [result] = await deploySet({ storage, who, parts: [part], ...(keep === undefined ? {} : { keep }) });
  return result!;
}

/** The version in force before the current one, from the history. */
async function previousVersion(storage: ReleaseStorage, part: PartName, current: string | null): Promise<string | null> {
  const moves = (await readHistory(storage)).filter((entry) => entry.part === part);
  for (let index = moves.length - 1; index >= 0; index -= 1) {
    if (moves[index]!.to === current) return moves[index]!.from;
  }
  return null;
}

/** Moves a part's pointer back to the previous (or a named) version, without building. */
export async function rollback(options: { storage: ReleaseStorage; part: PartName; to?: string | null; who: string }): Promise<MoveResult> {
  const { storage, part, who } = options;
  return withReleaseLock(storage, `rollback ${part}`, async () => {
    const registry = await readRegistry(storage);
    const current = versionOf(registry, part);
    const target = options.to ?? (await previousVersion(storage, part, current));
    if (!target) throw new ReleaseRefused('nothing_to_roll_back', `${part} has no earlier version to roll back to. Nothing was changed.`);
    const prefix = partPrefix(part, target);
    if (!(await storage.exists(prefix))) {
      throw new ReleaseRefused('unknown_version', `${part} ${target} is not on the origin (pruned or never deployed). Nothing was changed.`);
    }
    const build = await readBuild(storage.localPath(prefix), part);
    await checkRelease(storage, registry, [{ build }]);
    return movePointer(storage, registry, part, target, build, 'rollback', who);
  });
}

export type PartStatus = { part: PartName; version: string | null; since: string | null; by: string | null; versionsKept: string[] };

export async function status(storage: ReleaseStorage): Promise<{ revision: string; parts: PartStatus[] }> {
  const [registry, history] = await Promise.all([readRegistry(storage), readHistory(storage)]);
  const parts: PartStatus[] = [];
  for (const part of ['shell', ...AREAS] as PartName[]) {
    const version = versionOf(registry, part);
    const last = [...history].reverse().find((entry) => entry.part === part && entry.to === version) ?? null;
    const root = part === 'shell' ? 'shells/shell' : `remotes/${part}`;
    parts.push({ part, version, since: last?.at ?? null, by: last?.who ?? null, versionsKept: (await storage.list(root)).sort() });
  }
  return { revision: registry.revision, parts };
}

export async function history(storage: ReleaseStorage, part?: PartName): Promise<HistoryEntry[]> {
  const entries = await readHistory(storage);
  return part ? entries.filter((entry) => entry.part === part) : entries;
}

/**
 * Keeps the last `keep` versions of a part (by when they were last in force),
 * never the version in force or the one before it. Runs under the lock.
 */
export async function prune(storage: ReleaseStorage, part: PartName, keep = Number(process.env.RELEASE_KEEP ?? 5)): Promise<string[]> {
  const registry = await readRegistry(storage);
  const current = versionOf(registry, part);
  const previous = await previousVersion(storage, part, current);
  const root = part === 'shell' ? 'shells/shell' : `remotes/${part}`;
  const lastUsed = new Map<string, number>();
  (await readHistory(storage)).forEach((entry, index) => {
    if (entry.part === part) lastUsed.set(entry.to, index);
  });
  const versions = (await storage.list(root)).filter((name) => !name.endsWith('.tmp'));
  const ranked = versions.sort((a, b) => (lastUsed.get(b) ?? -1) - (lastUsed.get(a) ?? -1));
  const removed: string[] = [];
  for (const version of ranked.slice(Math.max(keep, 2))) {
    if (version === current || version === previous) continue;
    await storage.removeFolder(`${root}/${version}`);
    removed.push(version);
  }
  return removed;
}
