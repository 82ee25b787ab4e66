import type { AttributeKey } from './attributes.ts';

/** A variant as the catalog data writes it: real units, the price in euros with VAT. */
export type VariantDraft = {
  name: string;
  /** Price with VAT before any sale, euros. */
  gross: number;
  unit: string;
  /** Kilograms. */
  weight: number;
  /** Base amount for the unit price, in real units (25 for a 25 kg bag). */
  base?: { amount: number; unit: string };
};

export type ProductDraft = {
  name: string;
  /** Brand url, or null for unbranded goods. */
  brand: string | null;
  /** Category url (a leaf). */
  cat: string;
  description: string;
  variants: VariantDraft[];
  attrs: Partial<Record<AttributeKey, number | string>>;
};

export type CategoryDraft = {
  url: string;
  name: string;
  description: string;
  children?: CategoryDraft[];
};
