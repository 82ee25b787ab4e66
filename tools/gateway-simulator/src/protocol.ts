/**
 * The card gateway protocol as the simulator speaks it: the same wire shapes as the API's card
 * provider (server/src/domains/ordering/payments/gateway-protocol.ts), copied so that the shop never imports this tool;
 * server/test/ordering/gateway-protocol.test.ts checks that both agree.
 *
 *  1. API → gateway  POST {gateway}/api/payments         body CreatePaymentRequest
 *                    header X-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>
 *     gateway → API  201 { paymentId, redirectUrl }      (401 on a bad signature)
 *  2. The shopper's browser goes to redirectUrl ({gateway}/pay/{paymentId}), a Slovak page with
 *     "Zaplatiť" and "Zrušiť platbu".
 *  3. On either, gateway → API  POST notifyUrl          body PaymentNotification, signed the same
 *     way; the API answers 2xx once it has taken it into account (a replay also gets 2xx and
 *     changes nothing; a bad signature 401, an unknown payment 404). The gateway retries a
 *     failed delivery a few times.
 *  4. The gateway redirects the browser (303) to returnUrl, the shop's /payment/pending page,
 *     which shows /payment/success or /payment/cancelled once the notification has arrived.
 *  5. API → gateway  POST {gateway}/api/payments/{paymentId}/cancel   body PaymentAction, signed
 *     A payment not paid yet is cancelled (its page no longer takes money): 200; again: 200;
 *     already paid: 409. The shop cancels the older attempts when a new one starts.
 *  6. API → gateway  POST {gateway}/api/payments/{paymentId}/refund   body PaymentAction, signed
 *     A paid payment is refunded in full: 200; again: 200 (nothing more is refunded); not paid: 409.
 *     The shop refunds a payment that arrived for an order already paid or ended.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type CreatePaymentRequest = {
  /** The shop's order number. */
  merchantRef: string;
  /** Cents. */
  amount: number;
  currency: 'EUR';
  description: string;
  returnUrl: string;
  notifyUrl: string;
};

export type CreatePaymentAnswer = { paymentId: string; redirectUrl: string };

export type PaymentNotification = {
  /** Unique per notification: a replay carries the same id. */
  notificationId: string;
  paymentId: string;
  merchantRef: string;
  status: 'paid' | 'cancelled' | 'failed';
  amount: number;
  currency: 'EUR';
  createdAt: string;
};

/** The body of a cancel or refund: the payment it is about (must match the path), and why. */
export type PaymentAction = { paymentId: string; reason: string };

export const SIGNATURE_HEADER = 'x-signature';

export function sign(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;
}

/** Constant-time check of a signature header against the raw body. */
export function verifySignature(secret: string, rawBody: string, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(sign(secret, rawBody));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
