import type { VariantDraft } from './types.ts';

/** 12.5 -> "12,5" */
export const num = (n: number): string => String(n).replace('.', ',');

/** Euros rounded to a price ending in 9 cents, as shops like to show. */
export const price = (euros: number): number => {
  const rounded = Math.round(euros * 10) / 10 - 0.01;
  return Math.max(0.09, Math.round(rounded * 100) / 100);
};

export const piece = (gross: number, weight: number, name = '1 ks'): VariantDraft => ({
  name,
  gross: price(gross),
  unit: 'ks',
  weight,
});

/** A pallet of `count` pieces, a little cheaper per piece. */
export const pallet = (count: number, grossPerPiece: number, weightPerPiece: number): VariantDraft => ({
  name: `paleta (${count} ks)`,
  gross: price(grossPerPiece * count * 0.94),
  unit: 'paleta',
  weight: Math.round(weightPerPiece * count + 25),
  base: { amount: count, unit: 'ks' },
});

export const bag = (kg: number, gross: number, unit = 'vrece'): VariantDraft => ({
  name: `${num(kg)} kg`,
  gross: price(gross),
  unit,
  weight: kg,
  base: { amount: kg, unit: 'kg' },
});

export const bagPallet = (bags: number, kg: number, grossPerBag: number): VariantDraft => ({
  name: `paleta (${bags} × ${num(kg)} kg)`,
  gross: price(grossPerBag * bags * 0.93),
  unit: 'paleta',
  weight: bags * kg + 25,
  base: { amount: bags * kg, unit: 'kg' },
});

export const liquid = (litres: number, gross: number, label?: string, unit = 'vedro'): VariantDraft => ({
  name: label ? `${label}, ${num(litres)} l` : `${num(litres)} l`,
  gross: price(gross),
  unit,
  weight: Math.round(litres * 1.4 * 10) / 10,
  base: { amount: litres, unit: 'l' },
});

/** A pack covering `m2` square metres. */
export const area = (name: string, m2: number, gross: number, weight: number, unit = 'ks'): VariantDraft => ({
  name,
  gross: price(gross),
  unit,
  weight,
  base: { amount: m2, unit: 'm²' },
});

/** A length sold by the piece, with a per-metre unit price. */
export const length = (mm: number, grossPerMetre: number, weightPerMetre: number, unit = 'ks'): VariantDraft => ({
  name: `${num(mm / 1000)} m`,
  gross: price((grossPerMetre * mm) / 1000),
  unit,
  weight: Math.round(((weightPerMetre * mm) / 1000) * 100) / 100,
  base: { amount: mm / 1000, unit: 'm' },
});
