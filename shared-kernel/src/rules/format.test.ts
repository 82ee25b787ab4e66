import { describe, expect, it } from 'vitest';
import { formatDate, formatFee, formatIban, formatNumber, formatPercent, formatPhone, formatPrice, formatZip } from './format.ts';

/** Intl uses U+00A0 (and in some ICU versions U+202F) as spaces. */
const norm = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('formatPrice', () => {
  it('shows two decimals with a comma', () => {
    expect(norm(formatPrice(12500))).toBe('12,50 €');
    expect(norm(formatPrice(10460))).toBe('10,46 €');
    expect(norm(formatPrice(50))).toBe('0,05 €');
  });
  it('shows whole euros without decimals', () => {
    expect(norm(formatPrice(12000))).toBe('12 €');
    expect(norm(formatPrice(0))).toBe('0 €');
  });
  it('groups thousands', () => {
    expect(norm(formatPrice(1234560))).toBe('1 234,56 €');
    expect(norm(formatPrice(1234000))).toBe('1 234 €');
    expect(norm(formatPrice(1234567890))).toBe('1 234 567,89 €');
  });
  it('rounds thousandths to cents first', () => {
    expect(norm(formatPrice(11999))).toBe('12 €');
    expect(norm(formatPrice(12345))).toBe('12,35 €');
    expect(norm(formatPrice(12344))).toBe('12,34 €');
  });
  it('puts a non-breaking space before the euro sign', () => {
    expect(formatPrice(12500).endsWith('\u00a0€')).toBe(true);
  });
  it('formats negative amounts', () => {
    expect(norm(formatPrice(-2500))).toMatch(/^[-−]2,50 €$/);
  });
});

describe('formatNumber', () => {
  it('uses the same rule without currency', () => {
    expect(formatNumber(12.5)).toBe('12,50');
    expect(formatNumber(12)).toBe('12');
    expect(norm(formatNumber(1234.567))).toBe('1 234,57');
    expect(formatNumber(0.1 + 0.2)).toBe('0,30');
    expect(formatNumber(2.999)).toBe('3');
  });
});

describe('formatPercent', () => {
  it('is an integer with a space before %', () => {
    expect(norm(formatPercent(15))).toBe('15 %');
    expect(norm(formatPercent(14.6))).toBe('15 %');
    expect(norm(formatPercent(0))).toBe('0 %');
    expect(formatPercent(15)).toBe('15\u00a0%');
  });
});

describe('formatDate', () => {
  it('is dd.mm.yyyy in UTC', () => {
    expect(formatDate('2026-03-05T23:30:00Z')).toBe('05.03.2026');
    expect(formatDate(new Date(Date.UTC(2026, 11, 31, 23, 59, 59)))).toBe('31.12.2026');
    expect(formatDate(Date.UTC(2025, 0, 1, 0, 0, 0))).toBe('01.01.2025');
  });
  it('uses the UTC day even when Bratislava is already in the next day', () => {
    // 23:30 UTC on 5 March is 00:30 on 6 March in Bratislava; UTC getters keep the 5th.
    expect(formatDate(new Date('2026-03-05T23:30:00Z'))).toBe('05.03.2026');
    // 00:30+02:00 on 1 July is 22:30 UTC on 30 June.
    expect(formatDate('2026-07-01T00:30:00+02:00')).toBe('30.06.2026');
  });
  it('returns "" for an invalid date', () => {
    expect(formatDate('not a date')).toBe('');
    expect(formatDate(Number.NaN)).toBe('');
  });
});

describe('Slovak ways of writing', () => {
  it('groups an IBAN by four, a Slovak phone as +421 905 123 456, a PSČ as 010 01, and says "zadarmo" for a free fee', () => {
    expect(formatIban('SK3112000000198742637541')).toBe('SK31 1200 0000 1987 4263 7541');
    expect(formatIban('SK31 1200 0000 1987 4263 7541')).toBe('SK31 1200 0000 1987 4263 7541');
    expect(formatPhone('+421905123456')).toBe('+421 905 123 456');
    expect(formatPhone('0905 123 456')).toBe('+421 905 123 456');
    expect(formatPhone('+420 601 123 456')).toBe('+420 601 123 456');
    expect(formatZip('01001')).toBe('010 01');
    expect(formatZip('010 01')).toBe('010 01');
    expect(formatZip('A-1010')).toBe('A-1010');
    expect(formatFee(0)).toBe('zadarmo');
    expect(formatFee(2900)).toBe(formatPrice(2900));
  });
});

describe('the written-out sk-SK number format', () => {
  it('agrees with Intl.NumberFormat("sk-SK") on prices, numbers and percentages', () => {
    const two = new Intl.NumberFormat('sk-SK', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const whole = new Intl.NumberFormat('sk-SK', { maximumFractionDigits: 0 });
    const intlCents = (cents: number) => (cents % 100 === 0 ? whole.format(cents / 100) : two.format(cents / 100));
    const values: number[] = [0, 1, 5, 99, 100, 101, 999, 1000, 1001, 99_999, 100_000, 123_456, 999_999_999, 1_234_567_890_123];
    for (let cents = -2_000; cents <= 2_000; cents += 1) values.push(cents);
    // Every digit count up to billions of euros, with and without cents.
    for (let power = 1, value = 7; power < 14; power += 1, value = value * 10 + (power % 10)) values.push(value, -value, value * 100);
    for (const cents of values) {
      expect(formatPrice(cents * 10), String(cents)).toBe(`${intlCents(cents)}\u00a0€`);
      expect(formatNumber(cents / 100), String(cents)).toBe(intlCents(cents));
    }
    for (const percent of [-12.5, -0.4, 0, 0.5, 14.6, 99.5, 1234.4, 1_000_000]) {
      expect(formatPercent(percent), String(percent)).toBe(`${whole.format(Math.round(percent) + 0)}\u00a0%`);
    }
  });
});
