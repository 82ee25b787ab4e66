/**
 * Placing an order: one call with an idempotency key; the server prices the basket
 * from the database, checks and reserves stock, records the coupon's redemption and stores the
 * order with the checkout version its browser was served, in one transaction. A second request
 * with the same key answers the same order.
 * Also paying an order again by card. Reading and locking an order and the order as the shopper
 * sees it are in order-core/, below payments and documents, which use them too.
 */
import { createHash } from 'node:crypto';
import type { CheckoutContact, OrderLine, OrderPaymentStatus, PlaceOrderBody } from '@shop/shared-kernel/contract';
import { normalizeContact, randomString, validateContact } from '@shop/shared-kernel/rules';
import type { Db, DbOrTrx } from '../../../db/database.ts';
import type { OrderRow } from '../../../db/orders.table.ts';
import { inCatalogTransaction } from '../../../infra/cache/catalog-version.ts';
import { ApiError } from '../../../infra/http/errors.ts';
import { queueConfirmation } from '../order-core/order-jobs.ts';
import { OrderRepository } from '../order-core/order.repository.ts';
import { CouponRepository } from '../coupon/coupon.repository.ts';
import { redeemCoupon } from '../coupon/coupon.service.ts';
import { priceBasket, type PricedVariant } from '../checkout/pricing.ts';
import { cancelOpenPayments } from '../order-core/open-payments.ts';
import { lockOrder, ORDER_NOT_FOUND, orderByKey } from '../order-core/order-access.ts';
import { canRetryPayment } from '../order-core/order-detail.ts';
import { pickupPointByCode } from '../pickup-points/pickup-points.repository.ts';
import { methodSwitchesNow, paymentSwitchedOff, PICKUP_POINT_SHIPPING, shippingSwitchedOff } from '../checkout/method-switches.ts';
import { recordOrderVersions } from '../../releases/order-versions.repository.ts';

export const ORDER_MESSAGES = {
  terms: 'Pred odoslaním objednávky potvrďte súhlas s obchodnými podmienkami a reklamačným poriadkom.',
  shipping: 'Vyberte, prosím, spôsob dopravy, ktorý je pre túto objednávku dostupný.',
  payment: 'Vyberte, prosím, spôsob platby, ktorý je pre zvolenú dopravu dostupný.',
  pickupPoint: 'Vyberte výdajné miesto, kde si balík vyzdvihnete.',
  keyReused: 'Táto objednávka bola už odoslaná s inými údajmi. Obnovte stránku a odošlite ju znova.',
  priceChanged: 'Ceny alebo zľava sa medzičasom zmenili. Skontrolujte, prosím, súhrn objednávky a odošlite ju znova.',
  notYours: 'Objednávku môžete odoslať len za seba.',
  unavailable: (name: string) => `Tovar „${name}“ už nie je v ponuke. Odstráňte ho, prosím, z košíka.`,
  outOfStock: (name: string, left: number, unit: string) =>
    left > 0
      ? `Tovar „${name}“ už nie je na sklade v požadovanom množstve (zostáva ${left} ${unit}). Upravte, prosím, množstvo v košíku.`
      : `Tovar „${name}“ sa medzičasom vypredal. Odstráňte ho, prosím, z košíka.`,
  notFound: ORDER_NOT_FOUND,
  cannotPayAgain: 'Túto objednávku nie je možné zaplatiť kartou znova.',
  cardOff: 'Platba kartou je práve vypnutá. Vyberte, prosím, iný spôsob platby.',
  pickupPointsOff: 'Doprava na výdajné miesto je práve vypnutá. Vyberte, prosím, iný spôsob dopravy.',
} as const;

export class StockConflict extends ApiError {
  constructor(message: string) {
    super(409, 'conflict', message);
  }
}

