/**
 * The operator's document tools behind the spec's utility routes (/pdf, /generate, /email,
 * /send, /paid), all with the X-Operator-Token header; orders are looked up by number.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { checkoutCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../lib/contract-route.ts';
import { ApiError, notFound } from '../../lib/errors.ts';
import { confirmationMessage, invoicePdf } from '../documents/documents.service.ts';
import { queueConfirmation } from '../orders/order-jobs.ts';
import type { ApiDeps } from '../../lib/deps.ts';
import { ORDER_MESSAGES, orderByNumber, orderDetail } from '../orders/order.service.ts';
import { requireOperator } from '../../lib/operator-auth.ts';
import { OrderRepository } from '../orders/order.repository.ts';

const numberParams = { type: 'object', required: ['number'], properties: { number: { type: 'string', pattern: '^[0-9]{6,16}$' } } } as const;
type Params = { Params: { number: string } };

export const operatorRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onRequest', async (request) => requireOperator(request, deps.checkout));

  const load = async (number: string) => {
    const order = await orderByNumber(deps.db, number);
    if (!order) throw notFound(ORDER_MESSAGES.notFound);
    return order;
  };

  app.route({
    ...callRoute(checkoutCalls, 'GET /api/operator/orders/:number'),
    handler: async (request) => ({ data: await orderDetail(deps.db, await load(request.params.number), deps.checkout.iban) }),
  });

  // /pdf: render the invoice (a PDF: only its parameters come from the contract)
  plugin.get<Params>('/operator/orders/:number/invoice', { schema: { params: numberParams } }, async (request, reply) => {
    const order = await load(request.params.number);
    const pdf = await invoicePdf(deps.db, order, deps.checkout);
    return reply.type('application/pdf').header('cache-control', 'no-store')
      .header('content-disposition', `inline; filename="faktura-${order.order_number}.pdf"`).send(pdf);
  });

  // /generate: store the invoice PDF in the data directory
  app.route({ ...callRoute(checkoutCalls, 'POST /api/operator/orders/:number/invoice'), handler: async (request) => {
    const order = await load(request.params.number);
    const pdf = await invoicePdf(deps.db, order, deps.checkout);
    await mkdir(deps.checkout.invoiceDir, { recursive: true });
    const file = join(deps.checkout.invoiceDir, `faktura-${order.order_number}.pdf`);
    await writeFile(file, pdf);
    return { data: { file: `faktura-${order.order_number}.pdf`, bytes: pdf.length } };
  } });

  // /email: preview the confirmation
  app.route({ ...callRoute(checkoutCalls, 'GET /api/operator/orders/:number/email'), handler: async (request) => {
    const order = await load(request.params.number);
    const message = await confirmationMessage(deps.db, order, deps.checkout);
    return { data: { to: message.to, subject: message.subject, text: message.text, html: message.html } };
  } });

  // /send: send the confirmation again
  app.route({ ...callRoute(checkoutCalls, 'POST /api/operator/orders/:number/email'), handler: async (request) => {
    const order = await load(request.params.number);
    await queueConfirmation(deps.db, order.order_id, true);
    return { data: { to: order.email, outbox: deps.checkout.smtpUrl === null } };
  } });

  // /paid: a bank transfer arrived
  app.route({ ...callRoute(checkoutCalls, 'POST /api/operator/orders/:number/paid'), handler: async (request) => {
    const order = await load(request.params.number);
    if (order.payment_code !== 'transfer') throw new ApiError(409, 'conflict', 'Ako zaplatenú možno označiť len objednávku platenú bankovým prevodom.');
    if (order.payment_status !== 'paid') {
      await new OrderRepository(deps.db).setPaymentStatus(order.order_id, 'paid', new Date().toISOString());
    }
    const fresh = (await orderByNumber(deps.db, order.order_number))!;
    return { data: await orderDetail(deps.db, fresh, deps.checkout.iban) };
  } });
};
