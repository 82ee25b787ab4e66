/**
 * What a search term may be: the search box, the search page and the API
 * apply the same rule, and the page says in Slovak what is wrong with a term.
 */

/** Characters of a search term (the API refuses longer ones). */
export const SEARCH_TEXT_MAX = 200;

export const SEARCH_MESSAGES = {
  empty: 'Zadajte, čo hľadáte – napríklad „tehla“, „lepidlo“ alebo názov značky.',
  tooLong: `Hľadaný výraz je príliš dlhý. Skráťte ho na najviac ${SEARCH_TEXT_MAX} znakov.`,
} as const;

/** Why a term cannot be searched for, or null when it can. */
export function searchTermProblem(term: string): string | null {
  const trimmed = term.trim();
  if (trimmed === '') return SEARCH_MESSAGES.empty;
  if (trimmed.length > SEARCH_TEXT_MAX) return SEARCH_MESSAGES.tooLong;
  return null;
}
