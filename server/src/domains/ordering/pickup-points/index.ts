/** Pickup points for shipping "Výdajné miesto": GET /api/pickup-points?q=&lat=&lon= (public, bounded). */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { checkoutCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { findPickupPoints } from './pickup-points.repository.ts';

export const pickupPointRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, { db }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.route({
    ...callRoute(checkoutCalls, 'GET /api/pickup-points'),
    handler: async (request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return { data: await findPickupPoints(db, request.query) };
    },
  });
};
