import type { VariantData } from '@shop/shared-kernel/contract';

/** A variant for component tests: 10 € without VAT, a 25 kg bag priced per kg. */
export const variant = (over: Partial<VariantData>): VariantData => ({
  v_id: 1,
  v_code: 'A1',
  v_name: '25 kg',
  v_sellPrice: 10000,
  v_vat: 23,
  v_sale: 0,
  v_stock: 10,
  v_availability: 'in_stock',
  v_weight: 25000,
  v_unit: 'ks',
  v_baseAmount: 25000,
  v_baseUnit: 'kg',
  p_id: 1,
  p_name: 'Lepidlo',
  p_url: 'lepidlo',
  p_image: '/media/p/1.svg',
  ...over,
});
