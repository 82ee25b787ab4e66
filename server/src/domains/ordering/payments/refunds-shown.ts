import type { PaymentRefund } from '@shop/shared-kernel/contract';
import type { Db } from '../../../db/database.ts';
import { PaymentRepository } from '../order-core/payment.repository.ts';

/** The operator's list of refunds (the order tools' API and the console): the newest 200, newest first; or one payment's. */
export async function refundsShown(db: Db, paymentId?: number): Promise<PaymentRefund[]> {
  const rows = await new PaymentRepository(db).refunds(200, paymentId);
  return rows.map((r) => ({
    paymentId: r.payment_id,
    gatewayRef: r.gateway_ref,
    orderNumber: r.order_number,
    amountCents: r.amount,
    status: r.refund_status as PaymentRefund['status'],
    reason: r.refund_reason,
    paidAt: r.updated_at,
    refundedAt: r.refunded_at,
  }));
}
