import { describe, expect, it } from 'vitest';
import { countSk, pluralSk } from './plural.ts';

const items = { one: 'položka', few: 'položky', other: 'položiek' };

describe('pluralSk', () => {
  it.each([
    [0, 'položiek'],
    [1, 'položka'],
    [2, 'položky'],
    [3, 'položky'],
    [4, 'položky'],
    [5, 'položiek'],
    [11, 'položiek'],
    [12, 'položiek'],
    [21, 'položiek'],
    [22, 'položiek'],
    [100, 'položiek'],
  ] as const)('%i → %s', (count, word) => {
    expect(pluralSk(count, items)).toBe(word);
  });

  it('gives fractions the `many` form, or `other` without one', () => {
    expect(pluralSk(1.5, items)).toBe('položiek');
    expect(pluralSk(2.5, { ...items, many: 'položky' })).toBe('položky');
  });

  it('has the days right', () => {
    const days = { one: 'deň', few: 'dni', other: 'dní' };
    expect([0, 1, 2, 4, 5, 14].map((n) => pluralSk(n, days))).toEqual(['dní', 'deň', 'dni', 'dni', 'dní', 'dní']);
  });
});

describe('countSk', () => {
  it('joins the count and the word', () => {
    expect(countSk(1, items)).toBe('1 položka');
    expect(countSk(3, items)).toBe('3 položky');
    expect(countSk(5, items)).toBe('5 položiek');
  });
});
