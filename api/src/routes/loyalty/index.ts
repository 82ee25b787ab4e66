/**
 * GET /api/loyalty: a signed-in customer's loyalty points. The rule: one
 * point for every whole euro of paid orders (the total with VAT).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ApiCalls } from '@shop/shared-kernel/contract';
import type { ApiDeps } from '../deps.ts';
import { requireUser } from '../account/require-user.ts';

export const POINTS_PER_EURO = 1;

export const loyaltyRoutes: FastifyPluginAsync<ApiDeps> = async (app, deps) => {
  app.get<{ Reply: ApiCalls['GET /api/loyalty']['answer'] }>('/loyalty', async (request) => {
    const user = await requireUser(request, deps);
    const row = await deps.db
      .selectFrom('orders')
      .select([(eb) => eb.fn.coalesce(eb.fn.sum<number>('total'), eb.lit(0)).as('paid'), (eb) => eb.fn.countAll<number>().as('orders')])
      .where('user_id', '=', user.id)
      .where('payment_status', '=', 'paid')
      .executeTakeFirstOrThrow();
    const paid = Number(row.paid);
    return { data: { points: Math.floor(paid / 1000) * POINTS_PER_EURO, paidOrders: Number(row.orders), paidTotal: paid, pointsPerEuro: POINTS_PER_EURO } };
  });
};
