/**
 * Which version of the checkout served the browser that placed an order (table order_versions),
 * what the canary watch's commerce guardrail counts (commerce-judge.ts). The server decides it at
 * placement with the rule the page host renders by (`chooseReleases`: the browser's canary bucket
 * cookie against the registry in force), never from anything in the request's body, and records it
 * in the order's own transaction: an order is counted if and only if it was placed.
 */
import { chooseReleases } from '@shop/shared-kernel/rules';
import type { AreaName } from '@shop/release';
import type { Db, DbOrTrx } from '../../db/database.ts';
import { registryInForce } from './registry.repository.ts';

/** The parts whose version an order records: the checkout, whose canaries are judged on orders. */
export const ORDER_JUDGED_PARTS: readonly AreaName[] = ['checkout'];

/**
 * Records the versions of the judged parts the browser of `bucket` (null: no bucket cookie, the
 * versions in force, as the page host serves it) was served, in the order's transaction `trx`.
 */
export async function recordOrderVersions(
  trx: DbOrTrx,
  order: { orderId: number; placedAt: string; bucket: number | null },
): Promise<void> {
  const registry = await registryInForce(trx);
  if (!registry) return;
  const served = chooseReleases(registry, order.bucket ?? 100);
  const rows = ORDER_JUDGED_PARTS.flatMap((part) => {
    const version = served[part]?.version;
    return version ? [{ order_id: order.orderId, part, version, placed_at: order.placedAt }] : [];
  });
  if (rows.length > 0) await trx.insertInto('order_versions').values(rows).execute();
}

/** Orders placed since `since` by browsers served this version of the part. */
export async function ordersPlacedWith(db: Db, part: string, version: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('order_versions')
    .select((eb) => eb.fn.countAll<number | string>().as('orders'))
    .where('part', '=', part)
    .where('version', '=', version)
    .where('placed_at', '>=', since.toISOString())
    .executeTakeFirst();
  // PostgreSQL's count is a bigint, which the driver hands over as text.
  return Number(row?.orders ?? 0);
}

/** Card payments that ended (paid, failed or cancelled at the gateway) and those of them that did not succeed. */
export type CardPaymentOutcomes = { failed: number; finished: number };

/**
 * The ended card payments of orders placed since `since` by browsers served this version of the
 * part (each attempt once: a payment tried again is a new one). Pending payments are not counted.
 */
export async function cardPaymentsWith(db: Db, part: string, version: string, since: Date): Promise<CardPaymentOutcomes> {
  const row = await db
    .selectFrom('payments as p')
    .innerJoin('order_versions as ov', 'ov.order_id', 'p.order_id')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('finished'),
      eb.fn.sum<number | string | null>(eb.case().when('p.status', 'in', ['failed', 'cancelled']).then(1).else(0).end()).as('failed'),
    ])
    .where('ov.part', '=', part)
    .where('ov.version', '=', version)
    .where('ov.placed_at', '>=', since.toISOString())
    .where('p.status', 'in', ['paid', 'failed', 'cancelled'])
    .executeTakeFirst();
  // PostgreSQL's count and sum are bigint and numeric, which the driver hands over as text.
  return { failed: Number(row?.failed ?? 0), finished: Number(row?.finished ?? 0) };
}
