import { describe, expect, it } from 'vitest';
import { cleanNumericInput, numericInputText, parseAmountInput } from './numeric-input.ts';

describe('cleanNumericInput', () => {
  it('removes whitespace and turns commas into dots', () => {
    expect(cleanNumericInput('1 2,5')).toBe('12.5');
    expect(cleanNumericInput(' 1\u00a0234,50 ')).toBe('1234.50');
    expect(cleanNumericInput('\t3\n')).toBe('3');
  });
  it('merges extra dots after the first', () => {
    expect(cleanNumericInput('1.2.3')).toBe('1.23');
    expect(cleanNumericInput('1,2,3')).toBe('1.23');
    expect(cleanNumericInput('..5')).toBe('.5');
  });
  it('drops every other character', () => {
    expect(cleanNumericInput('a,b')).toBe('.');
    expect(cleanNumericInput('12 ks')).toBe('12');
    expect(cleanNumericInput('-5')).toBe('5');
    expect(cleanNumericInput('1e3')).toBe('13');
    expect(cleanNumericInput('€ 12,50')).toBe('12.50');
  });
  it('keeps the empty string empty', () => {
    expect(cleanNumericInput('')).toBe('');
    expect(cleanNumericInput('abc')).toBe('');
  });
});

describe('parseAmountInput', () => {
  it('parses a positive integer amount', () => {
    expect(parseAmountInput('3')).toBe(3);
    expect(parseAmountInput(' 1 2 ')).toBe(12);
    expect(parseAmountInput('12 ks')).toBe(12);
  });
  it('rounds fractions down, minimum 1', () => {
    expect(parseAmountInput('2,7')).toBe(2);
    expect(parseAmountInput('0,5')).toBe(1);
    expect(parseAmountInput('1.2.3')).toBe(1);
  });
  it('is null for empty, zero and not-a-number', () => {
    expect(parseAmountInput('')).toBeNull();
    expect(parseAmountInput('0')).toBeNull();
    expect(parseAmountInput('0,0')).toBeNull();
    expect(parseAmountInput('a,b')).toBeNull();
    expect(parseAmountInput('abc')).toBeNull();
  });
});

describe('numericInputText', () => {
  it('keeps the decimal comma a Slovak shopper types, cleaned as requirements R5.3 says', () => {
    expect(numericInputText('2,5')).toBe('2,5');
    expect(numericInputText('2.5')).toBe('2,5');
    expect(numericInputText(' 1 2,3.4ks')).toBe('12,34');
    expect(parseAmountInput(numericInputText('2,5'))).toBe(2);
  });
});
