/**
 * The end of an area's canary, by an operator or the canary watch: promoted to everyone, or aborted;
 * and a staged canary's move to its next stage (the canary watch).
 */
import { nextStage, stageName } from './canary-stages.ts';
import { checkRelease, checkRoutes } from './checks.ts';
import type { ReleaseIntegrity } from './integrity.ts';
import { originBook, type RegistryBook } from './registry-book.ts';
import { assertNotFloored, buildOnOrigin, endCanary, pointTo, requireRegistry, withoutKey, type MoveResult } from './registry-moves.ts';
import { ReleaseRefused } from './refusal.ts';
import { historyEntry, versionOf, type AreaName, type CanaryRelease, type HistoryEntry, type Provenance } from './registry.ts';
import type { ReleaseStorage } from './storage.ts';

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

/**
 * Moves a staged canary on to its next share (the canary watch), only from the stage it was judged
 * at: another server's watch that moved it first, or an operator who ended it, leaves nothing to do
 * (refused `stage_moved` or `no_canary`). One registry commit, against the revision read here.
 */
export async function advanceCanary(options: {
  storage: ReleaseStorage;
  book?: RegistryBook;
  area: AreaName;
  expectVersion: string;
  /** The stage (0-based) the canary was judged at. */
  expectIndex: number;
  provenance: Provenance;
}): Promise<CanaryRelease> {
  const { storage, area, provenance } = options;
  const book = options.book ?? originBook(storage);
  return book.exclusive(`advance ${area} canary`, async () => {
    await requireRegistry(storage, book, false);
    const registry = await book.read();
    const canary = registry.canaries?.[area];
    if (!canary || canary.version !== options.expectVersion)
      throw new ReleaseRefused('no_canary', `${area} has no canary ${options.expectVersion} running. Nothing was changed.`);
    const at = new Date().toISOString();
    const next = canary.stages?.index === options.expectIndex ? nextStage(canary, at) : null;
    if (!next) {
      throw new ReleaseRefused(
        'stage_moved',
        `${area} canary ${canary.version} is ${canary.stages ? `at ${stageName(canary.stages)}` : 'not staged'}, not at stage ${options.expectIndex + 1} with one after it. Nothing was changed.`,
      );
    }
    const stable = versionOf(registry, area);
    const written = await book.commit(registry, { ...registry, canaries: { ...registry.canaries, [area]: next } }, [
      historyEntry({ at, part: area, action: 'advance', from: stable, to: canary.version, share: next.share }, provenance),
    ]);
    return written.canaries![area]!;
  });
}
