/**
 * A rollback: the part's pointer moves back to a version already on the origin, without building,
 * and is pinned there; the version it left is marked never to be served again.
 */
import { checkRelease, checkRoutes } from './checks.ts';
import type { ReleaseIntegrity } from './integrity.ts';
import { originBook, type FloorChange, type RegistryBook } from './registry-book.ts';
import { assertNotFloored, buildOnOrigin, endCanary, pointTo, requireRegistry, type MoveResult } from './registry-moves.ts';
import { historyEntry, versionOf, type HistoryEntry, type PartName, type Pin, type Provenance } from './registry.ts';
import { rollbackTarget } from './rollback-target.ts';
import type { ReleaseStorage } from './storage.ts';

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
