/**
 * The operator's order tools (behind the utility routes of requirements R2.2: /pdf, /generate, /email,
 * /send, /paid), on the operator origin only, for a signed-in operator who passed the second factor
 * (operatorAuth's `operator` access): an order by number, its invoice (shown, or a copy kept), the
 * confirmation e-mail (previewed, or sent again), a bank transfer marked paid, an order's or a
 * complaint's state, the refunds and a refused refund made by hand. Every call is in the audit log
 * with the operator's name: they read personal data or change what a shopper is told.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountCalls, checkoutCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import { ApiError, notFound } from '../../../infra/http/errors.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { orderDocuments } from '../documents/documents.service.ts';
import { queueConfirmation } from '../order-core/order-jobs.ts';
import { ORDER_NOT_FOUND, orderByNumber } from '../order-core/order-access.ts';
import { orderDetail } from '../order-core/order-detail.ts';
import { OrderRepository } from '../order-core/order.repository.ts';
import { PaymentRepository } from '../order-core/payment.repository.ts';
import { OrderHistoryService } from '../order-history/order-history.service.ts';
import { ComplaintService } from '../complaints/complaint.service.ts';
import { refundsShown } from '../payments/refunds-shown.ts';

const OrderNumberParams = Type.Object({ number: Type.String({ pattern: '^[0-9]{6,16}$' }) });
const OPERATOR = { access: 'operator' } as const;

/** The operator's action in the audit log: what, on which order or record, with a short note. */
const audited = (request: FastifyRequest, action: string, detail: string) => request.audit({ action, detail: detail.slice(0, 500) });

export const operatorRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const documents = orderDocuments(deps);
  const history = new OrderHistoryService(deps.db, deps.iban);
  const complaints = new ComplaintService(deps.db, deps.iban, deps.files);

  const load = async (number: string) => {
    const order = await orderByNumber(deps.db, number);
    if (!order) throw notFound(ORDER_NOT_FOUND);
    return order;
  };

  app.route({
    ...callRoute(checkoutCalls, 'GET /api/operator/orders/:number'),
    config: OPERATOR,
    handler: async (request) => {
      const order = await load(request.params.number);
      await audited(request, 'order-read', `objednávka ${order.order_number}`);
      return { data: await orderDetail(deps.db, order, deps.iban) };
    },
  });

  // The invoice as a PDF (only its parameters come from the contract): the console opens it in a tab.
  app.route({
    method: 'GET',
    url: '/operator/orders/:number/invoice',
    schema: { params: OrderNumberParams },
    config: OPERATOR,
    handler: async (request, reply) => {
      const order = await load(request.params.number);
      const pdf = await documents.invoicePdf(order);
      await audited(request, 'invoice-read', `objednávka ${order.order_number}`);
      return reply
        .type('application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', `inline; filename="faktura-${order.order_number}.pdf"`)
        .send(pdf);
    },
  });

  // A copy of the invoice PDF in the file store (`invoices/faktura-<number>.pdf`: the data directory's
  // invoices/ folder locally, the bucket with S3). Nothing in the shop reads the copy back (the
  // shopper's and the operator's invoice downloads render the PDF afresh): it is the operator's
  // archive, kept where every server writes alike.
  app.route({
    ...callRoute(checkoutCalls, 'POST /api/operator/orders/:number/invoice'),
    config: OPERATOR,
    handler: async (request) => {
      const order = await load(request.params.number);
      const pdf = await documents.invoicePdf(order);
      const file = `faktura-${order.order_number}.pdf`;
      await deps.files.put(`invoices/${file}`, pdf, 'application/pdf');
      await audited(request, 'invoice-generate', `objednávka ${order.order_number}`);
      return { data: { file, bytes: pdf.length } };
    },
  });

  app.route({
    ...callRoute(checkoutCalls, 'GET /api/operator/orders/:number/email'),
    config: OPERATOR,
    handler: async (request) => {
      const order = await load(request.params.number);
      const message = await documents.confirmationMessage(order);
      await audited(request, 'email-preview', `objednávka ${order.order_number}`);
      return { data: { to: message.to, subject: message.subject, text: message.text, html: message.html } };
    },
  });

  app.route({
    ...callRoute(checkoutCalls, 'POST /api/operator/orders/:number/email'),
    config: OPERATOR,
    handler: async (request) => {
      const order = await load(request.params.number);
      await queueConfirmation(deps.db, order.order_id, true);
      await audited(request, 'email-send', `objednávka ${order.order_number}`);
      return { data: { to: order.email, outbox: deps.mail.smtpUrl === null } };
    },
  });

  // A bank transfer arrived.
  app.route({
    ...callRoute(checkoutCalls, 'POST /api/operator/orders/:number/paid'),
    config: OPERATOR,
    handler: async (request) => {
      const order = await load(request.params.number);
      if (order.payment_code !== 'transfer')
        throw new ApiError(409, 'conflict', 'Ako zaplatenú možno označiť len objednávku platenú bankovým prevodom.');
      if (order.payment_status !== 'paid') {
        await new OrderRepository(deps.db).setPaymentStatus(order.order_id, 'paid', new Date().toISOString());
        await audited(request, 'order-paid', `objednávka ${order.order_number}`);
      }
      const fresh = (await orderByNumber(deps.db, order.order_number))!;
      return { data: await orderDetail(deps.db, fresh, deps.iban) };
    },
  });

  app.route({
    ...callRoute(accountCalls, 'POST /api/operator/orders/:number/state'),
    config: OPERATOR,
    handler: async (request) => {
      const { state, note } = request.body;
      const moved = await history.moveState(request.params.number, state, note ?? '');
      await audited(request, 'order-state', `objednávka ${request.params.number} → ${state}${note ? `: ${note}` : ''}`);
      return { data: moved };
    },
  });

  app.route({
    ...callRoute(accountCalls, 'POST /api/operator/complaints/:id/state'),
    config: OPERATOR,
    handler: async (request) => {
      const { state, resolution } = request.body;
      const complaint = await complaints.setState(request.params.id, state, resolution ?? '');
      await audited(request, 'complaint-state', `reklamácia ${request.params.id} → ${state}`);
      return { data: complaint };
    },
  });

  app.route({
    ...callRoute(checkoutCalls, 'GET /api/operator/payments/refunds'),
    config: OPERATOR,
    handler: async () => ({ data: await refundsShown(deps.db) }),
  });

  // A refund the gateway refused, made by hand at the gateway: recorded, with the operator's note.
  app.route({
    ...callRoute(checkoutCalls, 'POST /api/operator/payments/:id/refunded'),
    config: OPERATOR,
    handler: async (request) => {
      const { id } = request.params;
      if (!(await new PaymentRepository(deps.db).markRefundedByHand(id, new Date().toISOString())))
        throw new ApiError(
          409,
          'conflict',
          'Túto platbu nemožno označiť ako vrátenú ručne: brána jej vrátenie neodmietla alebo už je vrátená.',
        );
      const [refund] = await refundsShown(deps.db, id);
      await audited(request, 'refund-by-hand', `platba ${id}, objednávka ${refund!.orderNumber}: ${request.body.note}`);
      return { data: refund! };
    },
  });
};
