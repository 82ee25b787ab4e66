import { describe, expect, it } from 'vitest';
import { flagOn, isFlagName, isFlagShare } from './flag-rules.ts';

describe('feature switches', () => {
  it('is on unless the table says otherwise', () => {
    expect(flagOn({}, 'checkout', 'card-payment', null)).toBe(true);
    expect(flagOn({ checkout: { 'card-payment': 100 } }, 'checkout', 'card-payment', 3)).toBe(true);
    expect(flagOn({ checkout: { 'card-payment': 0 } }, 'checkout', 'card-payment', 3)).toBe(false);
    // Another area's switch of the same name is another switch.
    expect(flagOn({ catalog: { 'card-payment': 0 } }, 'checkout', 'card-payment', 3)).toBe(true);
  });

  it('reaches its share of buckets, the same ones every time', () => {
    const flags = { checkout: { 'pickup-points': 30 } };
    const on = Array.from({ length: 100 }, (_, bucket) => flagOn(flags, 'checkout', 'pickup-points', bucket));
    expect(on.filter(Boolean)).toHaveLength(30);
    expect(Array.from({ length: 100 }, (_, bucket) => flagOn(flags, 'checkout', 'pickup-points', bucket))).toEqual(on);
    // A share grown keeps every browser it reached.
    const more = Array.from({ length: 100 }, (_, bucket) =>
      flagOn({ checkout: { 'pickup-points': 60 } }, 'checkout', 'pickup-points', bucket),
    );
    expect(on.every((value, bucket) => !value || more[bucket])).toBe(true);
    // An unknown bucket counts only a switch fully on.
    expect(flagOn(flags, 'checkout', 'pickup-points', null)).toBe(false);
  });

  it('bounds names and shares', () => {
    expect(isFlagName('card-payment')).toBe(true);
    expect(isFlagName('a'.repeat(40))).toBe(true);
    expect(isFlagName('a'.repeat(41))).toBe(false);
    expect(isFlagName('Card')).toBe(false);
    expect(isFlagName('1card')).toBe(false);
    expect(isFlagShare(0) && isFlagShare(100)).toBe(true);
    expect(isFlagShare(101) || isFlagShare(-1) || isFlagShare(1.5)).toBe(false);
  });
});
