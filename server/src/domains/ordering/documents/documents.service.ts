/** The order's documents: the confirmation e-mail and the invoice PDF. */
import type { SiteData } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../../db/database.ts';
import type { OrderRow } from '../../../db/orders.table.ts';
import type { JobHandler } from '../../../infra/outbox/outbox.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { ContentRepository } from '../../content/site/content.repository.ts';
import { orderFacts } from '../order-core/order-detail.ts';
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

/** What the documents show of the shop: its account (transfer instructions, invoice), its public address (links), its e-mail's sender. */
export type DocumentSettings = { iban: string; publicUrl: string; mailFrom: string };

/** The order's documents, rendered from the order as it is stored. */
export class DocumentsService {
  constructor(
    private readonly db: DbOrTrx,
    private readonly settings: DocumentSettings,
  ) {}

  /** The confirmation e-mail; a transfer's PAY by square code drawn once, as the PNG the e-mail carries. */
  async confirmationMessage(order: OrderRow): Promise<MailMessage> {
    const site = await siteData(this.db);
    const facts = await orderFacts(this.db, order, this.settings.iban, { site });
    const message = orderConfirmationEmail(facts, site, this.settings.publicUrl);
    if (facts.transfer) {
      const png = await payBySquarePng(facts.transfer);
      message.attachments = [{ filename: 'pay-by-square.png', content: png, contentType: 'image/png', cid: 'paybysquare' }];
    }
    return message;
  }

  /** Sends a queued confirmation (the outbox's handler of CONFIRMATION_TOPIC). */
  confirmationJobHandler(mailer: Mailer): JobHandler {
    return async (job) => {
      const { orderId } = job.payload as { orderId: number };
      const order = await new OrderRepository(this.db).byId(orderId);
      if (!order) return; // nothing to confirm (never happens: orders are not deleted)
      const tag = `objednavka-${order.order_number}`;
      await mailer.send(await this.confirmationMessage(order), tag, jobMessageId(job.id, tag, this.settings.mailFrom));
    };
  }

  async invoicePdf(order: OrderRow): Promise<Buffer> {
    const site = await siteData(this.db);
    return renderInvoicePdf(await orderFacts(this.db, order, this.settings.iban, { site }), site, this.settings.iban);
  }
}

/** The documents of the API's orders, with the shop's settings as the API was given them. */
export function orderDocuments(deps: Pick<ApiDeps, 'db' | 'iban' | 'publicUrl' | 'mail'>): DocumentsService {
  return new DocumentsService(deps.db, { iban: deps.iban, publicUrl: deps.publicUrl, mailFrom: deps.mail.from });
}
