/** GET /api/loyalty: a signed-in customer's loyalty points. */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { accountCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { requireUser } from '../../../infra/auth/require-user.ts';
import { LoyaltyRepository } from './loyalty.repository.ts';
import { LoyaltyService } from './loyalty.service.ts';

export const loyaltyRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const loyalty = new LoyaltyService(new LoyaltyRepository(deps.db));

  app.route({
    ...callRoute(accountCalls, 'GET /api/loyalty'),
    handler: async (request) => {
      const user = await requireUser(request, deps);
      return { data: await loyalty.points(user.id) };
    },
  });
};
