import type { CouponRow } from '../../../db/coupon.table.ts';
import type { DbOrTrx } from '../../../db/database.ts';

export class CouponRepository {
  constructor(private readonly db: DbOrTrx) {}

  async byCode(code: string): Promise<CouponRow | undefined> {
    return this.db.selectFrom('coupons').selectAll().where('code', '=', code).executeTakeFirst();
  }

  async redemptionCounts(couponId: number, userId: number): Promise<{ total: number; byUser: number }> {
    const row = await this.db
      .selectFrom('coupon_redemptions')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.sum<number>(eb.case().when('user_id', '=', userId).then(1).else(0).end()).as('by_user'),
      ])
      .where('coupon_id', '=', couponId)
      .executeTakeFirstOrThrow();
    return { total: Number(row.total), byUser: Number(row.by_user ?? 0) };
  }

  /** Current prices of the given variants. */
  async variantPrices(vIds: number[]) {
    if (vIds.length === 0) return [];
    return this.db.selectFrom('variants').select(['v_id', 'v_sell_price', 'v_vat', 'v_sale']).where('v_id', 'in', vIds).execute();
  }

  async activeCoupon(userId: number): Promise<CouponRow | undefined> {
    return this.db
      .selectFrom('user_coupons as uc')
      .innerJoin('coupons as c', 'c.coupon_id', 'uc.coupon_id')
      .selectAll('c')
      .where('uc.user_id', '=', userId)
      .executeTakeFirst();
  }

  async setActive(userId: number, couponId: number): Promise<void> {
    const applied_at = new Date().toISOString();
    await this.db
      .insertInto('user_coupons')
      .values({ user_id: userId, coupon_id: couponId, applied_at })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ coupon_id: couponId, applied_at }))
      .execute();
  }

  /**
   * Locks the coupon's row until the transaction ends (an update that changes nothing: a row lock on
   * PostgreSQL, the write lock on SQLite), so orders that count its uses and then record one run one
   * after the other: under read committed both would otherwise count before either records.
   */
  async lock(couponId: number): Promise<void> {
    await this.db
      .updateTable('coupons')
      .set((eb) => ({ code: eb.ref('code') }))
      .where('coupon_id', '=', couponId)
      .execute();
  }

  /** Records that an order used the coupon (the per-user and total limits count these). */
  async redeem(couponId: number, userId: number, orderRef: string, at: string): Promise<void> {
    await this.db
      .insertInto('coupon_redemptions')
      .values({ coupon_id: couponId, user_id: userId, order_ref: orderRef, redeemed_at: at })
      .execute();
  }

  async clearActive(userId: number): Promise<void> {
    await this.db.deleteFrom('user_coupons').where('user_id', '=', userId).execute();
  }
}
