/** Pins: a pinned part stays at its version until it is unpinned (a deploy is refused, `--only-new` leaves it). */
import { originBook, type RegistryBook } from './registry-book.ts';
import { assertNotFloored, requireRegistry, withoutKey } from './registry-moves.ts';
import { ReleaseRefused } from './refusal.ts';
import { historyEntry, versionOf, type PartName, type Pin, type Provenance } from './registry.ts';
import type { ReleaseStorage } from './storage.ts';

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
