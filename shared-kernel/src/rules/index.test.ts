import { describe, expect, it } from 'vitest';
import * as rules from './index.ts';

describe('rules entry', () => {
  it('exposes the pure helpers', () => {
    expect(rules.unitPriceWithVat({ v_sellPrice: 10000, v_vat: 23, v_sale: 15000 })).toBe(10460);
    expect(rules.formatPrice(12000).replace(/\u00a0/g, ' ')).toBe('12 €');
    expect(rules.cleanNumericInput('1 2,5')).toBe('12.5');
    expect(rules.paginate(9, 45).reset).toBe(true);
    expect(rules.variantWord(4)).toBe('varianty');
    expect(rules.randomString()).toHaveLength(32);
    expect(rules.KERNEL_VERSION).toBe('3.1.0');
    expect(typeof rules.openingHoursText).toBe('function');
  });
  it('pulls in neither stores nor the API client', () => {
    const names = Object.keys(rules);
    for (const name of ['useBasketStore', 'useAuthStore', 'api', 'bus', 'initKernel']) {
      expect(names).not.toContain(name);
    }
  });
});
