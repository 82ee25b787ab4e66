import type { CheckoutContact, OrderDetail, OrderPaymentStatus, PickupPoint } from '@shop/shared-kernel/contract';
import { vatBreakdown } from '@shop/shared-kernel/rules';
import type { DbOrTrx } from '../../../db/database.ts';
import type { OrderRow } from '../../../db/orders.table.ts';
import { ContentRepository } from '../../content/site/content.repository.ts';
import { OrderRepository } from './order.repository.ts';
import { transferInstructions } from './pay-by-square.ts';

/** The order as the shopper sees it (thank-you, payment pages, e-mail, invoice). */
export async function orderDetail(db: DbOrTrx, order: OrderRow, iban: string): Promise<OrderDetail> {
  const items = await new OrderRepository(db).items(order.order_id);
  const lines = items.map((i) => ({
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
  const itemsVat = vatBreakdown(
    lines.map((l) => ({ gross: l.lineTotal, rate: l.vat })),
    order.discount,
  );
  const vat = vatBreakdown([
    ...itemsVat.map((l) => ({ gross: l.total, rate: l.rate })),
    { gross: order.shipping_price, rate: order.shipping_vat },
    { gross: order.payment_price, rate: order.payment_vat },
  ]);
  let transfer = null;
  if (order.payment_code === 'transfer' && order.payment_status !== 'paid') {
    const site = await new ContentRepository(db).site();
    transfer = await transferInstructions({
      iban,
      beneficiary: site?.company.name ?? 'Stavebniny Domov s.r.o.',
      variableSymbol: order.order_number,
      amount: order.amount_due,
      note: `Objednavka ${order.order_number}`,
    });
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
    // An order the shop cancelled or the shopper withdrew from is not paid for again.
    canRetryPayment:
      order.payment_code === 'card' &&
      ['pending', 'cancelled', 'failed'].includes(order.payment_status) &&
      order.status !== 'cancelled' &&
      order.status !== 'withdrawn',
  };
}
