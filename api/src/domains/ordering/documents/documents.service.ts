/** The order's documents: the confirmation e-mail and the invoice PDF. */
import type { SiteData } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../../db/database.ts';
import type { OrderRow } from '../../../db/orders.table.ts';
import type { JobHandler } from '../../../infra/outbox/outbox.ts';
import type { CheckoutOptions } from '../../../infra/checkout-options.ts';
import { ContentRepository } from '../../content/site/content.repository.ts';
import { orderDetail } from '../order-core/order-detail.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import { jobMessageId } from '../../../infra/outbox/mail-outbox.ts';
import type { Mailer, MailMessage } from '../../../infra/outbox/mailer.ts';
import { orderConfirmationEmail } from './order-email.ts';
import { payBySquarePng } from '../order-core/pay-by-square.ts';
import { OrderRepository } from '../order-core/order.repository.ts';

async function siteData(db: DbOrTrx): Promise<SiteData> {
  const site = await new ContentRepository(db).site();
  if (!site) throw new Error('site settings are missing');
  return site;
}

export async function confirmationMessage(db: DbOrTrx, order: OrderRow, opts: CheckoutOptions): Promise<MailMessage> {
  const [detail, site] = await Promise.all([orderDetail(db, order, opts.iban), siteData(db)]);
  const message = orderConfirmationEmail(detail, site, opts.publicUrl);
  if (detail.transfer) {
    const png = await payBySquarePng({
      iban: detail.transfer.iban,
      beneficiary: detail.transfer.beneficiary,
      variableSymbol: detail.transfer.variableSymbol,
      amount: detail.transfer.amount,
      note: `Objednavka ${detail.number}`,
    });
    message.attachments = [{ filename: 'pay-by-square.png', content: png, contentType: 'image/png', cid: 'paybysquare' }];
  }
  return message;
}


/** Sends a queued confirmation, rendered from the order as it is stored. */
export function confirmationJobHandler(db: DbOrTrx, opts: CheckoutOptions, mailer: Mailer): JobHandler {
  return async (job) => {
    const { orderId } = job.payload as { orderId: number };
    const order = await new OrderRepository(db).byId(orderId);
    if (!order) return; // nothing to confirm (never happens: orders are not deleted)
    const tag = `objednavka-${order.order_number}`;
    await mailer.send(await confirmationMessage(db, order, opts), tag, jobMessageId(job.id, tag, opts.mailFrom));
  };
}

export async function invoicePdf(db: DbOrTrx, order: OrderRow, opts: CheckoutOptions): Promise<Buffer> {
  const [detail, site] = await Promise.all([orderDetail(db, order, opts.iban), siteData(db)]);
  return renderInvoicePdf(detail, site, opts.iban);
}
