/** Retention: the versions of a part the origin keeps, and the ones a deploy removes. */
import { originBook, type RegistryBook } from './registry-book.ts';
import { versionOf, type PartName } from './registry.ts';
import { partRoot } from './release-paths.ts';
import { rollbackTarget } from './rollback-target.ts';
import type { ReleaseStorage } from './storage.ts';

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
