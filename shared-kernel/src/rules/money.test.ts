import { describe, expect, it } from 'vitest';
import {
  AMOUNT_SCALE,
  DEFAULT_VAT,
  basePrice,
  basketTotal,
  couponAmountOff,
  couponDiscountAmount,
  lineTotal,
  priceAfterCoupon,
  roundTo005,
  roundToCents,
  salePercent,
  unitPriceBeforeSale,
  unitPriceWithVat,
} from './money.ts';
import { line, variant } from '../testing/fixtures.ts';

describe('constants', () => {
  it('hold the required values', () => {
    expect(AMOUNT_SCALE).toBe(1000);
    expect(DEFAULT_VAT).toBe(23);
  });
});

describe('unitPriceWithVat', () => {
  it('10.000 € at 23 % with a 15 % sale is exactly 10.46 € (10455 → 10460)', () => {
    expect(unitPriceWithVat({ v_sellPrice: 10000, v_vat: 23, v_sale: 15000 })).toBe(10460);
  });
  it('adds VAT without a sale', () => {
    expect(unitPriceWithVat({ v_sellPrice: 10000, v_vat: 23, v_sale: 0 })).toBe(12300);
    expect(unitPriceWithVat({ v_sellPrice: 1000, v_vat: 10 })).toBe(1100);
    expect(unitPriceWithVat({ v_sellPrice: 1000, v_vat: 0 })).toBe(1000);
  });
  it('uses 23 % when VAT is missing or null, but keeps an explicit 0 %', () => {
    expect(unitPriceWithVat({ v_sellPrice: 10000 })).toBe(12300);
    expect(unitPriceWithVat({ v_sellPrice: 10000, v_vat: null })).toBe(12300);
    expect(unitPriceWithVat({ v_sellPrice: 10000, v_vat: 0 })).toBe(10000);
  });
  it('rounds to whole cents (nearest 10 thousandths)', () => {
    // 8.130 × 1.23 = 9.9999 → 10.00
    expect(unitPriceWithVat({ v_sellPrice: 8130, v_vat: 23 })).toBe(10000);
    // 1.234 × 1.23 = 1.51782 → 1.52
    expect(unitPriceWithVat({ v_sellPrice: 1234, v_vat: 23 })).toBe(1520);
    // 4.065 × 1.23 = 4.99995 → 5.00
    expect(unitPriceWithVat({ v_sellPrice: 4065, v_vat: 23 })).toBe(5000);
    // 0.005 € is half a cent → rounds up to 0.01
    expect(unitPriceWithVat({ v_sellPrice: 5, v_vat: 0 })).toBe(10);
    // 0.004 € → 0.00
    expect(unitPriceWithVat({ v_sellPrice: 4, v_vat: 0 })).toBe(0);
  });
  it('applies a fractional-percent sale (v_sale in thousandths of a percent)', () => {
    // 1.000 × 1.20 = 1.20; minus 33.333 % = 0.800004 → 0.80
    expect(unitPriceWithVat({ v_sellPrice: 1000, v_vat: 20, v_sale: 33333 })).toBe(800);
    // 24.390 × 1.23 = 29.9997; minus 10 % = 26.99973 → 27.00
    expect(unitPriceWithVat({ v_sellPrice: 24390, v_vat: 23, v_sale: 10000 })).toBe(27000);
  });
  it('a 100 % sale is free', () => {
    expect(unitPriceWithVat({ v_sellPrice: 10000, v_vat: 23, v_sale: 100000 })).toBe(0);
  });
  it('stays exact for large prices', () => {
    // 999 999.999 € × 1.23 = 1 229 999.99877 → 1 230 000.00
    expect(unitPriceWithVat({ v_sellPrice: 999_999_999, v_vat: 23, v_sale: 0 })).toBe(1_230_000_000);
  });
  it('handles a non-integer VAT', () => {
    // 10.000 × 1.055 = 10.55
    expect(unitPriceWithVat({ v_sellPrice: 10000, v_vat: 5.5 })).toBe(10550);
  });
});

describe('unitPriceBeforeSale', () => {
  it('ignores the sale', () => {
    expect(unitPriceBeforeSale({ v_sellPrice: 10000, v_vat: 23, v_sale: 15000 })).toBe(12300);
    expect(unitPriceBeforeSale({ v_sellPrice: 1234 })).toBe(1520);
  });
});

describe('salePercent', () => {
  it('is the integer percent', () => {
    expect(salePercent({ v_sale: 15000 })).toBe(15);
    expect(salePercent({ v_sale: 33333 })).toBe(33);
    expect(salePercent({ v_sale: 12500 })).toBe(13);
    expect(salePercent({ v_sale: 0 })).toBe(0);
    expect(salePercent({})).toBe(0);
  });
});

describe('lineTotal and basketTotal', () => {
  it('multiply the rounded unit price by the amount', () => {
    // 10.46 € × 3 = 31.38 € (not 10.455 × 3 = 31.365)
    expect(lineTotal(line(1, 3, { v_sellPrice: 10000, v_vat: 23, v_sale: 15000 }))).toBe(31380);
    expect(lineTotal(line(2, 2, { v_sellPrice: 10000, v_vat: 23, v_sale: 0 }))).toBe(24600);
  });
  it('sum the lines', () => {
    const lines = [
      line(1, 3, { v_sellPrice: 10000, v_vat: 23, v_sale: 15000 }),
      line(2, 2, { v_sellPrice: 10000, v_vat: 23, v_sale: 0 }),
      line(3, 7, { v_sellPrice: 1234, v_vat: 23, v_sale: 0 }),
    ];
    expect(basketTotal(lines)).toBe(31380 + 24600 + 10640);
  });
  it('an empty basket totals 0', () => {
    expect(basketTotal([])).toBe(0);
  });
});

