import { describe, expect, it } from 'vitest';
import { variantCountText, variantWord } from './variant-word.ts';

describe('variantWord', () => {
  it.each([
    [0, 'variantov'],
    [1, 'variant'],
    [2, 'varianty'],
    [3, 'varianty'],
    [4, 'varianty'],
    [5, 'variantov'],
    [11, 'variantov'],
    [21, 'variantov'],
    [22, 'variantov'],
  ] as const)('%i → %s', (count, word) => {
    expect(variantWord(count)).toBe(word);
  });
});

describe('variantCountText', () => {
  it('joins the count and the word', () => {
    expect(variantCountText(1)).toBe('1 variant');
    expect(variantCountText(3)).toBe('3 varianty');
    expect(variantCountText(5)).toBe('5 variantov');
    expect(variantCountText(0)).toBe('0 variantov');
  });
});
