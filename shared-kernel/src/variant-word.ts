/** Slovak plural of "variant" (spec section 9). */
export type VariantWord = 'variant' | 'varianty' | 'variantov';

/** 'variant' for 1, 'varianty' for 2 to 4, 'variantov' otherwise (0, 5+, fractions). */
export function variantWord(count: number): VariantWord {
  if (count === 1) return 'variant';
  if (count >= 2 && count <= 4 && Number.isInteger(count)) return 'varianty';
  return 'variantov';
}

/** The count with its word, e.g. "3 varianty". */
export function variantCountText(count: number): string {
  return `${count} ${variantWord(count)}`;
}