describe('couponDiscountAmount', () => {
  it('turns euros into thousandths rounded to cents', () => {
    expect(couponDiscountAmount(5)).toBe(5000);
    expect(couponDiscountAmount(2.5)).toBe(2500);
    expect(couponDiscountAmount(12.345)).toBe(12350);
    expect(couponDiscountAmount(1.005)).toBe(1010);
    expect(couponDiscountAmount(0.004)).toBe(0);
    expect(couponDiscountAmount(0.005)).toBe(10);
  });
  it('is never negative and tolerates garbage', () => {
    expect(couponDiscountAmount(-3)).toBe(0);
    expect(couponDiscountAmount(Number.NaN)).toBe(0);
    expect(couponDiscountAmount(Number.POSITIVE_INFINITY)).toBe(0);
  });
});

describe('roundToCents', () => {
  it('rounds thousandths to whole cents, half away from zero', () => {
    expect(roundToCents(1_005)).toBe(1_010);
    expect(roundToCents(1_004)).toBe(1_000);
    expect(roundToCents(1_015)).toBe(1_020);
    expect(roundToCents(5)).toBe(10);
    expect(roundToCents(4)).toBe(0);
    expect(roundToCents(-1_005)).toBe(-1_010);
    expect(Object.is(roundToCents(-4), 0)).toBe(true);
  });
});

describe('couponAmountOff', () => {
  it('keeps the discount in thousandths, rounded to whole cents (requirements R9.5)', () => {
    expect(couponAmountOff(5_000, 20_000)).toBe(5_000);
    expect(couponAmountOff(1_005, 20_000)).toBe(1_010);
    expect(couponAmountOff(1_004, 20_000)).toBe(1_000);
    expect(couponAmountOff(4, 20_000)).toBe(0);
    expect(couponAmountOff(5, 20_000)).toBe(10);
  });
  it('never takes more than the goods, so the price after it is never below 0', () => {
    expect(couponAmountOff(5_000, 2_990)).toBe(2_990);
    expect(priceAfterCoupon(2_990, couponAmountOff(5_000, 2_990))).toBe(0);
    expect(couponAmountOff(2_995, 2_990)).toBe(2_990);
    expect(couponAmountOff(1_000, 0)).toBe(0);
  });
  it('is never negative and tolerates garbage', () => {
    expect(couponAmountOff(-3_000, 20_000)).toBe(0);
    expect(couponAmountOff(Number.NaN, 20_000)).toBe(0);
    expect(couponAmountOff(Number.POSITIVE_INFINITY, 20_000)).toBe(0);
  });
});

describe('priceAfterCoupon', () => {
  it('subtracts the discount', () => {
    expect(priceAfterCoupon(10000, 2500)).toBe(7500);
    expect(priceAfterCoupon(10000, 0)).toBe(10000);
  });
  it('never goes below 0', () => {
    expect(priceAfterCoupon(2000, 5000)).toBe(0);
    expect(priceAfterCoupon(0, 10)).toBe(0);
  });
  it('ignores a negative discount', () => {
    expect(priceAfterCoupon(2000, -500)).toBe(2000);
  });
});

describe('roundTo005', () => {
  it('rounds to the nearest 0.05 €', () => {
    expect(roundTo005(12340)).toBe(12350);
    expect(roundTo005(12320)).toBe(12300);
    expect(roundTo005(12325)).toBe(12350);
    expect(roundTo005(12300)).toBe(12300);
    expect(roundTo005(24)).toBe(0);
    expect(roundTo005(25)).toBe(50);
    expect(roundTo005(0)).toBe(0);
  });
  it('is symmetric for negative amounts', () => {
    expect(roundTo005(-12340)).toBe(-12350);
    expect(Object.is(roundTo005(-10), 0)).toBe(true);
  });
});

describe('basePrice', () => {
  it('is the price per base unit', () => {
    // 10.163 × 1.23 = 12.50049 → 12.50 € per 25 kg bag → 0.50 €/kg
    expect(basePrice(variant({ v_sellPrice: 10163, v_vat: 23, v_baseAmount: 25000, v_baseUnit: 'kg' }))).toEqual({
      price: 500,
      unit: 'kg',
    });
    // 10.00 € per 3 m² → 3.33 €/m²
    expect(basePrice(variant({ v_sellPrice: 10000, v_vat: 0, v_baseAmount: 3000, v_baseUnit: 'm²' }))).toEqual({ price: 3330, unit: 'm²' });
    // 2.00 € per 0.5 l → 4.00 €/l
    expect(basePrice(variant({ v_sellPrice: 2000, v_vat: 0, v_baseAmount: 500, v_baseUnit: 'l' }))).toEqual({ price: 4000, unit: 'l' });
  });
  it('uses the sale price', () => {
    // 10.46 € per 2 kg → 5.23 €/kg
    expect(basePrice(variant({ v_sellPrice: 10000, v_vat: 23, v_sale: 15000, v_baseAmount: 2000, v_baseUnit: 'kg' }))).toEqual({
      price: 5230,
      unit: 'kg',
    });
  });
  it('is null without a base amount or unit', () => {
    expect(basePrice(variant({ v_baseAmount: null, v_baseUnit: 'kg' }))).toBeNull();
    expect(basePrice(variant({ v_baseAmount: 25000, v_baseUnit: null }))).toBeNull();
    expect(basePrice(variant({ v_baseAmount: 0, v_baseUnit: 'kg' }))).toBeNull();
  });
});
