import type { CheckoutContact, OrderDetail, OrderLine, OrderPaymentStatus, PickupPoint, SiteData } from '@shop/shared-kernel/contract';
import { orderTotals } from '@shop/shared-kernel/rules';
import type { DbOrTrx } from '../../../db/database.ts';
import type { OrderRow } from '../../../db/orders.table.ts';
import { ContentRepository } from '../../content/site/content.repository.ts';
import { OrderRepository } from './order.repository.ts';
import { transferInstructions, type TransferInput } from './pay-by-square.ts';

/** The beneficiary of a transfer when the site's settings name no company. */
const DEFAULT_BENEFICIARY = 'Stavebniny Domov s.r.o.';

/**
 * What an order's detail is read from besides its row, when the caller holds it already: the
 * lines it has just stored, the site's settings it has just read. Whatever is missing is read.
 */
export type HeldParts = { lines?: OrderLine[]; site?: SiteData | null };

/** The order as its documents need it: the detail with the transfer's payment order, not yet drawn as a QR code. */
export type OrderFacts = Omit<OrderDetail, 'transfer'> & { transfer: TransferInput | null };

/** An order the shop cancelled or the shopper withdrew from is not paid for again. */
export function canRetryPayment(order: Pick<OrderRow, 'payment_code' | 'payment_status' | 'status'>): boolean {
  return (
    order.payment_code === 'card' &&
    ['pending', 'cancelled', 'failed'].includes(order.payment_status) &&
    order.status !== 'cancelled' &&
    order.status !== 'withdrawn'
  );
}

async function linesOf(db: DbOrTrx, orderId: number): Promise<OrderLine[]> {
  const items = await new OrderRepository(db).items(orderId);
  return items.map((i) => ({
    v_id: i.v_id,
    v_code: i.v_code,
    p_name: i.p_name,
    v_name: i.v_name,
    v_unit: i.v_unit,
    amount: i.amount,
    unitPrice: i.unit_price,
    vat: i.vat,
    lineTotal: i.line_total,
  }));
}

/** The order's facts (orderDetail without drawing the PAY by square code): the e-mail and the invoice draw what they need. */
export async function orderFacts(db: DbOrTrx, order: OrderRow, iban: string, held: HeldParts = {}): Promise<OrderFacts> {
  const lines = held.lines ?? (await linesOf(db, order.order_id));
  const { vat } = orderTotals({
    lines,
    discount: order.discount,
    shipping: { price: order.shipping_price, vat: order.shipping_vat },
    payment: { price: order.payment_price, vat: order.payment_vat },
  });
  let transfer: TransferInput | null = null;
  if (order.payment_code === 'transfer' && order.payment_status !== 'paid') {
    const site = held.site !== undefined ? held.site : await new ContentRepository(db).site();
    transfer = {
      iban,
      beneficiary: site?.company.name ?? DEFAULT_BENEFICIARY,
      variableSymbol: order.order_number,
      amount: order.amount_due,
      note: `Objednavka ${order.order_number}`,
    };
  }
  return {
    number: order.order_number,
    token: order.order_token,
    createdAt: order.created_at,
    status: order.status === 'cancelled' ? 'cancelled' : 'new',
    paymentStatus: order.payment_status as OrderPaymentStatus,
    pickupPoint: order.pickup_point_json ? (JSON.parse(order.pickup_point_json) as PickupPoint) : null,
    shipping: { code: order.shipping_code, name: order.shipping_name, price: order.shipping_price },
    payment: { code: order.payment_code, name: order.payment_name, price: order.payment_price },
    contact: JSON.parse(order.contact_json) as CheckoutContact,
    note: order.note,
    lines,
    itemsTotal: order.items_total,
    couponCode: order.coupon_code,
    discount: order.discount,
    total: order.total,
    amountDue: order.amount_due,
    vat,
    transfer,
    canRetryPayment: canRetryPayment(order),
  };
}

/** The order as the shopper sees it (thank-you, payment and account pages), the transfer's QR code drawn as SVG. */
export async function orderDetail(db: DbOrTrx, order: OrderRow, iban: string, held: HeldParts = {}): Promise<OrderDetail> {
  const facts = await orderFacts(db, order, iban, held);
  return { ...facts, transfer: facts.transfer ? await transferInstructions(facts.transfer) : null };
}
