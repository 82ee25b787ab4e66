/**
 * The contact form's rules: the spam trap, the kernel's field rules (a Slovak message per field),
 * and the message stored together with its e-mail to the shop's address (the outbox sends it
 * after the commit).
 */
import { validateContactMessage, type ContactMessageInput } from '@shop/shared-kernel/rules';
import type { ContentCalls } from '@shop/shared-kernel/contract';
import type { Db } from '../../../db/database.ts';
import { ApiError } from '../../../infra/http/errors.ts';
import { escapeHtml } from '../../../infra/pure/html.ts';
import { queueMail } from '../../../infra/outbox/mail-outbox.ts';
import { ContentRepository } from '../site/content.repository.ts';
import { ContactRepository } from './contact.repository.ts';

type ContactBody = ContentCalls['POST /api/contact']['body'];

/**
 * The message a form sends, checked by the form's rules (400 with their messages), or null when
 * the spam trap (a field people never see) is filled: a bot is told "thank you" and nothing happens.
 */
export function readContactMessage({ website, ...input }: ContactBody): ContactMessageInput | null {
  if (website && website.trim() !== '') return null;
  const message = { ...input, phone: input.phone ?? '' };
  const errors = validateContactMessage(message);
  if (Object.keys(errors).length > 0) throw new ApiError(400, 'validation_failed', Object.values(errors).join(' '));
  return message;
}

export class ContactService {
  constructor(private readonly db: Db) {}

  /** Stores a checked message (of a signed-in shopper: `userId`) and queues its e-mail to the shop, in one transaction. */
  async receive(message: ContactMessageInput, userId: number | null): Promise<void> {
    const createdAt = new Date().toISOString();
    const site = await new ContentRepository(this.db).site();
    const name = message.name.trim();
    const email = message.email.trim();
    const phone = message.phone.trim();
    const text = message.message.trim();
    const lines = [`Meno: ${name}`, `E-mail: ${email}`, `Telefón: ${phone || '—'}`, '', text];
    await this.db.transaction().execute(async (trx) => {
      await new ContactRepository(trx).save({ name, email, phone: phone || null, message: text, user_id: userId, created_at: createdAt });
      await queueMail(
        trx,
        {
          to: site?.email ?? 'obchod@example.sk',
          subject: `Správa z kontaktného formulára: ${name}`,
          text: lines.join('\n'),
          html: `<p>${lines.map(escapeHtml).join('<br>')}</p>`,
          replyTo: email,
        },
        'kontakt',
      );
    });
  }
}
