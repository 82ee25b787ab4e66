/**
 * Placing an order reads back nothing it already holds: the answer is built from the row and lines
 * the order's transaction stored, and the confirmation e-mail reads the order, its lines and the
 * site's settings once each and draws its PAY by square code once, as the PNG it carries. Real
 * HTTP against the real database (SQLite, or PostgreSQL with DATABASE_URL), its queries watched.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AliasNode, TableNode, type KyselyPlugin, type OperationNode, type RootOperationNode } from 'kysely';
import QRCode from 'qrcode';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OrderDetail, PlacedOrder } from '@shop/shared-kernel/contract';
import { OrderService } from '../../src/domains/ordering/orders/order.service.ts';
import { courierOrder } from '../helpers/checkout-contact.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';

/** The tables a query reads from (its FROM and its joins); none for a write. */
function tablesRead(node: RootOperationNode): string[] {
  if (node.kind !== 'SelectQueryNode') return [];
  const name = (n: OperationNode): string[] => {
    if (TableNode.is(n)) return [n.table.identifier.name];
    if (AliasNode.is(n)) return name(n.node);
    return [];
  };
  return [...(node.from?.froms ?? []), ...(node.joins ?? []).map((join) => join.table)].flatMap(name);
}

let watching = false;
const reads: string[] = [];
const watch: KyselyPlugin = {
  transformQuery: ({ node }) => {
    if (watching) reads.push(...tablesRead(node));
    return node;
  },
  transformResult: async ({ result }) => result,
};

/** Runs `work`, recording the tables the API's queries read meanwhile. */
async function watched<T>(work: () => Promise<T>): Promise<T> {
  reads.length = 0;
  watching = true;
  try {
    return await work();
  } finally {
    watching = false;
  }
}
const readsOf = (table: string) => reads.filter((t) => t === table).length;

let api: TestApi;
let vId: number;

beforeAll(async () => {
  // The outbox waits for sideWorkDone(), so placing and confirming are watched apart.
  api = await startTestApi({ database: (db) => db.withPlugin(watch), backgroundJobs: false });
  const variant = await api.db
    .selectFrom('variants')
    .select('v_id')
    .where('v_availability', '=', 'in_stock')
    .where('v_stock', '>=', 20)
    .orderBy('v_id')
    .executeTakeFirstOrThrow();
  vId = variant.v_id;
});
afterAll(async () => {
  await api?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const transferOrder = () => ({ ...courierOrder(vId, 2), paymentCode: 'transfer' });

describe('placing an order (POST /api/orders)', () => {
  it('reads the orders once (the idempotency check) and answers the order as stored, its lines not read back', async () => {
    const res = await watched(() => api.post<{ data: PlacedOrder }>('/api/orders', transferOrder()));
    expect(res.status, res.text).toBe(201);
    const { order } = res.body.data;
    expect(readsOf('orders')).toBe(1);
    expect(readsOf('order_items')).toBe(0);
    // The transfer's beneficiary is the site's company.
    expect(readsOf('settings')).toBe(1);
    expect(order.lines).toHaveLength(1);
    expect(order.transfer?.qrSvg).toContain('<svg');

    // What the thank-you page is handed is what asking for the order answers.
    const asked = await api.get<{ data: OrderDetail }>(`/api/orders/${order.token}`);
    expect(asked.body.data).toEqual(order);
    await api.sideWorkDone();
  });

  it('a replay of the same request answers the same order', async () => {
    const body = transferOrder();
    const first = await api.post<{ data: PlacedOrder }>('/api/orders', body);
    const again = await api.post<{ data: PlacedOrder }>('/api/orders', body);
    expect(again.status).toBe(200);
    expect(again.body.data.order).toEqual(first.body.data.order);
    await api.sideWorkDone();
  });
});

describe('the confirmation e-mail (the outbox job)', () => {
  it('reads the order, its lines and the site once each and draws one PAY by square code, the PNG it carries', async () => {
    // Placed without the API's answer, as on a worker process of its own: nothing drawn for it yet.
    const { order } = await new OrderService(api.db).place(transferOrder(), null, () => 'pending');
    const svg = vi.spyOn(QRCode, 'toString');
    const png = vi.spyOn(QRCode, 'toBuffer');
    await watched(() => api.sideWorkDone());
    expect(readsOf('orders')).toBe(1);
    expect(readsOf('order_items')).toBe(1);
    expect(readsOf('settings')).toBe(1);
    expect(svg).not.toHaveBeenCalled();
    expect(png).toHaveBeenCalledTimes(1);

    const outbox = join(api.dataDir, 'outbox');
    const mail = readdirSync(outbox)
      .map((file) => readFileSync(join(outbox, file), 'utf8'))
      .find((text) => text.includes(order.order_number));
    expect(mail).toContain('filename=pay-by-square.png');
    expect(mail).toContain('cid:paybysquare');
  });
});
