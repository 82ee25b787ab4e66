/**
 * POST /api/contact: the contact form. Validated by the kernel's rules, stored, and sent to the
 * shop's address (the outbox in development). A filled spam trap is accepted and dropped; a rate
 * limit per address stops floods.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import rateLimit from '@fastify/rate-limit';
import { CONTACT_FORM_MESSAGES } from '@shop/shared-kernel/rules';
import { contentCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import { ApiError } from '../../../infra/http/errors.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { rateLimitStore } from '../../../infra/cache/shared-state.ts';
import { optionalUser } from '../../../infra/auth/optional-user.ts';
import { ContactService, readContactMessage } from './contact.service.ts';

export const contactRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const contact = new ContactService(deps.db);
  const limit = deps.limits.contact;
  await app.register(rateLimit, {
    global: false,
    ...rateLimitStore(deps.shared, 'contact'),
    // An ApiError, so the error handler keeps the Slovak message (a plain object became a generic 400 text).
    errorResponseBuilder: () => new ApiError(429, 'rate_limited', CONTACT_FORM_MESSAGES.tooMany),
  });

  app.route({
    ...callRoute(contentCalls, 'POST /api/contact'),
    config: { rateLimit: { max: limit.max, timeWindow: limit.timeWindowMs } },
    handler: async (request, reply) => {
      const message = readContactMessage(request.body);
      if (message) await contact.receive(message, await optionalUser(request, deps));
      return reply.code(201).send({ data: { ok: true } });
    },
  });
};
