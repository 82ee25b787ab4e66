import type { DbOrTrx } from '../../../db/database.ts';
import type { NewOrder, OrderRow } from '../../../db/orders.table.ts';

type NewOrderItem = {
  v_id: number;
  v_code: string;
  p_name: string;
  v_name: string;
  v_unit: string;
  amount: number;
  unit_price: number;
  vat: number;
  line_total: number;
};

/** Orders, their items, and the stock an order takes. */
export class OrderRepository {
  constructor(private readonly db: DbOrTrx) {}

  byKey(idempotencyKey: string): Promise<OrderRow | undefined> {
    return this.db.selectFrom('orders').selectAll().where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
  }

  byToken(token: string): Promise<OrderRow | undefined> {
    return this.db.selectFrom('orders').selectAll().where('order_token', '=', token).executeTakeFirst();
  }

  byNumber(number: string): Promise<OrderRow | undefined> {
    return this.db.selectFrom('orders').selectAll().where('order_number', '=', number).executeTakeFirst();
  }

  byId(orderId: number): Promise<OrderRow | undefined> {
    return this.db.selectFrom('orders').selectAll().where('order_id', '=', orderId).executeTakeFirst();
  }

  /**
   * Locks an order's row for the rest of the transaction (an update that changes nothing: a row lock
   * on PostgreSQL, the write lock on SQLite), so checks made after it see no concurrent change.
   */
  async lock(orderId: number): Promise<void> {
    await this.db
      .updateTable('orders')
      .set((eb) => ({ status: eb.ref('status') }))
      .where('order_id', '=', orderId)
      .execute();
  }

  /** Stores a new order; answers its id. */
  async insert(order: NewOrder): Promise<number> {
    const inserted = await this.db.insertInto('orders').values(order).returning('order_id').executeTakeFirstOrThrow();
    return inserted.order_id;
  }

  /** Gives a stored order its number; answers the order's row as stored now. */
  setNumber(orderId: number, orderNumber: string): Promise<OrderRow> {
    return this.db
      .updateTable('orders')
      .set({ order_number: orderNumber })
      .where('order_id', '=', orderId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async addItems(orderId: number, items: NewOrderItem[]): Promise<void> {
    if (items.length === 0) return;
    await this.db
      .insertInto('order_items')
      .values(items.map((item) => ({ ...item, order_id: orderId })))
      .execute();
  }

  items(orderId: number) {
    return this.db.selectFrom('order_items').selectAll().where('order_id', '=', orderId).orderBy('item_id').execute();
  }

  /** Takes `amount` pieces off a variant's stock if it has them (one conditional update); false when it has not. */
  async takeStock(vId: number, amount: number): Promise<boolean> {
    const result = await this.db
      .updateTable('variants')
      .set((eb) => ({ v_stock: eb('v_stock', '-', amount) }))
      .where('v_id', '=', vId)
      .where('v_stock', '>=', amount)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async stockOf(vId: number): Promise<number> {
    const row = await this.db.selectFrom('variants').select('v_stock').where('v_id', '=', vId).executeTakeFirst();
    return row?.v_stock ?? 0;
  }

  async setPaymentStatus(orderId: number, paymentStatus: string, paidAt?: string): Promise<void> {
    await this.db
      .updateTable('orders')
      .set(paidAt ? { payment_status: paymentStatus, paid_at: paidAt } : { payment_status: paymentStatus })
      .where('order_id', '=', orderId)
      .execute();
  }

  /** The order's card payment still waiting that was started last: its id and gateway page. */
  newestOpenPayment(orderId: number) {
    return this.db
      .selectFrom('payments')
      .select(['payment_id', 'redirect_url'])
      .where('order_id', '=', orderId)
      .where('status', '=', 'created')
      .orderBy('payment_id', 'desc')
      .executeTakeFirst();
  }
}
