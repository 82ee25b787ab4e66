import { describe, expect, it } from 'vitest';
import { randomString } from './random-string.ts';

describe('randomString', () => {
  it('defaults to 32 alphanumeric characters', () => {
    const value = randomString();
    expect(value).toHaveLength(32);
    expect(value).toMatch(/^[A-Za-z0-9]{32}$/);
  });
  it('honours the requested length', () => {
    expect(randomString(1)).toMatch(/^[A-Za-z0-9]$/);
    expect(randomString(200)).toMatch(/^[A-Za-z0-9]{200}$/);
    expect(randomString(0)).toBe('');
  });
  it('produces different values', () => {
    const values = new Set(Array.from({ length: 50 }, () => randomString()));
    expect(values.size).toBe(50);
  });
  it('uses the whole alphabet', () => {
    const chars = new Set(randomString(5000));
    expect(chars.size).toBe(62);
  });
  it('rejects a negative or fractional length', () => {
    expect(() => randomString(-1)).toThrow(RangeError);
    expect(() => randomString(1.5)).toThrow(RangeError);
  });
});
