import type { FastifyPluginAsync } from 'fastify';
import type { CheckoutCalls, PaymentRefund } from '@shop/shared-kernel/contract';
import { SIGNATURE_HEADER } from '../../gateway/protocol.ts';
import type { OrderDeps } from '../orders/index.ts';
import { requireOperator } from '../operator/operator-auth.ts';
import { handleNotification, REFUND_TOPIC } from './notifications.ts';
import { CANCEL_TOPIC, gatewayAction } from './providers.ts';

const MESSAGES: Record<string, string> = {
  bad_signature: 'Neplatný podpis notifikácie.',
  unknown_payment: 'Platba neexistuje.',
  bad_request: 'Neplatná notifikácia.',
};

/**
 * POST /api/payments/notify: the card gateway's signed notification (raw body for the HMAC).
 * The outbox jobs that talk back to the gateway: cancelling older attempts, refunding a payment
 * the shop must not keep. GET /api/operator/payments/refunds: those refunds, for the operator.
 */
export const paymentRoutes: FastifyPluginAsync<OrderDeps> = async (app, deps) => {
  const { db } = deps;
  const gateway = deps.checkout.gateway;
  // Encapsulated: only this plugin reads JSON as text, to check the signature over the exact bytes.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post('/payments/notify', async (request, reply) => {
    const raw = typeof request.body === 'string' ? request.body : '';
    const outcome = await handleNotification(db, gateway.secret, raw, request.headers[SIGNATURE_HEADER]);
    app.metrics.payments.inc({ outcome: outcome.status === 200 ? outcome.result : 'rejected' });
    if (outcome.status === 200) {
      if (outcome.result === 'refund') request.log.warn({ paymentId: JSON.parse(raw).paymentId as string }, 'payment for an order already paid or ended: refund queued');
      return { data: { result: outcome.result } };
    }
    const code = outcome.status === 401 ? 'unauthorized' : outcome.status === 404 ? 'not_found' : 'bad_request';
    return reply.status(outcome.status).send({ error: { code, message: MESSAGES[outcome.result] ?? 'Neplatná notifikácia.' } });
  });

  const gatewayRef = async (paymentId: number) =>
    db.selectFrom('payments').select(['gateway_ref', 'refund_status']).where('payment_id', '=', paymentId).executeTakeFirst();

  app.outbox.handle(CANCEL_TOPIC, async (job) => {
    const payment = await gatewayRef((job.payload as { paymentId: number }).paymentId);
    if (!payment) return;
    const status = await gatewayAction(gateway, 'cancel', { paymentId: payment.gateway_ref, reason: 'Nahradená novším pokusom o platbu.' });
    // 409: it was paid meanwhile; its paid notification refunds it if the order is paid otherwise.
    if (status !== 200 && status !== 404 && status !== 409) throw new Error(`gateway answered ${status} to a cancel`);
  });

  app.outbox.handle(REFUND_TOPIC, async (job) => {
    const paymentId = (job.payload as { paymentId: number }).paymentId;
    const payment = await gatewayRef(paymentId);
    if (!payment || payment.refund_status !== 'pending') return;
    const status = await gatewayAction(gateway, 'refund', { paymentId: payment.gateway_ref, reason: 'Platba, ktorú obchod nesmie ponechať.' });
    if (status === 200) {
      await db.updateTable('payments').set({ refund_status: 'refunded', refunded_at: new Date().toISOString() }).where('payment_id', '=', paymentId).execute();
      app.log.info({ paymentId }, 'payment refunded');
      return;
    }
    if (status === 409 || status === 404) {
      // The gateway says there is nothing to refund: a person must look at it.
      await db.updateTable('payments').set({ refund_status: 'failed' }).where('payment_id', '=', paymentId).execute();
      app.log.error({ paymentId, status }, 'refund refused by the gateway');
      return;
    }
    throw new Error(`gateway answered ${status} to a refund`);
  });

  app.get<{ Reply: CheckoutCalls['GET /api/operator/payments/refunds']['answer'] }>('/operator/payments/refunds', async (request) => {
    requireOperator(request, deps.checkout);
    const rows = await db
      .selectFrom('payments as p')
      .innerJoin('orders as o', 'o.order_id', 'p.order_id')
      .select(['p.payment_id', 'p.gateway_ref', 'o.order_number', 'p.amount', 'p.refund_status', 'p.refund_reason', 'p.updated_at', 'p.refunded_at'])
      .where('p.refund_status', 'is not', null)
      .orderBy('p.payment_id', 'desc')
      .limit(200)
      .execute();
    return {
      data: rows.map((r) => ({
        paymentId: r.payment_id,
        gatewayRef: r.gateway_ref,
        orderNumber: r.order_number,
        amountCents: r.amount,
        status: r.refund_status as PaymentRefund['status'],
        reason: r.refund_reason,
        paidAt: r.updated_at,
        refundedAt: r.refunded_at,
      })),
    };
  });
};
