import type { FastifyPluginAsync } from 'fastify';
import { SIGNATURE_HEADER } from './gateway-protocol.ts';
import { ApiError } from '../../../infra/http/errors.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { handleNotification, REFUND_TOPIC, type NotificationOutcome } from './notifications.ts';
import { CANCEL_TOPIC } from '../order-core/open-payments.ts';
import { gatewayAction } from './providers.ts';
import { PaymentRepository } from '../order-core/payment.repository.ts';

type Refusal = Extract<NotificationOutcome, { status: 400 | 401 | 404 }>['result'];
const REFUSALS: Record<Refusal, () => ApiError> = {
  bad_signature: () => new ApiError(401, 'unauthorized', 'Neplatný podpis notifikácie.'),
  unknown_payment: () => new ApiError(404, 'not_found', 'Platba neexistuje.'),
  bad_request: () => new ApiError(400, 'bad_request', 'Neplatná notifikácia: chybný tvar, mena alebo suma.'),
};

/** Why the gateway is asked to cancel an older payment page. */
const CANCEL_REASON = 'Platba nahradená novším pokusom alebo objednávka už nečaká na platbu.';

/**
 * POST /api/payments/notify: the card gateway's signed notification (raw body for the HMAC),
 * counted by outcome (applied, duplicate, ignored, refund, rejected).
 * The outbox jobs that talk back to the gateway: cancelling payment pages the shop no longer
 * wants, refunding a payment the shop must not keep (the operator sees them on the operator
 * origin: ordering/operator).
 */
export const paymentRoutes: FastifyPluginAsync<ApiDeps> = async (app, deps) => {
  const { db } = deps;
  const gateway = deps.gateway;
  // Encapsulated: only this plugin reads JSON as text, to check the signature over the exact bytes.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post('/payments/notify', async (request) => {
    const raw = typeof request.body === 'string' ? request.body : '';
    const outcome = await handleNotification(db, gateway.secret, raw, request.headers[SIGNATURE_HEADER]);
    app.metrics.payments.inc({ outcome: outcome.status === 200 ? outcome.result : 'rejected' });
    if (outcome.status !== 200) throw REFUSALS[outcome.result]();
    if (outcome.result === 'refund')
      request.log.warn({ paymentId: outcome.paymentId }, 'payment for an order already paid or ended: refund queued');
    return { data: { result: outcome.result } };
  });

  const payments = new PaymentRepository(db);
  const paymentOf = (paymentId: number) => payments.gatewayFacts(paymentId);

  app.outbox.handle(CANCEL_TOPIC, async (job) => {
    const payment = await paymentOf((job.payload as { paymentId: number }).paymentId);
    if (!payment) return;
    const status = await gatewayAction(gateway, 'cancel', { paymentId: payment.gateway_ref, reason: CANCEL_REASON });
    // 409: the shopper paid it before the cancel arrived; its paid notification counts it or refunds it.
    if (status !== 200 && status !== 404 && status !== 409) throw new Error(`gateway answered ${status} to a cancel`);
  });

  app.outbox.handle(REFUND_TOPIC, async (job) => {
    const paymentId = (job.payload as { paymentId: number }).paymentId;
    const payment = await paymentOf(paymentId);
    if (!payment || payment.refund_status !== 'pending') return;
    const status = await gatewayAction(gateway, 'refund', {
      paymentId: payment.gateway_ref,
      reason: payment.refund_reason ?? 'Platba, ktorú obchod nesmie ponechať.',
    });
    if (status === 200) {
      await payments.markRefunded(paymentId, new Date().toISOString());
      app.log.info({ paymentId }, 'payment refunded');
      return;
    }
    if (status === 409 || status === 404) {
      // The gateway says there is nothing to refund: a person must look at it.
      await payments.markRefundFailed(paymentId);
      app.log.error({ paymentId, status }, 'refund refused by the gateway');
      return;
    }
    // Anything else is retried with back-off; after the last attempt the outbox logs and counts it.
    throw new Error(`gateway answered ${status} to a refund`);
  });
};
