import type { Generated, Insertable } from 'kysely';

export interface ShippingMethodTable {
  sm_id: Generated<number>;
  sm_code: string;
  sm_name: string;
  sm_description: string;
  /** Price without VAT, thousandths of a euro. */
  sm_price: number;
  sm_vat: Generated<number>;
  /** Basket total with VAT from which shipping is free; null: never. */
  sm_free_from: number | null;
  /** Heaviest basket in grams this method carries; null: no limit. */
  sm_max_weight: number | null;
  sm_position: Generated<number>;
  sm_active: Generated<number>;
}

export interface PaymentMethodTable {
  pm_id: Generated<number>;
  pm_code: string;
  pm_name: string;
  pm_description: string;
  pm_price: number;
  pm_vat: Generated<number>;
  pm_position: Generated<number>;
  pm_active: Generated<number>;
}

export type NewShippingMethod = Insertable<ShippingMethodTable>;
export type NewPaymentMethod = Insertable<PaymentMethodTable>;
