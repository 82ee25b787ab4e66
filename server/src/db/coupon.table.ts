import type { Generated, Insertable, Selectable } from 'kysely';

export type CouponKind = 'percent' | 'amount';

export interface CouponTable {
  coupon_id: Generated<number>;
  /** Stored upper-case. */
  code: string;
  kind: CouponKind;
  /** percent: thousandths of a percent (10000 = 10 %); amount: thousandths of a euro. */
  value: number;
  /** Minimum basket total with VAT, thousandths of a euro. */
  min_total: Generated<number>;
  valid_from: string;
  valid_to: string;
  max_uses: number | null;
  once_per_customer: Generated<number>;
}

/** The user's active coupon (one at most). */
export interface UserCouponTable {
  user_id: number;
  coupon_id: number;
  applied_at: string;
}

/** A coupon used in a placed order; counts towards max_uses and once_per_customer. */
export interface CouponRedemptionTable {
  redemption_id: Generated<number>;
  coupon_id: number;
  user_id: number;
  order_ref: string | null;
  redeemed_at: string;
}

export type CouponRow = Selectable<CouponTable>;
export type NewCoupon = Insertable<CouponTable>;
export type NewCouponRedemption = Insertable<CouponRedemptionTable>;
