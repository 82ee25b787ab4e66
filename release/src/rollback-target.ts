/**
 * Where a rollback goes when no version is named: back, never forth. The
 * target is the last version in force before the current one was first
 * deployed, skipping versions that were rolled back from (they failed once) and floored ones.
 * A version in force because of a rollback has no default target: going on
 * from there needs a named version.
 */
import { ReleaseRefused } from './refusal.ts';
import type { HistoryEntry, PartName } from './registry.ts';

/** Moves that change what is in force for everyone. */
const POINTER_MOVES = new Set<HistoryEntry['action']>(['deploy', 'rollback', 'promote']);

export type RollbackTarget = {
  version: string;
  /** Until when it was in force (when the next version replaced it). */
  lastInForceUntil: string;
  /** Who put it in force then. */
  by: string | null;
};

export function rollbackTarget(
  history: HistoryEntry[],
  part: PartName,
  current: string | null,
  floored: ReadonlySet<string> = new Set(),
): RollbackTarget {
  const moves = history.filter((entry) => entry.part === part && POINTER_MOVES.has(entry.action));
  const arrival = moves.findLastIndex((entry) => entry.to === current);
  if (arrival >= 0 && moves[arrival]!.action === 'rollback') {
    throw new ReleaseRefused(
      'rollback_needs_version',
      `${part} ${current} is in force because of a rollback; rolling back again needs a named version (release rollback ${part} VERSION). Nothing was changed.`,
    );
  }
  const rolledBackFrom = new Set(moves.filter((entry) => entry.action === 'rollback').map((entry) => entry.from));
  const firstArrival = moves.findIndex((entry) => entry.to === current);
  for (let index = firstArrival; index >= 0; index -= 1) {
    const candidate = moves[index]!.from;
    if (!candidate || candidate === current || rolledBackFrom.has(candidate) || floored.has(candidate)) continue;
    const brought = moves.slice(0, index).findLast((entry) => entry.to === candidate);
    return { version: candidate, lastInForceUntil: moves[index]!.at, by: brought?.who ?? null };
  }
  throw new ReleaseRefused('nothing_to_roll_back', `${part} has no earlier version to roll back to. Nothing was changed.`);
}
