import type { OrderState } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../../db/database.ts';

/** The account's view of orders: the user's list, the state history, withdrawals. */
export class OrderHistoryRepository {
  constructor(private readonly db: DbOrTrx) {}

  async countOfUser(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** One page of the user's orders, newest first. */
  pageOfUser(userId: number, limit: number, offset: number) {
    return this.db
      .selectFrom('orders')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('order_id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** How many lines each of the orders has (orders without lines are left out). */
  async lineCounts(orderIds: number[]): Promise<Map<number, number>> {
    if (orderIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('order_items')
      .select(['order_id', (eb) => eb.fn.countAll().as('n')])
      .where('order_id', 'in', orderIds)
      .groupBy('order_id')
      .execute();
    return new Map(rows.map((r) => [r.order_id, Number(r.n)]));
  }

  /** The ids of an order's lines, in the order of its lines. */
  async itemIds(orderId: number): Promise<number[]> {
    const rows = await this.db.selectFrom('order_items').select(['item_id']).where('order_id', '=', orderId).orderBy('item_id').execute();
    return rows.map((r) => r.item_id);
  }

  /** The moves recorded for an order (shipped, delivered, cancelled, withdrawn), oldest first. */
  stateMoves(orderId: number) {
    return this.db
      .selectFrom('order_status_history')
      .select(['status', 'note', 'created_at'])
      .where('order_id', '=', orderId)
      .orderBy('history_id')
      .execute();
  }

  async addStateMove(orderId: number, state: OrderState, note: string, actor: 'operator' | 'customer', at: string): Promise<void> {
    await this.db.insertInto('order_status_history').values({ order_id: orderId, status: state, note, actor, created_at: at }).execute();
  }

  /** Keeps orders.status in step with the history (the checkout's detail shows 'cancelled' from it). */
  async setStatus(orderId: number, status: string): Promise<void> {
    await this.db.updateTable('orders').set({ status }).where('order_id', '=', orderId).execute();
  }

  /** Payment is recorded on the order itself, as the gateway and the operator's /paid tool do. */
  async markPaid(orderId: number, paidAt: string): Promise<void> {
    await this.db.updateTable('orders').set({ payment_status: 'paid', paid_at: paidAt }).where('order_id', '=', orderId).execute();
  }

  /** An order's withdrawals, oldest first, with the lines of each. */
  async withdrawals(orderId: number) {
    const rows = await this.db.selectFrom('withdrawals').selectAll().where('order_id', '=', orderId).orderBy('withdrawal_id').execute();
    if (rows.length === 0) return [];
    const items = await this.db
      .selectFrom('withdrawal_items')
      .select(['withdrawal_id', 'item_id'])
      .where(
        'withdrawal_id',
        'in',
        rows.map((r) => r.withdrawal_id),
      )
      .execute();
    return rows.map((r) => ({ ...r, itemIds: items.filter((i) => i.withdrawal_id === r.withdrawal_id).map((i) => i.item_id) }));
  }

  /** Records a withdrawal of the given lines; its id. The primary key on item_id refuses a line withdrawn twice. */
  async addWithdrawal(w: {
    orderId: number;
    userId: number;
    wholeOrder: boolean;
    refund: number;
    itemIds: number[];
    at: string;
  }): Promise<number> {
    const row = await this.db
      .insertInto('withdrawals')
      .values({ order_id: w.orderId, user_id: w.userId, whole_order: w.wholeOrder ? 1 : 0, refund: w.refund, created_at: w.at })
      .returning('withdrawal_id')
      .executeTakeFirstOrThrow();
    await this.db
      .insertInto('withdrawal_items')
      .values(w.itemIds.map((item_id) => ({ withdrawal_id: row.withdrawal_id, item_id })))
      .execute();
    return row.withdrawal_id;
  }
}
