import type { FastifyPluginAsync } from 'fastify';
import type { ApiCalls } from '@shop/shared-kernel/contract';
import { forbidden } from '../../lib/errors.ts';
import { requireUser } from '../account/require-user.ts';
import type { ApiDeps } from '../deps.ts';
import { CouponRepository } from './coupon.repository.ts';
import { isCouponCurrent, validateCoupon } from './coupon.service.ts';

type Call<K extends keyof ApiCalls> = ApiCalls[K];

const NOT_YOURS = 'Kupóny môžete spravovať len vo svojom účte.';
const userIdSchema = { type: 'integer', minimum: 1, maximum: 2_147_483_647 } as const;

const validateBody = {
  type: 'object',
  required: ['code', 'cart', 'userId'],
  properties: {
    code: { type: 'string', maxLength: 64 },
    cart: {
      type: 'array',
      maxItems: 500,
      items: {
        type: 'object',
        required: ['v_id', 'amount'],
        // Any variantData the client sends is ignored: prices come from the database.
        properties: {
          v_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
          amount: { type: 'number', exclusiveMinimum: 0, maximum: 100_000 },
        },
      },
    },
    total: { type: 'number' },
    userId: userIdSchema,
  },
} as const;

const userQuery = (name: 'userId' | 'user_id') =>
  ({ type: 'object', properties: { [name]: userIdSchema } }) as const;

/** Coupons of spec section 7; always for the user of the Bearer token. */
export const couponRoutes: FastifyPluginAsync<ApiDeps> = async (app, deps) => {
  const coupons = new CouponRepository(deps.db);

  app.post<{ Body: Call<'POST /api/coupon/validate'>['body']; Reply: Call<'POST /api/coupon/validate'>['answer'] }>(
    '/coupon/validate',
    { schema: { body: validateBody } },
    async (request) => {
      const user = await requireUser(request, deps);
      if (request.body.userId !== user.id) throw forbidden(NOT_YOURS);
      return validateCoupon(coupons, { userId: user.id, code: request.body.code, cart: request.body.cart });
    },
  );

  app.get<{ Querystring: { userId?: number }; Reply: Call<'GET /api/coupon/deactive'>['answer'] }>(
    '/coupon/deactive',
    { schema: { querystring: userQuery('userId') } },
    async (request) => {
      const user = await requireUser(request, deps);
      if (request.query.userId !== undefined && request.query.userId !== user.id) throw forbidden(NOT_YOURS);
      await coupons.clearActive(user.id);
      return { data: { ok: true } };
    },
  );

  app.get<{ Querystring: { user_id?: number }; Reply: Call<'GET /api/coupon/active'>['answer'] }>(
    '/coupon/active',
    { schema: { querystring: userQuery('user_id') } },
    async (request) => {
      const user = await requireUser(request, deps);
      if (request.query.user_id !== undefined && request.query.user_id !== user.id) throw forbidden(NOT_YOURS);
      const active = await coupons.activeCoupon(user.id);
      return { coupon: active && isCouponCurrent(active, new Date()) ? { code: active.code } : null };
    },
  );
};
