/** Pickup points for shipping "Výdajné miesto": GET /api/pickup-points?q=&lat=&lon= (public, bounded). */
import type { FastifyPluginAsync } from 'fastify';
import type { CheckoutCalls } from '@shop/shared-kernel/contract';
import type { ApiDeps } from '../deps.ts';
import { findPickupPoints, PICKUP_POINT_LIMITS } from './pickup-points.repository.ts';

type Call = CheckoutCalls['GET /api/pickup-points'];

const query = {
  type: 'object',
  additionalProperties: false,
  maxProperties: 3,
  // A position is both coordinates or neither; Slovakia and around it only.
  dependencies: { lat: ['lon'], lon: ['lat'] },
  properties: {
    q: { type: 'string', maxLength: PICKUP_POINT_LIMITS.queryLength },
    lat: { type: 'number', minimum: 45, maximum: 52 },
    lon: { type: 'number', minimum: 14, maximum: 25 },
  },
} as const;

export const pickupPointRoutes: FastifyPluginAsync<ApiDeps> = async (app, { db }) => {
  app.get<{ Querystring: Call['query']; Reply: Call['answer'] }>('/pickup-points', { schema: { querystring: query } }, async (request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return { data: await findPickupPoints(db, request.query) };
  });
};
