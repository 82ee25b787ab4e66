/**
 * The operator's document tools behind the utility routes of requirements R2.2 (/pdf, /generate, /email,
 * /send, /paid), all with the X-Operator-Token header; orders are looked up by number.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { checkoutCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import { ApiError, notFound } from '../../../infra/http/errors.ts';
import { DocumentsService } from '../documents/documents.service.ts';
import { queueConfirmation } from '../order-core/order-jobs.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { ORDER_NOT_FOUND, orderByNumber } from '../order-core/order-access.ts';
import { orderDetail } from '../order-core/order-detail.ts';
import { operatorOnly } from '../../../infra/auth/operator-auth.ts';
import { OrderRepository } from '../order-core/order.repository.ts';

const numberParams = {
  type: 'object',
  required: ['number'],
  properties: { number: { type: 'string', pattern: '^[0-9]{6,16}$' } },
} as const;
type Params = { Params: { number: string } };

export const operatorRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onRequest', operatorOnly(deps.checkout.operatorToken));
  const documents = new DocumentsService(deps.db, deps.checkout);

  const load = async (number: string) => {
    const order = await orderByNumber(deps.db, number);
    if (!order) throw notFound(ORDER_NOT_FOUND);
    return order;
  };

  app.route({
    ...callRoute(checkoutCalls, 'GET /api/operator/orders/:number'),
    handler: async (request) => ({ data: await orderDetail(deps.db, await load(request.params.number), deps.checkout.iban) }),
  });

  // /pdf: render the invoice (a PDF: only its parameters come from the contract)
  plugin.get<Params>('/operator/orders/:number/invoice', { schema: { params: numberParams } }, async (request, reply) => {
    const order = await load(request.params.number);
    const pdf = await documents.invoicePdf(order);
    return reply
      .type('application/pdf')
      .header('cache-control', 'no-store')
      .header('content-disposition', `inline; filename="faktura-${order.order_number}.pdf"`)
      .send(pdf);
  });

  // /generate: store a copy of the invoice PDF in the file store (`invoices/faktura-<number>.pdf`: the
  // data directory's invoices/ folder locally, the bucket with S3). Nothing in the shop reads the copy
  // back (the shopper's and the operator's invoice downloads render the PDF afresh): it is the
  // operator's archive, kept where every server writes alike.
  app.route({
    ...callRoute(checkoutCalls, 'POST /api/operator/orders/:number/invoice'),
    handler: async (request) => {
      const order = await load(request.params.number);
      const pdf = await documents.invoicePdf(order);
      const file = `faktura-${order.order_number}.pdf`;
      await deps.files.put(`invoices/${file}`, pdf, 'application/pdf');
      return { data: { file, bytes: pdf.length } };
    },
  });

  // /email: preview the confirmation
  app.route({
    ...callRoute(checkoutCalls, 'GET /api/operator/orders/:number/email'),
    handler: async (request) => {
      const order = await load(request.params.number);
      const message = await documents.confirmationMessage(order);
      return { data: { to: message.to, subject: message.subject, text: message.text, html: message.html } };
    },
  });

  // /send: send the confirmation again
  app.route({
    ...callRoute(checkoutCalls, 'POST /api/operator/orders/:number/email'),
    handler: async (request) => {
      const order = await load(request.params.number);
      await queueConfirmation(deps.db, order.order_id, true);
      return { data: { to: order.email, outbox: deps.checkout.smtpUrl === null } };
    },
  });

  // /paid: a bank transfer arrived
  app.route({
    ...callRoute(checkoutCalls, 'POST /api/operator/orders/:number/paid'),
    handler: async (request) => {
      const order = await load(request.params.number);
      if (order.payment_code !== 'transfer')
        throw new ApiError(409, 'conflict', 'Ako zaplatenú možno označiť len objednávku platenú bankovým prevodom.');
      if (order.payment_status !== 'paid') {
        await new OrderRepository(deps.db).setPaymentStatus(order.order_id, 'paid', new Date().toISOString());
      }
      const fresh = (await orderByNumber(deps.db, order.order_number))!;
      return { data: await orderDetail(deps.db, fresh, deps.checkout.iban) };
    },
  });
};
