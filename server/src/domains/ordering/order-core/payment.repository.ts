import type { DbOrTrx } from '../../../db/database.ts';

type NewPayment = { order_id: number; provider: string; gateway_ref: string; amount: number; redirect_url: string; created_at: string };

/** Card payments at the gateway, the gateway's notifications, and refunds. */
export class PaymentRepository {
  constructor(private readonly db: DbOrTrx) {}

  /** A payment the gateway just opened, waiting for the shopper. */
  async insertOpen(payment: NewPayment): Promise<void> {
    await this.db
      .insertInto('payments')
      .values({ ...payment, status: 'created', updated_at: payment.created_at })
      .execute();
  }

  /** The payment a gateway reference names, with its order's number. */
  byGatewayRef(gatewayRef: string) {
    return this.db
      .selectFrom('payments as pay')
      .innerJoin('orders as o', 'o.order_id', 'pay.order_id')
      .select(['pay.payment_id', 'pay.amount', 'pay.order_id', 'o.order_number'])
      .where('pay.gateway_ref', '=', gatewayRef)
      .executeTakeFirst();
  }

  /** Records a notification once; false when it was recorded before (the gateway sends again). */
  async recordNotification(notificationId: string, gatewayRef: string, status: string, at: string): Promise<boolean> {
    const inserted = await this.db
      .insertInto('payment_notifications')
      .values({ notification_id: notificationId, gateway_ref: gatewayRef, status, received_at: at })
      .onConflict((oc) => oc.column('notification_id').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async statusOf(paymentId: number): Promise<string> {
    const row = await this.db.selectFrom('payments').select('status').where('payment_id', '=', paymentId).executeTakeFirstOrThrow();
    return row.status;
  }

  /** The order's payment and order states, as a notification decides by them. */
  orderState(orderId: number) {
    return this.db.selectFrom('orders').select(['payment_status', 'status']).where('order_id', '=', orderId).executeTakeFirstOrThrow();
  }

  async setStatus(paymentId: number, status: string, at: string): Promise<void> {
    await this.db.updateTable('payments').set({ status, updated_at: at }).where('payment_id', '=', paymentId).execute();
  }

  /** A payment the shop may not keep: paid, and its refund waiting for the outbox. */
  async paidForRefund(paymentId: number, reason: string, at: string): Promise<void> {
    await this.db
      .updateTable('payments')
      .set({ status: 'paid', updated_at: at, refund_status: 'pending', refund_reason: reason })
      .where('payment_id', '=', paymentId)
      .execute();
  }

  /** Whether the order has an attempt started after this payment. */
  async hasNewerAttempt(orderId: number, paymentId: number): Promise<boolean> {
    const newer = await this.db
      .selectFrom('payments')
      .select('payment_id')
      .where('order_id', '=', orderId)
      .where('payment_id', '>', paymentId)
      .executeTakeFirst();
    return newer !== undefined;
  }

  /** The order's payments still waiting, all but `keep` when given. */
  async openIds(orderId: number, keep?: number): Promise<number[]> {
    let query = this.db.selectFrom('payments').select('payment_id').where('order_id', '=', orderId).where('status', '=', 'created');
    if (keep !== undefined) query = query.where('payment_id', '!=', keep);
    return (await query.execute()).map((row) => row.payment_id);
  }

  /** Cancels a payment that is still waiting (no other state moves). */
  async cancelIfOpen(paymentId: number, at: string): Promise<void> {
    await this.db
      .updateTable('payments')
      .set({ status: 'cancelled', updated_at: at })
      .where('payment_id', '=', paymentId)
      .where('status', '=', 'created')
      .execute();
  }

  /** What a refund or cancellation at the gateway needs. */
  gatewayFacts(paymentId: number) {
    return this.db
      .selectFrom('payments')
      .select(['gateway_ref', 'refund_status', 'refund_reason'])
      .where('payment_id', '=', paymentId)
      .executeTakeFirst();
  }

  async markRefunded(paymentId: number, at: string): Promise<void> {
    await this.db.updateTable('payments').set({ refund_status: 'refunded', refunded_at: at }).where('payment_id', '=', paymentId).execute();
  }

  /** A refund the gateway refused, made by hand at the gateway; false unless it was one (refused, not yet recorded). */
  async markRefundedByHand(paymentId: number, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('payments')
      .set({ refund_status: 'refunded', refunded_at: at })
      .where('payment_id', '=', paymentId)
      .where('refund_status', '=', 'failed')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async markRefundFailed(paymentId: number): Promise<void> {
    await this.db.updateTable('payments').set({ refund_status: 'failed' }).where('payment_id', '=', paymentId).execute();
  }

  /** The latest refunds (pending, done, failed) with their orders, newest first (of one payment only, when given). */
  refunds(limit: number, paymentId?: number) {
    let query = this.db
      .selectFrom('payments as p')
      .innerJoin('orders as o', 'o.order_id', 'p.order_id')
      .select([
        'p.payment_id',
        'p.gateway_ref',
        'o.order_number',
        'p.amount',
        'p.refund_status',
        'p.refund_reason',
        'p.updated_at',
        'p.refunded_at',
      ])
      .where('p.refund_status', 'is not', null);
    if (paymentId !== undefined) query = query.where('p.payment_id', '=', paymentId);
    return query.orderBy('p.payment_id', 'desc').limit(limit).execute();
  }

  /** Refunds still pending: how many, and when the oldest was queued (its payment's last change; null when none). */
  async pendingRefunds(): Promise<{ pending: number; oldestPendingSince: string | null }> {
    const row = await this.db
      .selectFrom('payments')
      .select((eb) => [eb.fn.countAll<number | string>().as('pending'), eb.fn.min('updated_at').as('oldest')])
      .where('refund_status', '=', 'pending')
      .executeTakeFirst();
    return { pending: Number(row?.pending ?? 0), oldestPendingSince: row?.oldest ?? null };
  }
}
