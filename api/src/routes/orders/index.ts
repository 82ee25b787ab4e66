import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { CheckoutCalls, PlaceOrderBody } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../db/database.ts';
import type { OrderRow } from '../../db/orders.table.ts';
import { ApiError, forbidden, notFound } from '../../lib/errors.ts';
import { requireUser } from '../account/require-user.ts';
import type { CheckoutOptions } from '../checkout/checkout-options.ts';
import { linesSchema, optionalUser } from '../checkout/index.ts';
import { limitPerAddress, RATE_LIMIT_MESSAGES, registerCheckoutRateLimit, type CheckoutRateLimit } from '../checkout/rate-limit.ts';
import type { ApiDeps } from '../deps.ts';
import { invoicePdf } from '../documents/documents.service.ts';
import { cancelOpenPayments } from '../payments/open-payments.ts';
import { cardProvider, providerFor, type PaymentProvider } from '../payments/providers.ts';
import { lockOrder, ORDER_MESSAGES, orderByToken, orderDetail, pendingRedirect, placeOrder } from './order.service.ts';
import { isOperator } from '../operator/operator-auth.ts';
import { ID_SCHEMA } from '../../lib/validation.ts';

type Call<K extends keyof CheckoutCalls> = CheckoutCalls[K];
/** E-mails are queued through the outbox (documents/mail-outbox.ts), so no route needs the mailer itself. */
export type OrderDeps = ApiDeps & { checkout: CheckoutOptions };
/** Placing orders also needs the per-address limit. */
export type PlaceOrderDeps = OrderDeps & { rateLimit: CheckoutRateLimit };

const text = (max: number, min = 0) => ({ type: 'string', minLength: min, maxLength: max }) as const;
const address = {
  type: 'object',
  required: ['street', 'city', 'zip'],
  properties: { street: text(120), city: text(80), zip: text(12) },
} as const;

