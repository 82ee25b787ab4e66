/** What `release status` and `release history` show: each part's version in force, pin, canary, rollback target, floors and kept versions. */
import { readLock, type HeldLock } from './lock.ts';
import { originBook, type Floor, type RegistryBook } from './registry-book.ts';
import { ReleaseRefused } from './refusal.ts';
import { AREAS, versionOf, type CanaryStages, type HistoryEntry, type PartName, type Pin } from './registry.ts';
import { partRoot } from './release-paths.ts';
import { rollbackTarget, type RollbackTarget } from './rollback-target.ts';
import type { ReleaseStorage } from './storage.ts';

export type PartStatus = {
  part: PartName;
  version: string | null;
  since: string | null;
  by: string | null;
  versionsKept: string[];
  pin: Pin | null;
  canary: { version: string; share: number; since: string; by: string; stages?: CanaryStages } | null;
  /** Where a rollback without a version would go, or why it would be refused. */
  rollback: RollbackTarget | { refused: string };
  /** Versions marked never to be served again. */
  floors: Floor[];
};

/** Each part's state on this origin, whether it has a registry, and who holds the release lock. */
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
      canary: canary
        ? {
            version: canary.version,
            share: canary.share,
            since: canary.since,
            by: canary.by,
            ...(canary.stages ? { stages: canary.stages } : {}),
          }
        : null,
      rollback: target,
      floors: partFloors,
    });
  }
  return { revision: registry.revision, registry: exists, lock, parts };
}

/** The moves recorded in the history, of one part or of all. */
export async function history(storage: ReleaseStorage, part?: PartName, book: RegistryBook = originBook(storage)): Promise<HistoryEntry[]> {
  const entries = await book.history();
  return part ? entries.filter((entry) => entry.part === part) : entries;
}
