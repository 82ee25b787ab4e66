/**
 * Gateway notifications: signed, for a known payment, taken into account once. A bad signature,
 * an unknown payment, a mismatch or a replay changes nothing.
 */
import type { Db } from '../../db/database.ts';
import type { PaymentNotification } from '../../gateway/protocol.ts';
import { verifySignature } from '../../gateway/protocol.ts';

export type NotificationOutcome =
  | { status: 200; result: 'applied' | 'duplicate' | 'ignored' }
  | { status: 400 | 401 | 404; result: 'bad_request' | 'bad_signature' | 'unknown_payment' };

const STATUSES = new Set(['paid', 'cancelled', 'failed']);

export async function handleNotification(
  db: Db,
  secret: string,
  rawBody: string,
  signature: string | string[] | undefined,
): Promise<NotificationOutcome> {
  if (!verifySignature(secret, rawBody, signature)) return { status: 401, result: 'bad_signature' };
  let n: PaymentNotification;
  try {
    n = JSON.parse(rawBody) as PaymentNotification;
  } catch {
    return { status: 400, result: 'bad_request' };
  }
  if (typeof n.notificationId !== 'string' || !n.notificationId || typeof n.paymentId !== 'string' || !STATUSES.has(n.status)) {
    return { status: 400, result: 'bad_request' };
  }

  return db.transaction().execute(async (trx): Promise<NotificationOutcome> => {
    const payment = await trx
      .selectFrom('payments as pay')
      .innerJoin('orders as o', 'o.order_id', 'pay.order_id')
      .select(['pay.payment_id', 'pay.status', 'pay.amount', 'pay.order_id', 'o.order_number', 'o.payment_status'])
      .where('pay.gateway_ref', '=', n.paymentId)
      .executeTakeFirst();
    if (!payment) return { status: 404, result: 'unknown_payment' };
    if (payment.order_number !== n.merchantRef || payment.amount !== n.amount) return { status: 400, result: 'bad_request' };

    const now = new Date().toISOString();
    const inserted = await trx
      .insertInto('payment_notifications')
      .values({ notification_id: n.notificationId, gateway_ref: n.paymentId, status: n.status, received_at: now })
      .onConflict((oc) => oc.column('notification_id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return { status: 200, result: 'duplicate' };
    // Only a payment still waiting moves; a final one stays as it is.
    if (payment.status !== 'created') return { status: 200, result: 'ignored' };

    await trx.updateTable('payments').set({ status: n.status, updated_at: now }).where('payment_id', '=', payment.payment_id).execute();
    if (n.status === 'paid') {
      await trx.updateTable('orders').set({ payment_status: 'paid', paid_at: now }).where('order_id', '=', payment.order_id).execute();
    } else if (payment.payment_status !== 'paid') {
      // A cancelled or failed attempt marks the order only when no newer attempt is under way.
      const newer = await trx
        .selectFrom('payments')
        .select('payment_id')
        .where('order_id', '=', payment.order_id)
        .where('payment_id', '>', payment.payment_id)
        .executeTakeFirst();
      if (!newer) await trx.updateTable('orders').set({ payment_status: n.status }).where('order_id', '=', payment.order_id).execute();
    }
    return { status: 200, result: 'applied' };
  });
}
