import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { checkoutCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { optionalUser } from '../../../infra/auth/optional-user.ts';
import { canaryBucketOf } from '../../../infra/http/cookies.ts';
import { priceList } from './price-list.ts';
import { priceBasket } from './pricing.ts';
import { limitPerAddress, RATE_LIMIT_MESSAGES, registerCheckoutRateLimit } from './rate-limit.ts';

/** The price list of shipping and payment, and the server's price of a basket (rate limited per address). */
export const checkoutRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const limits = deps.limits.checkout;
  await registerCheckoutRateLimit(plugin, limits.allowList, deps.shared, 'checkout');

  /** The /doprava-a-platba page. */
  app.route({ ...callRoute(checkoutCalls, 'GET /api/checkout/methods'), handler: async () => ({ data: await priceList(deps.db) }) });

  app.route({
    ...callRoute(checkoutCalls, 'POST /api/checkout/quote'),
    config: { rateLimit: limitPerAddress(limits.quotes, RATE_LIMIT_MESSAGES.quotes) },
    handler: async (request) => {
      const userId = await optionalUser(request, deps);
      // The switches are decided for this browser, as its pages decide them.
      const bucket = canaryBucketOf(request.headers.cookie, deps.publicUrl.startsWith('https:'));
      const { quote } = await priceBasket(deps.db, { ...request.body, userId, bucket });
      return { data: quote };
    },
  });
};
