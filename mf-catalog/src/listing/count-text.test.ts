import { describe, expect, it } from 'vitest';
import { foundText, productCountText } from './count-text.ts';

const meta = (total: number) => ({ page: 1, pageSize: 24, total, pageCount: Math.max(1, Math.ceil(total / 24)) });

describe('count texts', () => {
  it('counts products with the Slovak plural', () => {
    expect([1, 3, 12].map(productCountText)).toEqual(['1 produkt', '3 produkty', '12 produktov']);
  });

  it('says how many products a search found, and "more than" past the hits a search counts', () => {
    expect(foundText({ meta: meta(3) })).toBe('Nájdené: 3 produkty');
    expect(foundText({ meta: meta(999), moreThanTotal: false })).toBe('Nájdené: 999 produktov');
    expect(foundText({ meta: meta(1000), moreThanTotal: true })).toBe('Nájdené: viac ako 1000 produktov');
  });
});