const placeSchema = {
  type: 'object',
  required: ['idempotencyKey', 'lines', 'contact', 'shippingCode', 'paymentCode', 'note', 'termsAccepted'],
  properties: {
    idempotencyKey: { type: 'string', minLength: 16, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' },
    lines: linesSchema,
    contact: {
      type: 'object',
      required: ['email', 'phone', 'name', 'billing', 'company', 'delivery'],
      properties: {
        email: text(254),
        phone: text(32),
        name: text(120),
        billing: address,
        company: {
          anyOf: [
            { type: 'null' },
            {
              type: 'object',
              required: ['name', 'ico', 'dic', 'icDph'],
              properties: { name: text(160), ico: text(12), dic: text(14), icDph: text(16) },
            },
          ],
        },
        delivery: {
          anyOf: [{ type: 'null' }, { ...address, required: ['name', 'street', 'city', 'zip'], properties: { ...address.properties, name: text(120) } }],
        },
      },
    },
    shippingCode: text(32, 1),
    paymentCode: text(32, 1),
    couponCode: { type: ['string', 'null'], maxLength: 64 },
    userId: { anyOf: [ID_SCHEMA, { type: 'null' }] },
    note: text(1000),
    termsAccepted: { type: 'boolean' },
    expectedTotal: { type: 'integer', minimum: 0, maximum: 1_000_000_000_000 },
    pickupPointCode: { type: ['string', 'null'], maxLength: 20 },
  },
} as const;

const CANNOT_PAY_AGAIN = 'Túto objednávku nie je možné zaplatiť kartou znova.';

const tokenParams = { type: 'object', required: ['token'], properties: { token: { type: 'string', pattern: '^[A-Za-z0-9]{32}$' } } } as const;

/** Where the gateway notifies: the configured URL, or this API's own loopback address. */
function notifyUrl(app: FastifyInstance, opts: CheckoutOptions): string {
  if (opts.notifyUrl) return opts.notifyUrl;
  const address = app.server.address() as AddressInfo | null;
  const host = !address || address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address?.port ?? 80}/api/payments/notify`;
}

/**
 * Orders: place (idempotent), read by order token, pay again by card, invoice PDF.
 * The 32-character order token is the capability of the thank-you page: whoever holds it sees
 * the order (as with an e-mailed link). The invoice PDF of a signed-in shopper's order needs that
 * shopper's Bearer token; a guest's order is served by its order token.
 * The confirmation e-mail of a new order is queued in the order's own transaction (outbox) and
 * sent by the outbox worker right after the answer.
 */
export const orderRoutes: FastifyPluginAsync<PlaceOrderDeps> = async (app, deps) => {
  await registerCheckoutRateLimit(app, deps.rateLimit.allowList);
  const card = cardProvider(deps.checkout.gateway);
  const provider = (code: string): PaymentProvider => providerFor(code, card);

  const startPayment = async (order: OrderRow): Promise<string | null> => {
    const publicUrl = deps.checkout.publicUrl;
    const result = await provider(order.payment_code).start(order, {
      db: deps.db,
      returnUrl: `${publicUrl}/payment/pending?order=${order.order_token}`,
      notifyUrl: notifyUrl(app, deps.checkout),
    });
    return result.redirectUrl;
  };

  app.post<{ Body: PlaceOrderBody; Reply: Call<'POST /api/orders'>['answer'] }>(
    '/orders',
    { schema: { body: placeSchema }, config: { rateLimit: limitPerAddress(deps.rateLimit.orders, RATE_LIMIT_MESSAGES.orders) } },
    async (request, reply) => {
      const userId = await optionalUser(request, deps);
      const { order, created } = await placeOrder(deps.db, request.body, userId, (code) => provider(code).initialStatus);
      let redirectUrl: string | null = null;
      if (created) {
        app.metrics.orders.inc({ payment: order.payment_code });
        // An order with nothing to pay is paid when placed: no gateway, no payment page.
        if (order.payment_status !== 'paid') redirectUrl = await startPayment(order).catch((error: unknown) => {
          request.log.warn({ err: error }, 'payment start failed');
          return null;
        });
      } else {
        redirectUrl = await pendingRedirect(deps.db, order);
      }
      const fresh = (await orderByToken(deps.db, order.order_token))!;
      reply.status(created ? 201 : 200);
      return { data: { order: await orderDetail(deps.db, fresh, deps.checkout.iban), redirectUrl } };
    },
  );

  app.get<{ Params: { token: string }; Reply: Call<'GET /api/orders/:token'>['answer'] }>(
    '/orders/:token',
    { schema: { params: tokenParams } },
    async (request) => {
      const order = await orderByToken(deps.db, request.params.token);
      if (!order) throw notFound(ORDER_MESSAGES.notFound);
      return { data: await orderDetail(deps.db, order, deps.checkout.iban) };
    },
  );

  /** Whether the order, read under its row lock, still waits for a card payment. */
  const payableByCard = async (trx: DbOrTrx, orderId: number) => {
    const locked = await trx.selectFrom('orders').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
    return (await orderDetail(trx, locked, deps.checkout.iban)).canRetryPayment;
  };

  app.post<{ Params: { token: string }; Reply: Call<'POST /api/orders/:token/pay'>['answer'] }>(
    '/orders/:token/pay',
    { schema: { params: tokenParams } },
    async (request) => {
      const order = await orderByToken(deps.db, request.params.token);
      if (!order) throw notFound(ORDER_MESSAGES.notFound);
      // At most one payment page of an order takes money: the older ones stop before a new one
      // opens (in our database now, at the gateway through the outbox).
      await deps.db.transaction().execute(async (trx) => {
        await lockOrder(trx, order.order_id);
        if (!(await payableByCard(trx, order.order_id))) throw new ApiError(409, 'conflict', CANNOT_PAY_AGAIN);
        await cancelOpenPayments(trx, order.order_id);
      });
      await startPayment(order);
      // Meanwhile the order may have been paid (a page the gateway took before our cancel reached
      // it) or another attempt may have started: only the newest page stays open, and none once
      // the order no longer waits for a payment.
      const redirectUrl = await deps.db.transaction().execute(async (trx) => {
        await lockOrder(trx, order.order_id);
        if (!(await payableByCard(trx, order.order_id))) {
          await cancelOpenPayments(trx, order.order_id);
          throw new ApiError(409, 'conflict', CANNOT_PAY_AGAIN);
        }
        const newest = await trx.selectFrom('payments').select(['payment_id', 'redirect_url']).where('order_id', '=', order.order_id)
          .where('status', '=', 'created').orderBy('payment_id', 'desc').executeTakeFirst();
        if (!newest) return null;
        await cancelOpenPayments(trx, order.order_id, newest.payment_id);
        await trx.updateTable('orders').set({ payment_status: 'pending' }).where('order_id', '=', order.order_id).execute();
        return newest.redirect_url;
      });
      const fresh = (await orderByToken(deps.db, order.order_token))!;
      return { data: { order: await orderDetail(deps.db, fresh, deps.checkout.iban), redirectUrl } };
    },
  );

  app.get<{ Params: { token: string } }>('/orders/:token/invoice', { schema: { params: tokenParams } }, async (request, reply) => {
    const order = await orderByToken(deps.db, request.params.token);
    if (!order) throw notFound(ORDER_MESSAGES.notFound);
    if (order.user_id !== null && !isOperator(request, deps.checkout)) {
      const user = await requireUser(request, deps);
      if (user.id !== order.user_id) throw forbidden('Faktúru si môže stiahnuť iba zákazník, ktorý objednávku vytvoril.');
    }
    const pdf = await invoicePdf(deps.db, order, deps.checkout);
    return reply
      .type('application/pdf')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `inline; filename="faktura-${order.order_number}.pdf"`)
      .send(pdf);
  });
};
