/** Repository layer: database rows to the contract's shapes. */
import type { Availability, Brand, VariantData } from '@shop/shared-kernel/contract';

export const productImageUrl = (pId: number): string => `/media/p/${pId}.png`;

/** A variant row joined with its product's name and url. */
export type VariantWithProduct = {
  v_id: number;
  v_code: string;
  v_name: string;
  v_sell_price: number;
  v_vat: number;
  v_sale: number;
  v_stock: number;
  v_availability: Availability;
  v_weight: number;
  v_unit: string;
  v_base_amount: number | null;
  v_base_unit: string | null;
  p_id: number;
  p_name: string;
  p_url: string;
};

export function toVariantData(row: VariantWithProduct): VariantData {
  return {
    v_id: row.v_id,
    v_code: row.v_code,
    v_name: row.v_name,
    v_sellPrice: row.v_sell_price,
    v_vat: row.v_vat,
    v_sale: row.v_sale,
    v_stock: row.v_stock,
    v_availability: row.v_availability,
    v_weight: row.v_weight,
    v_unit: row.v_unit,
    v_baseAmount: row.v_base_amount,
    v_baseUnit: row.v_base_unit,
    p_id: row.p_id,
    p_name: row.p_name,
    p_url: row.p_url,
    p_image: productImageUrl(row.p_id),
  };
}

export function toBrand(row: { b_id: number | null; b_url: string | null; b_name: string | null }): Brand | null {
  if (row.b_id === null || row.b_url === null || row.b_name === null) return null;
  return { b_id: row.b_id, b_url: row.b_url, b_name: row.b_name };
}
