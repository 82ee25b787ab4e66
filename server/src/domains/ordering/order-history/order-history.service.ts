/**
 * The signed-in shopper's orders: a paged list, the detail with state history, withdrawal from the
 * contract (odstúpenie od zmluvy) with an acknowledgement e-mail, and the operator's move of an
 * order between states. The shopper finds orders only among their own: another customer's order
 * token answers 404, as an unknown one does.
 */
import type { AccountOrderDetail, AccountOrderSummary, OrderState, Paged } from '@shop/shared-kernel/contract';
import { formatDate, formatPrice, ORDER_STATE_LABELS, PAGE_SIZE, pageCount } from '@shop/shared-kernel/rules';
import type { Db } from '../../../db/database.ts';
import type { OrderRow } from '../../../db/orders.table.ts';
import { ApiError, notFound } from '../../../infra/http/errors.ts';
import { escapeHtml } from '../../../infra/pure/html.ts';
import { queueMail } from '../../../infra/outbox/mail-outbox.ts';
import { lockOrder, ORDER_NOT_FOUND, orderByNumber, orderByToken } from '../order-core/order-access.ts';
import { cancelOpenPayments } from '../order-core/open-payments.ts';
import { OrderHistoryRepository } from './order-history.repository.ts';
import { accountOrderDetail, currentState, OPERATOR_MOVES, orderHistory, recordState } from './order-state.ts';

const STATE_CONFLICT = 'Od tejto objednávky nemožno odstúpiť.';
const ALREADY_WITHDRAWN = 'Od niektorej z vybraných položiek ste už odstúpili.';

export class OrderHistoryService {
  /** `iban`: the shop's account, for the transfer instructions of an order's detail. */
  constructor(
    private readonly db: Db,
    private readonly iban: string,
  ) {}

  /** The user's own order by token, else 404 (the same answer for someone else's and for none). */
  async ownOrder(userId: number, token: string): Promise<OrderRow> {
    const order = await orderByToken(this.db, token);
    if (!order || order.user_id !== userId) throw notFound(ORDER_NOT_FOUND);
    return order;
  }

  async list(userId: number, page: number): Promise<Paged<AccountOrderSummary>> {
    const repo = new OrderHistoryRepository(this.db);
    const total = await repo.countOfUser(userId);
    const rows = await repo.pageOfUser(userId, PAGE_SIZE, (page - 1) * PAGE_SIZE);
    const counts = await repo.lineCounts(rows.map((r) => r.order_id));
    const data = await Promise.all(
      rows.map(async (r) => ({
        number: r.order_number,
        token: r.order_token,
        createdAt: r.created_at,
        state: currentState(await orderHistory(this.db, r)),
        paymentStatus: r.payment_status as AccountOrderSummary['paymentStatus'],
        total: r.total,
        itemCount: counts.get(r.order_id) ?? 0,
      })),
    );
    return { data, meta: { page, pageSize: PAGE_SIZE, total, pageCount: pageCount(total) } };
  }

  async detail(userId: number, token: string): Promise<AccountOrderDetail> {
    return accountOrderDetail(this.db, await this.ownOrder(userId, token), this.iban);
  }

