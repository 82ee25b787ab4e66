import { countSk } from '@shop/shared-kernel/rules';
import type { SearchResults } from '@shop/shared-kernel/contract';

/** "1 produkt", "3 produkty", "12 produktov" (the kernel's Slovak plural). */
export function productCountText(count: number): string {
  return countSk(count, { one: 'produkt', few: 'produkty', other: 'produktov' });
}

/** "Nájdené: 12 produktov"; past the hits a search counts, "Nájdené: viac ako 1000 produktov". */
export function foundText(results: Pick<SearchResults, 'meta' | 'moreThanTotal'>): string {
  return `Nájdené: ${results.moreThanTotal ? 'viac ako ' : ''}${productCountText(results.meta.total)}`;
}
