/**
 * Gateway notifications: signed, of the right shape and currency, for a known payment, taken into
 * account once. Money is never kept twice: a `paid` notification always counts (the gateway has
 * taken the money), and when the order is already paid by another payment, or has ended, the
 * payment is refunded through the gateway by the outbox worker, queued in the same transaction,
 * and listed for the operator. The payment that pays the order cancels the order's other open
 * pages (open-payments.ts). A bad signature, shape, unknown payment, mismatch or replay
 * changes nothing.
 */
import type { Db } from '../../db/database.ts';
import type { PaymentNotification } from '../../gateway/protocol.ts';
import { verifySignature } from '../../gateway/protocol.ts';
import { enqueue } from '../../lib/outbox.ts';
import { lockOrder } from '../orders/order.service.ts';
import { cancelOpenPayments } from './open-payments.ts';

export type NotificationOutcome =
  | { status: 200; result: 'applied' | 'duplicate' | 'ignored' | 'refund'; paymentId?: string }
  | { status: 400 | 401 | 404; result: 'bad_request' | 'bad_signature' | 'unknown_payment' };

export const REFUND_TOPIC = 'payment-refund';
export const REFUND_REASONS = {
  duplicate: 'Duplicitná platba – objednávka už bola zaplatená inou platbou.',
  ended: 'Platba prišla po zrušení objednávky alebo odstúpení od zmluvy.',
} as const;

const STATUSES = new Set(['paid', 'cancelled', 'failed']);
const id = (value: unknown) => typeof value === 'string' && value.length > 0 && value.length <= 100;

/** The notification when it has exactly the protocol's shape, else null. */
export function parseNotification(rawBody: string): PaymentNotification | null {
  let n: unknown;
  try {
    n = JSON.parse(rawBody);
  } catch {
    return null;
  }
  if (typeof n !== 'object' || n === null || Array.isArray(n)) return null;
  const o = n as Record<string, unknown>;
  const ok = id(o.notificationId) && id(o.paymentId) && id(o.merchantRef)
    && typeof o.status === 'string' && STATUSES.has(o.status)
    && Number.isSafeInteger(o.amount) && (o.amount as number) > 0
    && o.currency === 'EUR'
    && typeof o.createdAt === 'string' && o.createdAt.length <= 40;
  return ok ? (o as PaymentNotification) : null;
}

export async function handleNotification(
  db: Db,
  secret: string,
  rawBody: string,
  signature: string | string[] | undefined,
): Promise<NotificationOutcome> {
  if (!verifySignature(secret, rawBody, signature)) return { status: 401, result: 'bad_signature' };
  const n = parseNotification(rawBody);
  if (!n) return { status: 400, result: 'bad_request' };

  return db.transaction().execute(async (trx): Promise<NotificationOutcome> => {
    const payment = await trx
      .selectFrom('payments as pay')
      .innerJoin('orders as o', 'o.order_id', 'pay.order_id')
      .select(['pay.payment_id', 'pay.amount', 'pay.order_id', 'o.order_number'])
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

    // Everything below sees the order as it is now, with no other payment of it moving meanwhile.
    await lockOrder(trx, payment.order_id);
    const current = await trx.selectFrom('payments').select('status').where('payment_id', '=', payment.payment_id).executeTakeFirstOrThrow();
    const order = await trx.selectFrom('orders').select(['payment_status', 'status']).where('order_id', '=', payment.order_id).executeTakeFirstOrThrow();

    if (n.status === 'paid') {
      if (current.status === 'paid') return { status: 200, result: 'ignored' };
      const ended = order.status === 'cancelled' || order.status === 'withdrawn';
      if (order.payment_status === 'paid' || ended) {
        await trx.updateTable('payments')
          .set({ status: 'paid', updated_at: now, refund_status: 'pending', refund_reason: ended ? REFUND_REASONS.ended : REFUND_REASONS.duplicate })
          .where('payment_id', '=', payment.payment_id).execute();
        await enqueue(trx, REFUND_TOPIC, `payment-refund:${payment.payment_id}`, { paymentId: payment.payment_id });
        return { status: 200, result: 'refund', paymentId: n.paymentId };
      }
      await trx.updateTable('payments').set({ status: 'paid', updated_at: now }).where('payment_id', '=', payment.payment_id).execute();
      await trx.updateTable('orders').set({ payment_status: 'paid', paid_at: now }).where('order_id', '=', payment.order_id).execute();
      // The order is paid: any other page of it still open stops taking money.
      await cancelOpenPayments(trx, payment.order_id, payment.payment_id);
      return { status: 200, result: 'applied' };
    }

    // A cancelled or failed attempt: only a payment still waiting moves, and it marks the order
    // only when the order is not paid and no newer attempt is under way.
    if (current.status !== 'created') return { status: 200, result: 'ignored' };
    await trx.updateTable('payments').set({ status: n.status, updated_at: now }).where('payment_id', '=', payment.payment_id).execute();
    if (order.payment_status !== 'paid') {
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
