/**
 * Every check-then-write rule under concurrent requests (helpers/race-rules.ts), against one API on
 * this run's engine: SQLite, or PostgreSQL under read committed when DATABASE_URL is set. The
 * multi-server tests run the same rules through nginx.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { RACE_RULES, type RaceTarget } from '../helpers/race-rules.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';

let api: TestApi;
let target: RaceTarget;

beforeAll(async () => {
  api = await startTestApi();
  let taken = 0;
  target = {
    url: api.baseUrl,
    operator: { url: api.opsUrl, cookie: (await api.operator()).cookie },
    variants: async () =>
      (
        await api.db
          .selectFrom('variants')
          .select('v_id')
          .where('v_availability', '=', 'to_order')
          .where('v_weight', '<=', 2_000)
          .orderBy('v_id')
          .limit(3)
          .execute()
      ).map((v) => v.v_id),
    inStockVariant: async () =>
      (
        await api.db
          .selectFrom('variants')
          .select('v_id')
          .where('v_availability', '=', 'in_stock')
          .where('v_stock', '>=', 10)
          .where('v_weight', '>=', 1)
          .where('v_weight', '<=', 2_000)
          .orderBy('v_id')
          .offset(taken++)
          .limit(1)
          .executeTakeFirstOrThrow()
      ).v_id,
    setStock: async (vId, stock) => {
      await api.db.updateTable('variants').set({ v_stock: stock }).where('v_id', '=', vId).execute();
    },
    accounts: async (email) => (await api.db.selectFrom('users').select('user_id').where('email', '=', email).execute()).length,
    addCoupon: async ({ code, percent, maxUses, oncePerCustomer }) => {
      await api.db
        .insertInto('coupons')
        .values({
          code,
          kind: 'percent',
          value: percent * 1000,
          min_total: 0,
          valid_from: '2025-01-01T00:00:00.000Z',
          valid_to: '2099-12-31T23:59:59.999Z',
          max_uses: maxUses,
          once_per_customer: oncePerCustomer ? 1 : 0,
        })
        .execute();
    },
  };
});
afterAll(async () => {
  await api?.close();
});

describe(`check-then-write rules under concurrency (${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  for (const rule of RACE_RULES) it(rule.name, () => rule.run(target));
});
