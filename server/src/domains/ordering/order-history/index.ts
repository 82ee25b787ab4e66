/**
 * The signed-in shopper's orders: the paged list, the detail, withdrawal from the contract. The
 * operator's move of an order between states is an operator route (ordering/operator).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { accountCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { requireUser } from '../../../infra/auth/require-user.ts';
import { OrderHistoryService } from './order-history.service.ts';

export const orderHistoryRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const orders = new OrderHistoryService(deps.db, deps.iban);

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
};
