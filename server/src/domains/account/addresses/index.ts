/** The signed-in shopper's billing and delivery addresses and the checkout prefill built from them and the profile. */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { accountCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { requireUser } from '../../../infra/auth/require-user.ts';
import { AddressService } from './address.service.ts';

export const addressRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const addresses = new AddressService(deps.db);

  app.route({
    ...callRoute(accountCalls, 'GET /api/account/addresses'),
    handler: async (request) => {
      const user = await requireUser(request, deps);
      return { data: await addresses.list(user.id) };
    },
  });

  app.route({
    ...callRoute(accountCalls, 'POST /api/account/addresses'),
    handler: async (request, reply) => {
      const user = await requireUser(request, deps);
      return reply.status(201).send({ data: await addresses.create(user.id, request.body) });
    },
  });

  app.route({
    ...callRoute(accountCalls, 'PUT /api/account/addresses/:id'),
    handler: async (request) => {
      const user = await requireUser(request, deps);
      return { data: await addresses.update(user.id, request.params.id, request.body) };
    },
  });

  app.route({
    ...callRoute(accountCalls, 'DELETE /api/account/addresses/:id'),
    handler: async (request) => {
      const user = await requireUser(request, deps);
      await addresses.remove(user.id, request.params.id);
      return { data: { ok: true as const } };
    },
  });

  app.route({
    ...callRoute(accountCalls, 'GET /api/account/checkout-prefill'),
    handler: async (request) => {
      const user = await requireUser(request, deps);
      return { data: { contact: await addresses.checkoutPrefill(user.id) } };
    },
  });
};
