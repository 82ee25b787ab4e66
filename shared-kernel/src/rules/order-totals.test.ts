import { describe, expect, it } from 'vitest';
import { orderTotals, totalsRows, vatBreakdown } from './order-totals.ts';

const text = (value: string) => value.replace(/\u00a0/g, ' ');

describe('vatBreakdown', () => {
  it('splits VAT per rate from prices with VAT, the discount in proportion', () => {
    expect(vatBreakdown([{ gross: 12_300, rate: 23 }])).toEqual([{ rate: 23, base: 10_000, vat: 2_300, total: 12_300 }]);
    const lines = vatBreakdown(
      [
        { gross: 12_300, rate: 23 },
        { gross: 11_900, rate: 19 },
      ],
      2_420,
    );
    expect(lines.reduce((s, l) => s + l.total, 0)).toBe(12_300 + 11_900 - 2_420);
    for (const l of lines) expect(l.base + l.vat).toBe(l.total);
    // A discount above the total leaves zero, never below.
    expect(vatBreakdown([{ gross: 1_000, rate: 23 }], 5_000)).toEqual([]);
  });
});

describe('orderTotals', () => {
  const lines = [
    { lineTotal: 24_600, vat: 23 },
    { lineTotal: 11_900, vat: 19 },
  ];

  it('spreads the discount over the goods only; shipping and payment join their rates whole', () => {
    const totals = orderTotals({ lines, discount: 3_650, shipping: { price: 6_150, vat: 23 }, payment: { price: 1_190, vat: 19 } });
    expect(totals.itemsTotal).toBe(36_500);
    expect(totals.discount).toBe(3_650);
    expect(totals.total).toBe(36_500 - 3_650 + 6_150 + 1_190);
    expect(totals.amountDue).toBe(totals.total);
    const goods = vatBreakdown(
      lines.map((l) => ({ gross: l.lineTotal, rate: l.vat })),
      3_650,
    );
    expect(totals.vat).toEqual(
      vatBreakdown([...goods.map((l) => ({ gross: l.total, rate: l.rate })), { gross: 6_150, rate: 23 }, { gross: 1_190, rate: 19 }]),
    );
    expect(totals.vat.map((v) => v.rate)).toEqual([23, 19]);
    expect(totals.vat.reduce((sum, v) => sum + v.total, 0)).toBe(totals.total);
    for (const v of totals.vat) expect(v.base + v.vat).toBe(v.total);
  });

  it('rounds the amount due to 0.05 € for cash only', () => {
    const shipping = { price: 4_320, vat: 23 };
    expect(orderTotals({ lines, discount: 0, shipping, cash: true })).toMatchObject({ total: 40_820, amountDue: 40_800 });
    expect(orderTotals({ lines, discount: 0, shipping })).toMatchObject({ total: 40_820, amountDue: 40_820 });
  });

  it('never takes more off than the goods, nor less than nothing', () => {
    const over = orderTotals({ lines: [{ lineTotal: 2_990, vat: 23 }], discount: 5_000, shipping: { price: 0, vat: 23 } });
    expect(over).toMatchObject({ itemsTotal: 2_990, discount: 2_990, total: 0, amountDue: 0, vat: [] });
    expect(orderTotals({ lines, discount: -100 }).discount).toBe(0);
    expect(orderTotals({ lines: [], discount: 0 })).toEqual({ itemsTotal: 0, discount: 0, total: 0, amountDue: 0, vat: [] });
  });

  it('takes the default rate for a line without one', () => {
    expect(orderTotals({ lines: [{ lineTotal: 12_300 }], discount: 0 }).vat).toEqual([
      { rate: 23, base: 10_000, vat: 2_300, total: 12_300 },
    ]);
  });
});

describe('totalsRows', () => {
  const figures = {
    itemsTotal: 36_500,
    discount: 3_650,
    couponCode: 'ZLAVA10',
    shipping: { name: 'Kuriér', price: 0 },
    payment: { name: 'Na dobierku', price: 1_190 },
    vat: [
      { rate: 23, base: 16_910, vat: 3_890, total: 20_800 },
      { rate: 19, base: 11_070, vat: 2_100, total: 13_170 },
    ],
    total: 34_040,
    amountDue: 34_050,
  };

  it('lays out goods, discount, shipping, payment, VAT per rate, total and the amount due, in that order', () => {
    const rows = totalsRows(figures);
    expect(rows.map((r) => [r.kind, r.label, text(r.shown)])).toEqual([
      ['items', 'Tovar spolu', '36,50 €'],
      ['discount', 'Zľava (kupón ZLAVA10)', '−3,65 €'],
      ['shipping', 'Doprava: Kuriér', 'zadarmo'],
      ['payment', 'Platba: Na dobierku', '1,19 €'],
      ['vat', 'z toho DPH 23 %', '3,89 €'],
      ['vat', 'z toho DPH 19 %', '2,10 €'],
      ['total', 'Spolu s DPH', '34,04 €'],
      ['amountDue', 'Na úhradu v hotovosti (zaokrúhlené na 0,05 €)', '34,05 €'],
    ]);
    expect(rows.find((r) => r.kind === 'discount')!.amount).toBe(-3_650);
    expect(rows.filter((r) => r.kind === 'vat').map((r) => r.vat)).toEqual(figures.vat);
  });

  it('leaves out what the order does not have: no discount, no method chosen, nothing rounded', () => {
    const rows = totalsRows({ ...figures, discount: 0, couponCode: null, shipping: null, payment: null, vat: [], amountDue: 34_040 });
    expect(rows.map((r) => r.kind)).toEqual(['items', 'total']);
    expect(totalsRows({ ...figures, couponCode: null }).find((r) => r.kind === 'discount')!.label).toBe('Zľava');
  });
});