function requestHash(body: PlaceOrderBody, userId: number | null): string {
  const canonical = {
    lines: [...body.lines].sort((a, b) => a.v_id - b.v_id),
    contact: body.contact,
    shippingCode: body.shippingCode,
    pickupPointCode: body.shippingCode === PICKUP_POINT_SHIPPING ? (body.pickupPointCode ?? null) : null,
    paymentCode: body.paymentCode,
    couponCode: body.couponCode?.trim().toUpperCase() || null,
    note: body.note,
    userId,
  };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

/** The order placed (or replayed); a new one with the lines it stored, so its answer need not read them back. */
export type PlaceResult = { order: OrderRow; created: boolean; lines?: OrderLine[] };

function replay(existing: OrderRow, hash: string): PlaceResult {
  if (existing.request_hash !== hash) throw new ApiError(409, 'conflict', ORDER_MESSAGES.keyReused);
  return { order: existing, created: false };
}

/**
 * Takes the pieces off the stock of variants kept in stock, each with one conditional update, so
 * two orders racing for the last pieces cannot both get them. Variants sold "to order" carry no
 * stock; unavailable ones cannot be ordered. Throws StockConflict (the transaction rolls back).
 */
async function reserveStock(orders: OrderRepository, lines: { v_id: number; amount: number }[], variants: Map<number, PricedVariant>) {
  for (const line of lines) {
    const v = variants.get(line.v_id)!;
    const name = `${v.p_name} (${v.v_name})`;
    if (v.v_availability === 'unavailable') throw new StockConflict(ORDER_MESSAGES.unavailable(name));
    if (v.v_availability !== 'in_stock') continue;
    if (!(await orders.takeStock(line.v_id, line.amount))) {
      throw new StockConflict(ORDER_MESSAGES.outOfStock(name, await orders.stockOf(line.v_id), v.v_unit));
    }
  }
}

/** Whether the order, read under its row lock, still waits for a card payment. */
async function payableByCard(trx: DbOrTrx, orderId: number): Promise<boolean> {
  return canRetryPayment((await new OrderRepository(trx).byId(orderId))!);
}

/** Placing orders and paying them again; constructed once by the orders plugin. */
export class OrderService {
  constructor(private readonly db: Db) {}

  /**
   * Validates, prices and stores an order. `initialStatus` is the payment provider's status of a
   * new order. Errors: 422 invalid contact or terms, 409 stock, price change, reused key or coupon.
   */
  async place(
    body: PlaceOrderBody,
    userId: number | null,
    initialStatus: (paymentCode: string) => OrderPaymentStatus,
    /** The browser's canary bucket: the checkout's switches and version are decided for it as its page did. */
    bucket: number | null = null,
  ): Promise<PlaceResult> {
    const db = this.db;
    if (body.userId !== undefined && body.userId !== null && body.userId !== userId)
      throw new ApiError(403, 'forbidden', ORDER_MESSAGES.notYours);
    if (body.termsAccepted !== true) throw new ApiError(422, 'validation_failed', ORDER_MESSAGES.terms);
    const errors = validateContact(body.contact);
    const messages = [...new Set(Object.values(errors))];
    if (messages.length > 0) throw new ApiError(422, 'validation_failed', messages.join(' '));
    const contact: CheckoutContact = normalizeContact(body.contact);
    const hash = requestHash({ ...body, contact }, userId);

    const existing = await orderByKey(db, body.idempotencyKey);
    if (existing) return replay(existing, hash);

    try {
      // The order takes pieces off the stock of its products: the cached answers showing them start over once it has ended.
      const placed = await inCatalogTransaction(db, async (trx, change) => {
        // Pricing only reads: an order refused before it names its products changed none.
        change.products([]);
        const priced = await priceBasket(trx, {
          lines: body.lines,
          shippingCode: body.shippingCode,
          paymentCode: body.paymentCode,
          couponCode: body.couponCode,
          userId,
          bucket,
        });
        change.products([...priced.variants.values()].filter((v) => v.v_availability === 'in_stock').map((v) => v.p_id));
        // A method switched off is refused whatever the page showed (an open page, a forged request).
        if (paymentSwitchedOff(body.paymentCode, priced.switches)) throw new ApiError(422, 'validation_failed', ORDER_MESSAGES.cardOff);
        if (shippingSwitchedOff(body.shippingCode, priced.switches))
          throw new ApiError(422, 'validation_failed', ORDER_MESSAGES.pickupPointsOff);
        if (!priced.shipping) throw new ApiError(422, 'validation_failed', ORDER_MESSAGES.shipping);
        if (!priced.payment) throw new ApiError(422, 'validation_failed', ORDER_MESSAGES.payment);
        // A parcel for a pickup point needs the point: an active one the shopper chose.
        const pickupPoint =
          priced.shipping.code === PICKUP_POINT_SHIPPING ? await pickupPointByCode(trx, body.pickupPointCode ?? '') : null;
        if (priced.shipping.code === PICKUP_POINT_SHIPPING && !pickupPoint)
          throw new ApiError(422, 'validation_failed', ORDER_MESSAGES.pickupPoint);
        if (body.couponCode?.trim() && !priced.coupon) {
          throw new ApiError(409, 'conflict', priced.quote.couponMessage ?? ORDER_MESSAGES.priceChanged);
        }
        const q = priced.quote;
        if (body.expectedTotal !== undefined && body.expectedTotal !== q.amountDue) {
          throw new ApiError(409, 'conflict', ORDER_MESSAGES.priceChanged);
        }

        const token = randomString(32);
        const now = new Date().toISOString();
        const orders = new OrderRepository(trx);
        // The idempotency key is claimed first: a concurrent twin waits here and then fails on it.
        const orderId = await orders.insert({
          order_number: `T${token}`,
          order_token: token,
          idempotency_key: body.idempotencyKey,
          request_hash: hash,
          user_id: userId,
          email: contact.email,
          contact_json: JSON.stringify(contact),
          pickup_point_json: pickupPoint ? JSON.stringify(pickupPoint) : null,
          note: body.note.trim(),
          shipping_code: priced.shipping.code,
          shipping_name: priced.shipping.name,
          shipping_price: q.shippingPrice,
          shipping_vat: priced.shipping.vat,
          payment_code: priced.payment.code,
          payment_name: priced.payment.name,
          payment_price: q.paymentPrice,
          payment_vat: priced.payment.vat,
          coupon_code: priced.coupon?.code ?? null,
          items_total: q.itemsTotal,
          discount: q.discount,
          total: q.total,
          amount_due: q.amountDue,
          weight: q.weight,
          status: 'new',
          // Nothing to pay (a coupon or points covered it all): paid when placed, no payment asked for.
          payment_status: q.amountDue === 0 ? 'paid' : initialStatus(priced.payment.code),
          created_at: now,
          paid_at: q.amountDue === 0 ? now : null,
        });
        // The checkout version this browser was served, decided here from its bucket (never the body): what a canary is judged on.
        await recordOrderVersions(trx, { orderId, placedAt: now, bucket });
        const orderNumber = `${now.slice(0, 4)}${String(orderId).padStart(6, '0')}`;
        const stored = await orders.setNumber(orderId, orderNumber);

        // After the idempotency key (a twin replays the order, not a refused coupon) and before the
        // stock, so every order takes its locks in one order: key, coupon, stock.
        if (priced.coupon && userId !== null) {
          const refused = await redeemCoupon(new CouponRepository(trx), priced.coupon, userId, orderNumber, now);
          if (refused) throw new ApiError(409, 'conflict', refused);
        }
        await reserveStock(orders, q.lines, priced.variants);
        await orders.addItems(
          orderId,
          q.lines.map((l) => ({
            v_id: l.v_id,
            v_code: l.v_code,
            p_name: l.p_name,
            v_name: l.v_name,
            v_unit: l.v_unit,
            amount: l.amount,
            unit_price: l.unitPrice,
            vat: l.vat,
            line_total: l.lineTotal,
          })),
        );
        // The confirmation is part of the order: committed with it, or not at all.
        await queueConfirmation(trx, orderId);
        return { order: stored, lines: q.lines };
      });
      return { ...placed, created: true };
    } catch (error) {
      if (isUniqueViolation(error)) {
        const twin = await orderByKey(db, body.idempotencyKey);
        if (twin) return replay(twin, hash);
      }
      throw error;
    }
  }

  /** The gateway page of the latest card payment still waiting, for a replayed request. */
  async pendingRedirect(order: OrderRow): Promise<string | null> {
    if (order.payment_code !== 'card' || order.payment_status !== 'pending') return null;
    const payment = await new OrderRepository(this.db).newestOpenPayment(order.order_id);
    return payment?.redirect_url ?? null;
  }

  /**
   * Pays an order again by card: `startPayment` opens a new payment page at the gateway. Answers
   * the gateway page the shopper goes to (null when none is open any more); 409 when the order
   * no longer waits for a card payment.
   */
  async payAgain(
    order: OrderRow,
    startPayment: (order: OrderRow) => Promise<unknown>,
    bucket: number | null = null,
  ): Promise<string | null> {
    const { db } = this;
    if ((await methodSwitchesNow(db, bucket)).cardOff) throw new ApiError(409, 'conflict', ORDER_MESSAGES.cardOff);
    // At most one payment page of an order takes money: the older ones stop before a new one
    // opens (in our database now, at the gateway through the outbox).
    await db.transaction().execute(async (trx) => {
      await lockOrder(trx, order.order_id);
      if (!(await payableByCard(trx, order.order_id))) throw new ApiError(409, 'conflict', ORDER_MESSAGES.cannotPayAgain);
      await cancelOpenPayments(trx, order.order_id);
    });
    await startPayment(order);
    // Meanwhile the order may have been paid (a page the gateway took before our cancel reached
    // it) or another attempt may have started: only the newest page stays open, and none once
    // the order no longer waits for a payment.
    return db.transaction().execute(async (trx) => {
      await lockOrder(trx, order.order_id);
      if (!(await payableByCard(trx, order.order_id))) {
        await cancelOpenPayments(trx, order.order_id);
        throw new ApiError(409, 'conflict', ORDER_MESSAGES.cannotPayAgain);
      }
      const orders = new OrderRepository(trx);
      const newest = await orders.newestOpenPayment(order.order_id);
      if (!newest) return null;
      await cancelOpenPayments(trx, order.order_id, newest.payment_id);
      await orders.setPaymentStatus(order.order_id, 'pending');
      return newest.redirect_url;
    });
  }
}
