/**
 * At most one payment page of an order takes money. Whenever the shop stops wanting a card payment
 * that is still open (a newer attempt starts, the order is paid or ends), it marks the payment
 * cancelled in the caller's transaction and queues its cancellation at the gateway in the same
 * transaction (outbox); from then on the gateway's page refuses the shopper's money. A payment
 * the gateway took before the cancellation reached it still counts, or is refunded
 * (notifications.ts).
 */
import type { DbOrTrx } from '../../../db/database.ts';
import { enqueue } from '../../../infra/outbox/outbox.ts';
import { PaymentRepository } from './payment.repository.ts';

export const CANCEL_TOPIC = 'payment-cancel';

/** The outbox job of one payment's cancellation at the gateway (one per payment, ever). */
export const cancelJobKey = (paymentId: number) => `payment-cancel:${paymentId}`;

/**
 * Cancels the order's card payments still waiting (`created`), all but `keep` when given, and
 * queues their cancellation at the gateway. Call it with the order locked (lockOrder). Answers how
 * many it cancelled.
 */
export async function cancelOpenPayments(trx: DbOrTrx, orderId: number, keep?: number): Promise<number> {
  const payments = new PaymentRepository(trx);
  const open = await payments.openIds(orderId, keep);
  const now = new Date().toISOString();
  for (const paymentId of open) {
    await payments.cancelIfOpen(paymentId, now);
    await enqueue(trx, CANCEL_TOPIC, cancelJobKey(paymentId), { paymentId });
  }
  return open.length;
}
