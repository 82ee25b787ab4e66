/** Slovak plural of "variant" (requirements R9.10), by the kernel's plural rule. */
import { pluralSk } from './plural.ts';

export type VariantWord = 'variant' | 'varianty' | 'variantov';

const FORMS = { one: 'variant', few: 'varianty', other: 'variantov' } as const;

/** 'variant' for 1, 'varianty' for 2 to 4, 'variantov' otherwise (0, 5+, fractions). */
export function variantWord(count: number): VariantWord {
  return pluralSk(count, FORMS) as VariantWord;
}

/** The count with its word, e.g. "3 varianty". */
export function variantCountText(count: number): string {
  return `${count} ${variantWord(count)}`;
}
