/**
 * Payment providers: one interface, three kinds. Bank transfer and cash (on delivery or at the
 * store) need nothing online; the card provider creates a payment at the card gateway over HTTP
 * and sends the shopper there.
 */
import type { OrderPaymentStatus } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../../db/database.ts';
import type { OrderRow } from '../../../db/orders.table.ts';
import { ApiError } from '../../../infra/http/errors.ts';
import type { CreatePaymentAnswer, CreatePaymentRequest, PaymentAction } from './gateway-protocol.ts';
import { SIGNATURE_HEADER, sign } from './gateway-protocol.ts';
import { PaymentRepository } from '../order-core/payment.repository.ts';

export type PaymentContext = { db: DbOrTrx; returnUrl: string; notifyUrl: string };

export interface PaymentProvider {
  readonly kind: 'transfer' | 'cash' | 'card';
  /** The payment status a new order starts with. */
  readonly initialStatus: OrderPaymentStatus;
  /** Starts paying an order that is stored; a redirectUrl when the shopper pays elsewhere. */
  start(order: OrderRow, ctx: PaymentContext): Promise<{ redirectUrl: string | null }>;
}

export const GATEWAY_UNAVAILABLE = 'Platobná brána je momentálne nedostupná. Objednávka je prijatá, zaplatiť ju môžete o chvíľu znova.';

/**
 * How long the shop waits for the gateway to create a payment. It is on the answer path of
 * placing an order: past it the order is still accepted and the shopper can pay again from the
 * thank-you page, so a gateway that hangs never holds the shopper.
 */
export const GATEWAY_START_TIMEOUT_MS = 800;

/** Cancels and refunds run in the outbox worker, off any answer path, and are retried. */
const GATEWAY_ACTION_TIMEOUT_MS = 10_000;

/** A signed call of the gateway's cancel or refund (protocol steps 5 and 6); answers the HTTP status. */
export async function gatewayAction(
  gateway: { url: string | null; secret: string },
  kind: 'cancel' | 'refund',
  action: PaymentAction,
): Promise<number> {
  if (!gateway.url) throw new Error('no card gateway configured');
  const body = JSON.stringify(action);
  const res = await fetch(`${gateway.url}/api/payments/${encodeURIComponent(action.paymentId)}/${kind}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: sign(gateway.secret, body) },
    body,
    signal: AbortSignal.timeout(GATEWAY_ACTION_TIMEOUT_MS),
  });
  await res.arrayBuffer();
  return res.status;
}

export const bankTransferProvider: PaymentProvider = {
  kind: 'transfer',
  initialStatus: 'pending',
  start: async () => ({ redirectUrl: null }),
};

export const cashProvider: PaymentProvider = {
  kind: 'cash',
  initialStatus: 'on_delivery',
  start: async () => ({ redirectUrl: null }),
};

export function cardProvider(gateway: { url: string | null; secret: string }): PaymentProvider {
  return {
    kind: 'card',
    initialStatus: 'pending',
    async start(order, ctx) {
      if (!gateway.url) throw new ApiError(503, 'internal', GATEWAY_UNAVAILABLE);
      const request: CreatePaymentRequest = {
        merchantRef: order.order_number,
        amount: Math.round(order.amount_due / 10),
        currency: 'EUR',
        description: `Objednávka č. ${order.order_number}`,
        returnUrl: ctx.returnUrl,
        notifyUrl: ctx.notifyUrl,
      };
      const body = JSON.stringify(request);
      let answer: CreatePaymentAnswer;
      try {
        const res = await fetch(`${gateway.url}/api/payments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: sign(gateway.secret, body) },
          body,
          signal: AbortSignal.timeout(GATEWAY_START_TIMEOUT_MS),
        });
        if (res.status !== 201) throw new Error(`gateway answered ${res.status}`);
        answer = (await res.json()) as CreatePaymentAnswer;
      } catch {
        throw new ApiError(503, 'internal', GATEWAY_UNAVAILABLE);
      }
      await new PaymentRepository(ctx.db).insertOpen({
        order_id: order.order_id,
        provider: 'card',
        gateway_ref: answer.paymentId,
        amount: request.amount,
        redirect_url: answer.redirectUrl,
        created_at: new Date().toISOString(),
      });
      return { redirectUrl: answer.redirectUrl };
    },
  };
}

/** The provider of a payment method code. */
export function providerFor(code: string, card: PaymentProvider): PaymentProvider {
  if (code === 'card') return card;
  if (code === 'transfer') return bankTransferProvider;
  return cashProvider; // cod, cash
}
