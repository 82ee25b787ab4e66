import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { shopPaths } from '@shop/shared-kernel/contract';
import { checkoutCalls, OrderToken } from '@shop/shared-kernel/schemas';
import type { OrderRow } from '../../../db/orders.table.ts';
import { forbidden, notFound } from '../../../infra/http/errors.ts';
import { canaryBucketOf } from '../../../infra/http/cookies.ts';
import { requireUser } from '../../../infra/auth/require-user.ts';
import type { CardGateway } from '../../../infra/checkout-options.ts';
import { callRoute } from '../../../infra/http/contract-route.ts';
import { optionalUser } from '../../../infra/auth/optional-user.ts';
import { limitPerAddress, RATE_LIMIT_MESSAGES, registerCheckoutRateLimit } from '../checkout/rate-limit.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { orderDocuments } from '../documents/documents.service.ts';
import { CONFIRMATION_TOPIC } from '../order-core/order-jobs.ts';
import { cardProvider, providerFor, type PaymentProvider } from '../payments/providers.ts';
import { ORDER_MESSAGES, OrderService } from './order.service.ts';
import { orderByToken } from '../order-core/order-access.ts';
import { orderDetail } from '../order-core/order-detail.ts';

/** Where the gateway notifies: the configured URL, or this API's own loopback address. */
function notifyUrl(app: FastifyInstance, gateway: CardGateway): string {
  if (gateway.notifyUrl) return gateway.notifyUrl;
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
 * sent by the outbox worker right after the answer. The answer carries the whole order, so the
 * thank-you page shows it without asking for it again.
 */
export const orderRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  await registerCheckoutRateLimit(plugin, deps.limits.checkout.allowList, deps.shared, 'orders');
  const card = cardProvider(deps.gateway);
  const provider = (code: string): PaymentProvider => providerFor(code, card);
  const orders = new OrderService(deps.db);
  const documents = orderDocuments(deps);
  /** The browser's canary bucket, which the checkout's switches are decided with. */
  const bucketOf = (request: FastifyRequest) => canaryBucketOf(request.headers.cookie, deps.publicUrl.startsWith('https:'));
  // The confirmation a placed order queued in its transaction, sent by whichever process takes the outbox's jobs.
  plugin.outbox.handle(CONFIRMATION_TOPIC, documents.confirmationJobHandler(deps.mail.mailer));

  const startPayment = async (order: OrderRow): Promise<string | null> => {
    const publicUrl = deps.publicUrl;
    const result = await provider(order.payment_code).start(order, {
      db: deps.db,
      returnUrl: `${publicUrl}${shopPaths.payment('pending', order.order_token)}`,
      notifyUrl: notifyUrl(app, deps.gateway),
    });
    return result.redirectUrl;
  };

  app.route({
    ...callRoute(checkoutCalls, 'POST /api/orders'),
    config: { rateLimit: limitPerAddress(deps.limits.checkout.orders, RATE_LIMIT_MESSAGES.orders) },
    handler: async (request, reply) => {
      const userId = await optionalUser(request, deps);
      const { order, created, lines } = await orders.place(request.body, userId, (code) => provider(code).initialStatus, bucketOf(request));
      let redirectUrl: string | null = null;
      if (created) {
        app.metrics.orders.inc({ payment: order.payment_code });
        // An order with nothing to pay is paid when placed: no gateway, no payment page.
        if (order.payment_status !== 'paid')
          redirectUrl = await startPayment(order).catch((error: unknown) => {
            request.log.warn({ err: error }, 'payment start failed');
            return null;
          });
      } else {
        redirectUrl = await orders.pendingRedirect(order);
      }
      reply.status(created ? 201 : 200);
      // The order as placed: starting a payment adds the gateway's page, not a change to the order.
      return { data: { order: await orderDetail(deps.db, order, deps.iban, { lines }), redirectUrl } };
    },
  });

  app.route({
    ...callRoute(checkoutCalls, 'GET /api/orders/:token'),
    handler: async (request) => {
      const order = await orderByToken(deps.db, request.params.token);
      if (!order) throw notFound(ORDER_MESSAGES.notFound);
      return { data: await orderDetail(deps.db, order, deps.iban) };
    },
  });

  app.route({
    ...callRoute(checkoutCalls, 'POST /api/orders/:token/pay'),
    handler: async (request) => {
      const order = await orderByToken(deps.db, request.params.token);
      if (!order) throw notFound(ORDER_MESSAGES.notFound);
      const redirectUrl = await orders.payAgain(order, startPayment, bucketOf(request));
      const fresh = (await orderByToken(deps.db, order.order_token))!;
      return { data: { order: await orderDetail(deps.db, fresh, deps.iban), redirectUrl } };
    },
  });

  // The invoice is a PDF, not JSON: only its parameters come from the contract.
  app.get('/orders/:token/invoice', { schema: { params: OrderToken } }, async (request, reply) => {
    const order = await orderByToken(deps.db, request.params.token);
    if (!order) throw notFound(ORDER_MESSAGES.notFound);
    if (order.user_id !== null) {
      const user = await requireUser(request, deps);
      if (user.id !== order.user_id) throw forbidden('Faktúru si môže stiahnuť iba zákazník, ktorý objednávku vytvoril.');
    }
    const pdf = await documents.invoicePdf(order);
    return reply
      .type('application/pdf')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `inline; filename="faktura-${order.order_number}.pdf"`)
      .send(pdf);
  });
};
