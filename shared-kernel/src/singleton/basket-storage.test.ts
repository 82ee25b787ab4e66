// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { BASKET_STORAGE_KEY, BASKET_TTL_MS, readStoredBasket, writeStoredBasket } from './basket-storage.ts';
import { line } from '../testing/fixtures.ts';

const NOW = Date.UTC(2026, 2, 1, 12, 0, 0);

describe('constants', () => {
  it('hold the required values', () => {
    expect(BASKET_STORAGE_KEY).toBe('cartData');
    expect(BASKET_TTL_MS).toBe(2_592_000_000);
  });
});

describe('basket storage', () => {
  beforeEach(() => {
    localStorage.clear();
  });

  it('writes {value, expires} with expires 30 days ahead', () => {
    const lines = [line(1, 2), line(2, 1)];
    writeStoredBasket(localStorage, lines, NOW);
    const stored = JSON.parse(localStorage.getItem('cartData') ?? 'null');
    expect(stored.expires).toBe(NOW + 30 * 24 * 3600 * 1000);
    expect(stored.value).toEqual(lines);
  });

  it('reads back what it wrote', () => {
    const lines = [line(1, 2), line(2, 1)];
    writeStoredBasket(localStorage, lines, NOW);
    expect(readStoredBasket(localStorage, NOW + 1000)).toEqual(lines);
  });

  it('reads [] when nothing is stored', () => {
    expect(readStoredBasket(localStorage, NOW)).toEqual([]);
  });

  it('ignores an expired basket', () => {
    writeStoredBasket(localStorage, [line(1, 2)], NOW);
    expect(readStoredBasket(localStorage, NOW + BASKET_TTL_MS)).toHaveLength(1);
    expect(readStoredBasket(localStorage, NOW + BASKET_TTL_MS + 1)).toEqual([]);
  });

  it('ignores a value that is not a list', () => {
    localStorage.setItem('cartData', JSON.stringify({ value: { v_id: 1 }, expires: NOW + 1000 }));
    expect(readStoredBasket(localStorage, NOW)).toEqual([]);
    localStorage.setItem('cartData', JSON.stringify([line(1, 1)]));
    expect(readStoredBasket(localStorage, NOW)).toEqual([]);
    localStorage.setItem('cartData', 'null');
    expect(readStoredBasket(localStorage, NOW)).toEqual([]);
  });

  it('ignores a basket without a numeric expiry', () => {
    localStorage.setItem('cartData', JSON.stringify({ value: [line(1, 1)] }));
    expect(readStoredBasket(localStorage, NOW)).toEqual([]);
  });

  it('removes corrupt JSON and returns []', () => {
    localStorage.setItem('cartData', '{"value": [');
    expect(readStoredBasket(localStorage, NOW)).toEqual([]);
    expect(localStorage.getItem('cartData')).toBeNull();
  });

  it('keeps the key of an expired or non-list basket (only corrupt JSON is deleted)', () => {
    localStorage.setItem('cartData', JSON.stringify({ value: 'x', expires: NOW + 1 }));
    readStoredBasket(localStorage, NOW);
    expect(localStorage.getItem('cartData')).not.toBeNull();
  });

  it('drops lines that are not line-shaped', () => {
    const good = line(3, 1);
    localStorage.setItem(
      'cartData',
      JSON.stringify({
        value: [good, { v_id: 'x', amount: 1, variantData: {} }, { v_id: 4, amount: 0, variantData: {} }, null],
        expires: NOW + 1000,
      }),
    );
    expect(readStoredBasket(localStorage, NOW)).toEqual([good]);
  });

  it('swallows a quota error on write', () => {
    const full = {
      ...localStorage,
      setItem() {
        throw new DOMException('full', 'QuotaExceededError');
      },
    } as unknown as Storage;
    expect(() => writeStoredBasket(full, [line(1, 1)], NOW)).not.toThrow();
  });
});
