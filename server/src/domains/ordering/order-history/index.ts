/**
 * The signed-in shopper's orders: the paged list, the detail, withdrawal from the contract; and the
 * operator's move of an order between states (X-Operator-Token).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { accountCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { requireOperator } from '../../../infra/auth/operator-auth.ts';
import { requireUser } from '../../../infra/auth/require-user.ts';
import { OrderHistoryService } from './order-history.service.ts';

/** The routes; `deps.checkout` gives the shop's IBAN (an order's transfer instructions) and the operator's token. */
export const orderHistoryRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const orders = new OrderHistoryService(deps.db, deps.checkout.iban);

  app.route({
    ...callRoute(accountCalls, 'GET /api/account/orders'),
    handler: async (request) => {
      const user = await requireUser(request, deps);
      return orders.list(user.id, request.query.page ?? 1);
    },
  });

  app.route({
    ...callRoute(accountCalls, 'GET /api/account/orders/:token'),
    handler: async (request) => {
      const user = await requireUser(request, deps);
      return { data: await orders.detail(user.id, request.params.token) };
    },
  });

  app.route({
    ...callRoute(accountCalls, 'POST /api/account/orders/:token/withdraw'),
    handler: async (request) => {
      const user = await requireUser(request, deps);
      return { data: await orders.withdraw(user.id, request.params.token, request.body.itemIds, request.body.confirm) };
    },
  });

  /** The operator moves an order to another state; tests use it too. */
  app.route({
    ...callRoute(accountCalls, 'POST /api/operator/orders/:number/state'),
    handler: async (request) => {
      requireOperator(request, deps.checkout.operatorToken);
      return { data: await orders.moveState(request.params.number, request.body.state, request.body.note ?? '') };
    },
  });
};
