import { describe, expect, it } from 'vitest';
import { line, tokenFor, tokenWith, variant } from './fixtures.ts';

describe('test fixtures', () => {
  it('build a variant with overrides', () => {
    expect(variant({ v_sellPrice: 5 }).v_sellPrice).toBe(5);
    expect(variant().v_vat).toBe(23);
  });
  it('build a line whose variant has the line v_id', () => {
    const l = line(7, 3, { v_sale: 1000 });
    expect(l).toMatchObject({ v_id: 7, amount: 3, isComponent: false, isRequired: false });
    expect(l.variantData.v_id).toBe(7);
    expect(l.variantData.v_sale).toBe(1000);
  });
  it('build JWT-shaped tokens', () => {
    expect(tokenFor(7).split('.')).toHaveLength(3);
    expect(tokenWith({ a: 1 })).not.toMatch(/[+/=]/);
  });
});
