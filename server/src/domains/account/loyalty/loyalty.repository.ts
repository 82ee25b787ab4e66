import type { Db } from '../../../db/database.ts';

/** The paid orders loyalty points are counted from. */
export class LoyaltyRepository {
  constructor(private readonly db: Db) {}

  /** How many of the user's orders are paid and their total with VAT (thousandths). */
  async paidOrders(userId: number): Promise<{ count: number; total: number }> {
    const row = await this.db
      .selectFrom('orders')
      .select([(eb) => eb.fn.coalesce(eb.fn.sum<number>('total'), eb.lit(0)).as('paid'), (eb) => eb.fn.countAll<number>().as('orders')])
      .where('user_id', '=', userId)
      .where('payment_status', '=', 'paid')
      .executeTakeFirstOrThrow();
    return { count: Number(row.orders), total: Number(row.paid) };
  }
}
