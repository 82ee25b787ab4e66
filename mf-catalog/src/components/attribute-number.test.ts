import { describe, expect, it } from 'vitest';
import { formatAttributeNumber } from './attribute-number.ts';

describe('formatAttributeNumber', () => {
  it('keeps a third decimal only where it is needed, grouped and with a decimal comma as sk-SK writes it', () => {
    const three = new Intl.NumberFormat('sk-SK', { minimumFractionDigits: 3, maximumFractionDigits: 3 });
    expect(formatAttributeNumber(35)).toBe('0,035');
    expect(formatAttributeNumber(12_500)).toBe('12,50');
    expect(formatAttributeNumber(12_000)).toBe('12');
    for (const thousandths of [1, 35, 999, 1_001, 12_345, -35, -12_345, 1_234_567, 987_654_321]) {
      expect(formatAttributeNumber(thousandths), String(thousandths)).toBe(three.format(thousandths / 1000));
    }
  });
});
