/**
 * The jobs an order queues in its own transaction (infra/outbox/outbox.ts): the confirmation e-mail, which
 * the documents domain renders and sends (its handler is registered under this topic in app.ts).
 * The orders domain names the job; it does not import how the e-mail is made.
 */
import { randomUUID } from 'node:crypto';
import type { DbOrTrx } from '../../../db/database.ts';
import { enqueue } from '../../../infra/outbox/outbox.ts';

export const CONFIRMATION_TOPIC = 'order-confirmation';

/**
 * Queues the order's confirmation in the caller's transaction: once per order (the key is the
 * order), or once more for each operator's resend.
 */
export function queueConfirmation(db: DbOrTrx, orderId: number, resend = false): Promise<void> {
  const key = `order-confirmation:${orderId}${resend ? `:resend:${randomUUID()}` : ''}`;
  return enqueue(db, CONFIRMATION_TOPIC, key, { orderId });
}
