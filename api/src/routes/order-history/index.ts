/**
 * The signed-in shopper's orders (issue 6): a paged list, the detail with state history,
 * withdrawal from the contract (odstúpenie od zmluvy) with an acknowledgement e-mail, and the
 * operator's call that moves an order between states. Account calls find orders only among the
 * token's user's own: another customer's order token answers 404.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { AccountCalls, AccountOrderDetail, OrderState } from '@shop/shared-kernel/contract';
import { formatDate, formatPrice, PAGE_SIZE, pageCount, ORDER_STATE_LABELS } from '@shop/shared-kernel/rules';
import { ApiError, notFound } from '../../lib/errors.ts';
import { requireUser } from '../account/require-user.ts';
import type { OrderDeps } from '../orders/index.ts';
import { lockOrder, ORDER_MESSAGES, orderByNumber, orderByToken } from '../orders/order.service.ts';
import { queueMail } from '../documents/mail-outbox.ts';
import { cancelOpenPayments } from '../payments/open-payments.ts';
import { requireOperator } from '../operator/operator-auth.ts';
import { accountOrderDetail, currentState, OPERATOR_MOVES, ORDER_STATES, orderHistory, recordState } from './order-state.ts';
import { ID_SCHEMA } from '../../lib/validation.ts';

type Acc<K extends keyof AccountCalls> = AccountCalls[K];

const tokenParams = { type: 'object', required: ['token'], properties: { token: { type: 'string', pattern: '^[A-Za-z0-9]{32}$' } } } as const;
const numberParams = { type: 'object', required: ['number'], properties: { number: { type: 'string', pattern: '^[0-9]{6,16}$' } } } as const;
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export const orderHistoryRoutes: FastifyPluginAsync<OrderDeps> = async (app, deps) => {
  const { db } = deps;
  const iban = deps.checkout.iban;

  /** The user's own order by token, else 404 (the same answer for someone else's and for none). */
  const ownOrder = async (userId: number, token: string) => {
    const order = await orderByToken(db, token);
    if (!order || order.user_id !== userId) throw notFound(ORDER_MESSAGES.notFound);
    return order;
  };

  app.get<{ Querystring: { page?: number }; Reply: Acc<'GET /api/account/orders'>['answer'] }>(
    '/account/orders',
    { schema: { querystring: { type: 'object', properties: { page: { type: 'integer', minimum: 1, maximum: 100000 } } } } },
    async (request) => {
      const user = await requireUser(request, deps);
      const page = request.query.page ?? 1;
      const countRow = await db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', user.id).executeTakeFirstOrThrow();
      const total = Number(countRow.n);
      const rows = await db.selectFrom('orders').selectAll().where('user_id', '=', user.id)
        .orderBy('created_at', 'desc').orderBy('order_id', 'desc').limit(PAGE_SIZE).offset((page - 1) * PAGE_SIZE).execute();
      const ids = rows.map((r) => r.order_id);
      const counts = ids.length === 0 ? [] : await db.selectFrom('order_items').select(['order_id', (eb) => eb.fn.countAll().as('n')]).where('order_id', 'in', ids).groupBy('order_id').execute();
      const data = await Promise.all(rows.map(async (r) => ({
        number: r.order_number,
        token: r.order_token,
        createdAt: r.created_at,
        state: currentState(await orderHistory(db, r)),
        paymentStatus: r.payment_status as AccountOrderDetail['paymentStatus'],
        total: r.total,
        itemCount: Number(counts.find((c) => c.order_id === r.order_id)?.n ?? 0),
      })));
      return { data, meta: { page, pageSize: PAGE_SIZE, total, pageCount: pageCount(total) } };
    },
  );

  app.get<{ Params: { token: string }; Reply: Acc<'GET /api/account/orders/:token'>['answer'] }>(
    '/account/orders/:token',
    { schema: { params: tokenParams } },
    async (request) => {
      const user = await requireUser(request, deps);
      const order = await ownOrder(user.id, request.params.token);
      return { data: await accountOrderDetail(db, order, iban) };
    },
  );

  app.post<{ Params: { token: string }; Body: Acc<'POST /api/account/orders/:token/withdraw'>['body']; Reply: Acc<'POST /api/account/orders/:token/withdraw'>['answer'] }>(
    '/account/orders/:token/withdraw',
    {
      schema: {
        params: tokenParams,
        body: {
          type: 'object',
          required: ['itemIds', 'confirm'],
          properties: { itemIds: { type: 'array', minItems: 1, maxItems: 200, items: ID_SCHEMA }, confirm: { type: 'boolean' } },
        },
      },
    },
    async (request) => {
      const user = await requireUser(request, deps);
      const order = await ownOrder(user.id, request.params.token);
      if (request.body.confirm !== true) throw new ApiError(422, 'validation_failed', 'Odstúpenie od zmluvy potvrďte, prosím.');
      const wanted = [...new Set(request.body.itemIds)];
      // Check and write in one transaction that first locks the order: two withdrawals sent at the
      // same moment see each other, so the refunds add up to the total and the last one ends the order.
      await db.transaction().execute(async (trx) => {
        await lockOrder(trx, order.order_id);
        const locked = (await orderByToken(trx, order.order_token))!;
        const before = await accountOrderDetail(trx, locked, iban);
        if (!before.canWithdraw) throw new ApiError(409, 'conflict', before.withdrawalBlockedReason ?? STATE_CONFLICT);
        const lines = before.lines.filter((l) => wanted.includes(l.itemId));
        if (lines.length !== wanted.length) throw new ApiError(422, 'validation_failed', 'Vybrané položky nepatria k tejto objednávke.');
        if (lines.some((l) => l.withdrawn)) throw new ApiError(409, 'conflict', ALREADY_WITHDRAWN);

        const remaining = before.lines.filter((l) => !l.withdrawn && !wanted.includes(l.itemId));
        const wholeOrder = remaining.length === 0 && before.withdrawals.length === 0;
        const linesTotal = lines.reduce((sum, l) => sum + l.lineTotal, 0);
        // The goods' share of the discount is not refunded; a whole withdrawal also refunds the delivery (EU rules).
        const discountShare = before.itemsTotal > 0 ? Math.round((before.discount * linesTotal) / before.itemsTotal / 10) * 10 : 0;
        const refundedBefore = before.withdrawals.reduce((sum, w) => sum + w.refund, 0);
        // The last lines of an order refund what is left of the total (delivery included), so the refunds add up to it.
        const refund = remaining.length === 0 ? before.total - refundedBefore : linesTotal - discountShare;
        const now = new Date().toISOString();

        const w = await trx.insertInto('withdrawals').values({ order_id: order.order_id, user_id: user.id, whole_order: wholeOrder ? 1 : 0, refund, created_at: now }).returning('withdrawal_id').executeTakeFirstOrThrow();
        // The primary key on item_id is a second guard against withdrawing a line twice.
        await trx.insertInto('withdrawal_items').values(wanted.map((item_id) => ({ withdrawal_id: w.withdrawal_id, item_id }))).execute();
        if (remaining.length === 0) await recordState(trx, locked, 'withdrawn', wholeOrder ? '' : 'Odstúpenie od zvyšných položiek', 'customer');

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
          { to: order.email, subject: `Potvrdenie odstúpenia od zmluvy – objednávka č. ${order.order_number}`, text: text.join('\n'), html: `<p>${text.map(escapeHtml).join('<br>')}</p>` },
          `odstupenie-${order.order_number}`,
          `withdrawal:${w.withdrawal_id}`,
        );
      }).catch((error: unknown) => {
        const e = error as { code?: string; message?: string };
        if (e?.code === '23505' || /UNIQUE|PRIMARY/i.test(e?.message ?? '')) throw new ApiError(409, 'conflict', ALREADY_WITHDRAWN);
        throw error;
      });

      const fresh = (await orderByToken(db, order.order_token))!;
      return { data: await accountOrderDetail(db, fresh, iban) };
    },
  );

  /** The operator moves an order to another state (X-Operator-Token); tests use it too. */
  app.post<{ Params: { number: string }; Body: Acc<'POST /api/operator/orders/:number/state'>['body']; Reply: Acc<'POST /api/operator/orders/:number/state'>['answer'] }>(
    '/operator/orders/:number/state',
    {
      schema: {
        params: numberParams,
        body: { type: 'object', required: ['state'], properties: { state: { type: 'string', enum: ORDER_STATES }, note: { type: 'string', maxLength: 500 } } },
      },
    },
    async (request) => {
      requireOperator(request, deps.checkout);
      const order = await orderByNumber(db, request.params.number);
      if (!order) throw notFound(ORDER_MESSAGES.notFound);
      const target: OrderState = request.body.state;
      await db.transaction().execute(async (trx) => {
        // Checked and moved under the order's lock, as the shopper's withdrawal and the gateway's payment are.
        await lockOrder(trx, order.order_id);
        const locked = (await orderByNumber(trx, order.order_number))!;
        const state = currentState(await orderHistory(trx, locked));
        const allowed = OPERATOR_MOVES[state].filter((s) => s !== 'paid' || locked.payment_status !== 'paid');
        if (!allowed.includes(target)) {
          throw new ApiError(409, 'conflict', `Objednávku v stave „${ORDER_STATE_LABELS[state]}“ nemožno presunúť do stavu „${ORDER_STATE_LABELS[target]}“.`);
        }
        await recordState(trx, locked, target, request.body.note?.trim() ?? '', 'operator');
        // An order paid otherwise or ended takes no card payment any more: its open pages are cancelled.
        if (target === 'paid' || target === 'cancelled' || target === 'withdrawn') await cancelOpenPayments(trx, order.order_id);
      });
      const fresh = (await orderByNumber(db, order.order_number))!;
      return { data: await accountOrderDetail(db, fresh, iban) };
    },
  );
};

const STATE_CONFLICT = 'Od tejto objednávky nemožno odstúpiť.';
const ALREADY_WITHDRAWN = 'Od niektorej z vybraných položiek ste už odstúpili.';
