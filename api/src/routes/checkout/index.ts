import { priceList } from './price-list.ts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { CheckoutCalls } from '@shop/shared-kernel/contract';
import { requireUser } from '../account/require-user.ts';
import type { ApiDeps } from '../deps.ts';
import { bearerToken } from '../../lib/auth.ts';
import { BASKET_LIMITS, priceBasket } from './pricing.ts';
import { DEFAULT_CHECKOUT_RATE_LIMIT, limitPerAddress, RATE_LIMIT_MESSAGES, registerCheckoutRateLimit, type CheckoutRateLimit } from './rate-limit.ts';

type Call<K extends keyof CheckoutCalls> = CheckoutCalls[K];

export const lineSchema = {
  type: 'object',
  required: ['v_id', 'amount'],
  properties: {
    v_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    amount: { type: 'integer', minimum: 1, maximum: BASKET_LIMITS.lineAmount },
  },
} as const;

/** Repeated lines are allowed (they are merged before the limits apply), up to twice the distinct-line limit. */
export const linesSchema = { type: 'array', minItems: 1, maxItems: BASKET_LIMITS.lines * 2, items: lineSchema } as const;

/** The user of a Bearer token when one is sent (401 when it is bad), null for a guest. */
export async function optionalUser(request: FastifyRequest, deps: ApiDeps): Promise<number | null> {
  if (!bearerToken(request)) return null;
  return (await requireUser(request, deps)).id;
}

/** POST /api/checkout/quote: the server's price of a basket with a shipping and payment choice (rate limited per address). */
export const checkoutRoutes: FastifyPluginAsync<ApiDeps & { rateLimit?: CheckoutRateLimit }> = async (app, deps) => {
  const limits = deps.rateLimit ?? DEFAULT_CHECKOUT_RATE_LIMIT;
  await registerCheckoutRateLimit(app, limits.allowList);

  /** GET /api/checkout/methods: the price list of shipping and payment (the /doprava-a-platba page). */
  app.get<{ Reply: Call<'GET /api/checkout/methods'>['answer'] }>('/checkout/methods', async () => ({ data: await priceList(deps.db) }));

  app.post<{ Body: Call<'POST /api/checkout/quote'>['body']; Reply: Call<'POST /api/checkout/quote'>['answer'] }>(
    '/checkout/quote',
    {
      config: { rateLimit: limitPerAddress(limits.quotes, RATE_LIMIT_MESSAGES.quotes) },
      schema: {
        body: {
          type: 'object',
          required: ['lines'],
          properties: {
            lines: linesSchema,
            shippingCode: { type: ['string', 'null'], maxLength: 32 },
            paymentCode: { type: ['string', 'null'], maxLength: 32 },
            couponCode: { type: ['string', 'null'], maxLength: 64 },
          },
        },
      },
    },
    async (request) => {
      const userId = await optionalUser(request, deps);
      const { quote } = await priceBasket(deps.db, { ...request.body, userId });
      return { data: quote };
    },
  );
};
