/**
 * Every check-then-write rule (test/helpers/race-rules.ts) fired through nginx at two web servers
 * on PostgreSQL under read committed: the same rules the API tests run against one server on each engine.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { RACE_RULES, type RaceTarget } from '../test/helpers/race-rules.ts';

const cluster = inject('cluster');
let db: pg.Pool;
let target: RaceTarget;

beforeAll(() => {
  db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 });
  const rows = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await db.query<T>(text, values)).rows;
  target = {
    url: cluster.url,
    operator: { url: cluster.opsUrl, cookie: cluster.operator.cookie },
    variants: async () =>
      (
        await rows<{ v_id: number }>(
          `select v_id from variants where v_availability = 'to_order' and v_weight <= 2000 order by v_id limit 3`,
        )
      ).map((r) => r.v_id),
    // From the end of the list: the other multi-server tests take theirs from its start.
    inStockVariant: async () =>
      (
        await rows<{ v_id: number }>(
          `select v_id from variants where v_availability = 'in_stock' and v_stock >= 10 and v_weight between 1 and 2000 order by v_id desc limit 1`,
        )
      )[0]!.v_id,
    setStock: async (vId, stock) => {
      await db.query('update variants set v_stock = $2 where v_id = $1', [vId, stock]);
    },
    accounts: async (email) =>
      (await rows<{ n: string }>('select count(*) as n from users where email = $1', [email])).map((r) => Number(r.n))[0]!,
    addCoupon: async ({ code, percent, maxUses, oncePerCustomer }) => {
      await db.query(
        `insert into coupons (code, kind, value, min_total, valid_from, valid_to, max_uses, once_per_customer)
         values ($1, 'percent', $2, 0, '2025-01-01T00:00:00.000Z', '2099-12-31T23:59:59.999Z', $3, $4)`,
        [code, percent * 1000, maxUses, oncePerCustomer ? 1 : 0],
      );
    },
  };
});
afterAll(async () => {
  await db?.end();
});

describe('check-then-write rules through nginx, two web servers on PostgreSQL', () => {
  for (const rule of RACE_RULES) it(rule.name, () => rule.run(target));
});
