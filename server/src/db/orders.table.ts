import type { Generated, Insertable, Selectable } from 'kysely';

/** Money columns are integers in thousandths of a euro, with VAT; timestamps ISO 8601 UTC text. */
export interface OrderTable {
  order_id: Generated<number>;
  order_number: string;
  /** 32 random characters: the capability in /checkout/thankyou/{orderToken}. */
  order_token: string;
  idempotency_key: string;
  /** Hash of the placing request, so a reused key with another body is refused. */
  request_hash: string;
  user_id: number | null;
  email: string;
  /** CheckoutContact as JSON. */
  contact_json: string;
  /** JSON PickupPoint (without distance) chosen for shipping "pickup-point"; null for other shipping. */
  pickup_point_json: Generated<string | null>;
  note: Generated<string>;
  shipping_code: string;
  shipping_name: string;
  shipping_price: number;
  shipping_vat: number;
  payment_code: string;
  payment_name: string;
  payment_price: number;
  payment_vat: number;
  coupon_code: string | null;
  items_total: number;
  discount: Generated<number>;
  total: number;
  /** What the shopper pays: the total, rounded to 0.05 € when paid in cash. */
  amount_due: number;
  /** Grams. */
  weight: number;
  status: string;
  payment_status: string;
  created_at: string;
  paid_at: string | null;
}

/**
 * The version of a part (the checkout) the browser that placed an order was served, decided by the
 * server at placement from the browser's canary bucket and the registry in force, never from the
 * request's body; written in the order's transaction. What the canary watch's commerce guardrail counts.
 */
export interface OrderVersionTable {
  order_id: number;
  part: string;
  version: string;
  /** ISO UTC, the order's created_at. */
  placed_at: string;
}

export interface OrderItemTable {
  item_id: Generated<number>;
  order_id: number;
  v_id: number;
  v_code: string;
  p_name: string;
  v_name: string;
  v_unit: string;
  amount: number;
  /** Unit price with VAT, whole cents. */
  unit_price: number;
  vat: number;
  line_total: number;
}

export interface PaymentTable {
  payment_id: Generated<number>;
  order_id: number;
  provider: string;
  /** The gateway's payment id. */
  gateway_ref: string;
  amount: number;
  /** created | paid | cancelled | failed */
  status: string;
  /** The gateway page the shopper pays on. */
  redirect_url: string;
  created_at: string;
  updated_at: string;
  /** A payment that succeeded for an order already paid is refunded: pending → refunded | failed; else null. */
  refund_status: string | null;
  refund_reason: string | null;
  refunded_at: string | null;
}

/** Every gateway notification taken into account, so a replay changes nothing. */
export interface PaymentNotificationTable {
  notification_id: string;
  gateway_ref: string;
  status: string;
  received_at: string;
}

export interface ShippingWeightBandTable {
  band_id: Generated<number>;
  sm_code: string;
  /** Heaviest basket (grams) of the band. */
  max_weight: number;
  /** Price without VAT, thousandths. */
  price: number;
}

export type OrderRow = Selectable<OrderTable>;
export type NewOrder = Insertable<OrderTable>;
export type OrderItemRow = Selectable<OrderItemTable>;
export type PaymentRow = Selectable<PaymentTable>;

/** A pickup point of the parcel partner (shipping "Výdajné miesto"). */
export interface PickupPointTable {
  pp_code: string;
  pp_name: string;
  pp_street: string;
  pp_zip: string;
  pp_city: string;
  pp_lat: number;
  pp_lon: number;
  pp_hours: string;
  pp_active: Generated<number>;
}