  /**
   * Withdraws from the given lines of the user's order (all its lines: the whole order) and queues
   * the acknowledgement e-mail. The goods' share of the discount is not refunded; the last lines of
   * an order refund what is left of its total, delivery included (EU rules), so the refunds add up to it.
   */
  async withdraw(userId: number, token: string, itemIds: number[], confirmed: boolean): Promise<AccountOrderDetail> {
    const order = await this.ownOrder(userId, token);
    if (!confirmed) throw new ApiError(422, 'validation_failed', 'Odstúpenie od zmluvy potvrďte, prosím.');
    const wanted = [...new Set(itemIds)];
    // Check and write in one transaction that first locks the order: two withdrawals sent at the
    // same moment see each other, so the refunds add up to the total and the last one ends the order.
    await this.db
      .transaction()
      .execute(async (trx) => {
        await lockOrder(trx, order.order_id);
        const locked = (await orderByToken(trx, order.order_token))!;
        const before = await accountOrderDetail(trx, locked, this.iban);
        if (!before.canWithdraw) throw new ApiError(409, 'conflict', before.withdrawalBlockedReason ?? STATE_CONFLICT);
        const lines = before.lines.filter((l) => wanted.includes(l.itemId));
        if (lines.length !== wanted.length) throw new ApiError(422, 'validation_failed', 'Vybrané položky nepatria k tejto objednávke.');
        if (lines.some((l) => l.withdrawn)) throw new ApiError(409, 'conflict', ALREADY_WITHDRAWN);

        const remaining = before.lines.filter((l) => !l.withdrawn && !wanted.includes(l.itemId));
        const wholeOrder = remaining.length === 0 && before.withdrawals.length === 0;
        const linesTotal = lines.reduce((sum, l) => sum + l.lineTotal, 0);
        const discountShare = before.itemsTotal > 0 ? Math.round((before.discount * linesTotal) / before.itemsTotal / 10) * 10 : 0;
        const refundedBefore = before.withdrawals.reduce((sum, w) => sum + w.refund, 0);
        const refund = remaining.length === 0 ? before.total - refundedBefore : linesTotal - discountShare;
        const now = new Date().toISOString();

        const withdrawalId = await new OrderHistoryRepository(trx).addWithdrawal({
          orderId: order.order_id,
          userId,
          wholeOrder,
          refund,
          itemIds: wanted,
          at: now,
        });
        if (remaining.length === 0)
          await recordState(trx, locked, 'withdrawn', wholeOrder ? '' : 'Odstúpenie od zvyšných položiek', 'customer');

        const names = lines.map((l) => `${l.p_name} (${l.v_name}), ${l.amount} ${l.v_unit}: ${formatPrice(l.lineTotal)}`);
        const text = [
          `Dobrý deň, ${before.contact.name},`,
          '',
          `potvrdzujeme, že ${formatDate(now)} sme prijali vaše odstúpenie od zmluvy (objednávka č. ${order.order_number}).`,
          wholeOrder ? 'Odstúpili ste od celej objednávky.' : 'Odstúpili ste od týchto položiek:',
          ...names.map((n) => `– ${n}`),
          '',
          `Sumu ${formatPrice(refund)} vám vrátime do 14 dní od doručenia odstúpenia rovnakým spôsobom, akým ste platili; môžeme ju zadržať, kým nám tovar nevrátite alebo nepreukážete, že ste ho odoslali.`,
          'Tovar nám, prosím, pošlite alebo prineste do 14 dní na adresu predajne. Náklady na vrátenie tovaru znášate vy.',
          '',
          'Stavebniny Domov',
        ];
        // The acknowledgement is part of the withdrawal: committed with it (outbox), sent after.
        await queueMail(
          trx,
          {
            to: order.email,
            subject: `Potvrdenie odstúpenia od zmluvy – objednávka č. ${order.order_number}`,
            text: text.join('\n'),
            html: `<p>${text.map(escapeHtml).join('<br>')}</p>`,
          },
          `odstupenie-${order.order_number}`,
          `withdrawal:${withdrawalId}`,
        );
      })
      .catch((error: unknown) => {
        const e = error as { code?: string; message?: string };
        if (e?.code === '23505' || /UNIQUE|PRIMARY/i.test(e?.message ?? '')) throw new ApiError(409, 'conflict', ALREADY_WITHDRAWN);
        throw error;
      });

    const fresh = (await orderByToken(this.db, order.order_token))!;
    return accountOrderDetail(this.db, fresh, this.iban);
  }

  /**
   * The operator moves an order to another state, if OPERATOR_MOVES allows it (an order already
   * paid is not paid again). An order paid otherwise or ended takes no card payment any more: its
   * open payment pages are cancelled.
   */
  async moveState(number: string, target: OrderState, note: string): Promise<AccountOrderDetail> {
    const order = await orderByNumber(this.db, number);
    if (!order) throw notFound(ORDER_NOT_FOUND);
    await this.db.transaction().execute(async (trx) => {
      // Checked and moved under the order's lock, as the shopper's withdrawal and the gateway's payment are.
      await lockOrder(trx, order.order_id);
      const locked = (await orderByNumber(trx, order.order_number))!;
      const state = currentState(await orderHistory(trx, locked));
      const allowed = OPERATOR_MOVES[state].filter((s) => s !== 'paid' || locked.payment_status !== 'paid');
      if (!allowed.includes(target)) {
        throw new ApiError(
          409,
          'conflict',
          `Objednávku v stave „${ORDER_STATE_LABELS[state]}“ nemožno presunúť do stavu „${ORDER_STATE_LABELS[target]}“.`,
        );
      }
      await recordState(trx, locked, target, note.trim(), 'operator');
      if (target === 'paid' || target === 'cancelled' || target === 'withdrawn') await cancelOpenPayments(trx, order.order_id);
    });
    const fresh = (await orderByNumber(this.db, order.order_number))!;
    return accountOrderDetail(this.db, fresh, this.iban);
  }
}
