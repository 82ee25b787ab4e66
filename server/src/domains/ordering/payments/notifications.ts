/**
 * Gateway notifications: signed, of the right shape and currency, for a known payment, taken into
 * account once. Money is never kept twice: a `paid` notification always counts (the gateway has
 * taken the money), and when the order is already paid by another payment, or has ended, the
 * payment is refunded through the gateway by the outbox worker, queued in the same transaction,
 * and listed for the operator. The payment that pays the order cancels the order's other open
 * pages (open-payments.ts). A bad signature, shape, unknown payment, mismatch or replay
 * changes nothing.
 */
import type { Db } from '../../../db/database.ts';
import type { PaymentNotification } from './gateway-protocol.ts';
import { verifySignature } from './gateway-protocol.ts';
import { enqueue } from '../../../infra/outbox/outbox.ts';
import { lockOrder } from '../order-core/order-access.ts';
import { cancelOpenPayments } from '../order-core/open-payments.ts';
import { PaymentRepository } from '../order-core/payment.repository.ts';
import { OrderRepository } from '../order-core/order.repository.ts';

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
  const ok =
    id(o.notificationId) &&
    id(o.paymentId) &&
    id(o.merchantRef) &&
    typeof o.status === 'string' &&
    STATUSES.has(o.status) &&
    Number.isSafeInteger(o.amount) &&
    (o.amount as number) > 0 &&
    o.currency === 'EUR' &&
    typeof o.createdAt === 'string' &&
    o.createdAt.length <= 40;
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
    const payments = new PaymentRepository(trx);
    const payment = await payments.byGatewayRef(n.paymentId);
    if (!payment) return { status: 404, result: 'unknown_payment' };
    if (payment.order_number !== n.merchantRef || payment.amount !== n.amount) return { status: 400, result: 'bad_request' };

    const now = new Date().toISOString();
    if (!(await payments.recordNotification(n.notificationId, n.paymentId, n.status, now))) return { status: 200, result: 'duplicate' };

    // Everything below sees the order as it is now, with no other payment of it moving meanwhile.
    await lockOrder(trx, payment.order_id);
    const current = { status: await payments.statusOf(payment.payment_id) };
    const order = await payments.orderState(payment.order_id);

    if (n.status === 'paid') {
      if (current.status === 'paid') return { status: 200, result: 'ignored' };
      const ended = order.status === 'cancelled' || order.status === 'withdrawn';
      if (order.payment_status === 'paid' || ended) {
        await payments.paidForRefund(payment.payment_id, ended ? REFUND_REASONS.ended : REFUND_REASONS.duplicate, now);
        await enqueue(trx, REFUND_TOPIC, `payment-refund:${payment.payment_id}`, { paymentId: payment.payment_id });
        return { status: 200, result: 'refund', paymentId: n.paymentId };
      }
      await payments.setStatus(payment.payment_id, 'paid', now);
      await new OrderRepository(trx).setPaymentStatus(payment.order_id, 'paid', now);
      // The order is paid: any other page of it still open stops taking money.
      await cancelOpenPayments(trx, payment.order_id, payment.payment_id);
      return { status: 200, result: 'applied' };
    }

    // A cancelled or failed attempt: only a payment still waiting moves, and it marks the order
    // only when the order is not paid and no newer attempt is under way.
    if (current.status !== 'created') return { status: 200, result: 'ignored' };
    await payments.setStatus(payment.payment_id, n.status, now);
    if (order.payment_status !== 'paid' && !(await payments.hasNewerAttempt(payment.order_id, payment.payment_id))) {
      await new OrderRepository(trx).setPaymentStatus(payment.order_id, n.status);
    }
    return { status: 200, result: 'applied' };
  });
}
