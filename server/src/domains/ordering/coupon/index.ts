import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { accountCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { ApiError, forbidden } from '../../../infra/http/errors.ts';
import { requireUser } from '../../../infra/auth/require-user.ts';
import { CouponRepository } from './coupon.repository.ts';
import { activeCoupon, validateCoupon } from './coupon.service.ts';

const NOT_YOURS = 'Kupóny môžete spravovať len vo svojom účte.';
const DEACTIVATE_BY_POST = 'Kupón sa ruší len požiadavkou POST; táto požiadavka nič nezmenila.';

/** Coupons of requirements R7.2, R7.3; always for the user of the Bearer token (another userId answers 403). */
export const couponRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const coupons = new CouponRepository(deps.db);

  app.route({
    ...callRoute(accountCalls, 'POST /api/coupon/validate'),
    handler: async (request) => {
      const user = await requireUser(request, deps);
      if (request.body.userId !== user.id) throw forbidden(NOT_YOURS);
      return validateCoupon(coupons, { userId: user.id, code: request.body.code, cart: request.body.cart });
    },
  });

  app.route({
    ...callRoute(accountCalls, 'POST /api/coupon/deactive'),
    handler: async (request) => {
      const user = await requireUser(request, deps);
      if (request.query.userId !== undefined && request.query.userId !== user.id) throw forbidden(NOT_YOURS);
      await coupons.clearActive(user.id);
      return { data: { ok: true as const } };
    },
  });
  // requirements R7.3's GET would let a link or an image on another site clear a shopper's coupon: it changes nothing.
  app.get('/coupon/deactive', async (_request, reply) => {
    reply.header('allow', 'POST');
    throw new ApiError(405, 'method_not_allowed', DEACTIVATE_BY_POST);
  });

  app.route({
    ...callRoute(accountCalls, 'GET /api/coupon/active'),
    handler: async (request) => {
      const user = await requireUser(request, deps);
      if (request.query.user_id !== undefined && request.query.user_id !== user.id) throw forbidden(NOT_YOURS);
      return { coupon: await activeCoupon(coupons, user.id) };
    },
  });
};
