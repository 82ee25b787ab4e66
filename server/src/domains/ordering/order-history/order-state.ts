/**
 * Order states and their history. The history is the order's creation ("received"), its
 * payment (orders.paid_at, set by the gateway or the operator's /paid tool) and every move
 * recorded in order_status_history (shipped, delivered, cancelled, withdrawn, by the operator or
 * the customer's withdrawal). The state is the furthest step reached; cancelled and withdrawn end
 * the order.
 */
import type { AccountOrderDetail, AccountOrderLine, OrderState, OrderStateEntry, Withdrawal } from '@shop/shared-kernel/contract';
import { withdrawalDeadline, WITHDRAWAL_DAYS } from '@shop/shared-kernel/rules';
import type { DbOrTrx } from '../../../db/database.ts';
import type { OrderRow } from '../../../db/orders.table.ts';
import { orderDetail } from '../order-core/order-detail.ts';
import { OrderHistoryRepository } from './order-history.repository.ts';

const RANK: Record<OrderState, number> = { received: 0, paid: 1, shipped: 2, delivered: 3, cancelled: 9, withdrawn: 9 };

/** Where the operator may move an order from each state. */
export const OPERATOR_MOVES: Record<OrderState, OrderState[]> = {
  received: ['paid', 'shipped', 'cancelled'],
  paid: ['shipped', 'cancelled'],
  shipped: ['delivered', 'paid'],
  delivered: ['paid', 'withdrawn'],
  cancelled: [],
  withdrawn: [],
};

export const STATE_MESSAGES = {
  notConsumer: 'Od zmluvy môže odstúpiť spotrebiteľ; objednávka na firmu (s IČO) túto možnosť nemá.',
  notDelivered: 'Od zmluvy môžete odstúpiť po doručení objednávky.',
  expired: `Lehota ${WITHDRAWAL_DAYS} dní od doručenia na odstúpenie od zmluvy uplynula.`,
  ended: 'Objednávka je zrušená alebo ste od nej už odstúpili.',
  nothingLeft: 'Všetky položky objednávky sú už vrátené.',
} as const;

export async function orderHistory(db: DbOrTrx, order: OrderRow): Promise<OrderStateEntry[]> {
  const moves = await new OrderHistoryRepository(db).stateMoves(order.order_id);
  const entries: OrderStateEntry[] = [{ state: 'received', at: order.created_at, note: '' }];
  if (order.paid_at) entries.push({ state: 'paid', at: order.paid_at, note: '' });
  for (const m of moves) entries.push({ state: m.status as OrderState, at: m.created_at, note: m.note });
  return entries.sort((a, b) => a.at.localeCompare(b.at) || RANK[a.state] - RANK[b.state]);
}

export function currentState(history: OrderStateEntry[]): OrderState {
  let state: OrderState = 'received';
  for (const entry of history) {
    if (RANK[state] === 9) break;
    if (RANK[entry.state] === 9 || RANK[entry.state] > RANK[state]) state = entry.state;
  }
  return state;
}

export async function orderWithdrawals(db: DbOrTrx, orderId: number): Promise<Withdrawal[]> {
  const rows = await new OrderHistoryRepository(db).withdrawals(orderId);
  return rows.map((r) => ({
    id: r.withdrawal_id,
    createdAt: r.created_at,
    itemIds: r.itemIds,
    refund: r.refund,
    wholeOrder: r.whole_order === 1,
  }));
}

/** The order as the account shows it: the checkout's detail plus state, history, withdrawal and complaint options. */
export async function accountOrderDetail(db: DbOrTrx, order: OrderRow, iban: string, now = new Date()): Promise<AccountOrderDetail> {
  const [detail, history, withdrawals, items] = await Promise.all([
    orderDetail(db, order, iban),
    orderHistory(db, order),
    orderWithdrawals(db, order.order_id),
    new OrderHistoryRepository(db).itemIds(order.order_id),
  ]);
  const state = currentState(history);
  const withdrawnIds = new Set(withdrawals.flatMap((w) => w.itemIds));
  const lines: AccountOrderLine[] = detail.lines.map((line, i) => ({ ...line, itemId: items[i]!, withdrawn: withdrawnIds.has(items[i]!) }));
  const deliveredAt = [...history].reverse().find((h) => h.state === 'delivered')?.at ?? null;
  const consumer = detail.contact.company === null;
  const withdrawalUntil = consumer && deliveredAt ? withdrawalDeadline(deliveredAt) : null;
  let blocked: string | null = null;
  if (!consumer) blocked = STATE_MESSAGES.notConsumer;
  else if (state === 'cancelled' || state === 'withdrawn') blocked = STATE_MESSAGES.ended;
  else if (!deliveredAt || state !== 'delivered') blocked = STATE_MESSAGES.notDelivered;
  else if (withdrawalUntil && now.toISOString() > withdrawalUntil) blocked = STATE_MESSAGES.expired;
  else if (lines.every((l) => l.withdrawn)) blocked = STATE_MESSAGES.nothingLeft;
  return {
    ...detail,
    lines,
    // An order that has ended is not paid for again.
    canRetryPayment: detail.canRetryPayment && state !== 'cancelled' && state !== 'withdrawn',
    state,
    history,
    deliveredAt,
    withdrawalUntil,
    canWithdraw: blocked === null,
    withdrawalBlockedReason: blocked,
    canComplain: state === 'delivered' && deliveredAt !== null,
    withdrawals,
  };
}

/** Records a move; keeps orders.status in step (the checkout's detail shows 'cancelled' from it). */
export async function recordState(db: DbOrTrx, order: OrderRow, state: OrderState, note: string, actor: 'operator' | 'customer') {
  const repo = new OrderHistoryRepository(db);
  const now = new Date().toISOString();
  // Payment is recorded on the order itself (as the gateway and /paid do); the history derives from paid_at.
  if (state === 'paid') return repo.markPaid(order.order_id, order.paid_at ?? now);
  await repo.addStateMove(order.order_id, state, note, actor, now);
  await repo.setStatus(order.order_id, state);
}
