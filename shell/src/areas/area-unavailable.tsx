import type { AreaName } from './registry.ts';
import { useMarkInteractive } from '../app/mark-interactive.ts';

/** Each area as a shopper knows it (also the local override's banner). */
export const areaLabels: Record<AreaName, string> = {
  catalog: 'Katalóg produktov',
  checkout: 'Košík a objednávka',
  account: 'Zákaznícky účet',
  content: 'Obsah stránky',
};

/** What a shopper sees in place of an area that failed to load or crashed. */
export function AreaUnavailable({ area, onRetry }: { area: AreaName; onRetry: () => void }) {
  useMarkInteractive();
  return (
    <section className="area-unavailable" role="alert" aria-live="assertive">
      <h1>{areaLabels[area]} sa nepodarilo načítať</h1>
      <p>Táto časť obchodu je momentálne nedostupná. Zvyšok stránky funguje ďalej a váš košík zostáva uložený.</p>
      <button type="button" className="button button--primary" onClick={onRetry}>
        Skúsiť znova
      </button>
    </section>
  );
}
