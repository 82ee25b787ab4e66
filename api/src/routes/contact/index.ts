/**
 * POST /api/contact: the contact form. Validated by the kernel's rules,
 * stored, and sent to the shop's address (the outbox in development). A
 * filled spam trap is accepted and dropped; a rate limit per address stops floods.
 */
import type { FastifyPluginAsync } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { CONTACT_FORM_MESSAGES, validateContactMessage } from '@shop/shared-kernel/rules';
import type { ApiCalls } from '@shop/shared-kernel/contract';
import { ApiError } from '../../lib/errors.ts';
import type { ApiDeps } from '../deps.ts';
import { queueMail } from '../documents/mail-outbox.ts';
import { ContentRepository } from '../content/content.repository.ts';
import { optionalUser } from '../checkout/index.ts';

type Call = ApiCalls['POST /api/contact'];
export type ContactOptions = ApiDeps & { rateLimit?: { max: number; timeWindowMs: number } };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export const contactRoutes: FastifyPluginAsync<ContactOptions> = async (app, deps) => {
  const limit = deps.rateLimit ?? { max: 5, timeWindowMs: 10 * 60_000 };
  await app.register(rateLimit, {
    global: false,
    // An ApiError, so the error handler keeps the Slovak message (a plain object became a generic 400 text).
    errorResponseBuilder: () => new ApiError(429, 'rate_limited', CONTACT_FORM_MESSAGES.tooMany),
  });

  app.post<{ Body: Call['body']; Reply: Call['answer'] }>(
    '/contact',
    {
      config: { rateLimit: { max: limit.max, timeWindow: limit.timeWindowMs } },
      schema: {
        body: {
          type: 'object',
          required: ['name', 'email', 'message'],
          properties: {
            name: { type: 'string', maxLength: 200 },
            email: { type: 'string', maxLength: 254 },
            phone: { type: 'string', maxLength: 40, default: '' },
            message: { type: 'string', maxLength: 6000 },
            website: { type: 'string', maxLength: 500, default: '' },
          },
          additionalProperties: false,
        },
      },
    },
    async (request, reply) => {
      const { website, ...input } = request.body;
      const message = { ...input, phone: input.phone ?? '' };
      // The spam trap: a field people never see. A bot that fills it is told "thank you" and nothing happens.
      if (website && website.trim() !== '') return reply.code(201).send({ data: { ok: true } });
      const errors = validateContactMessage(message);
      if (Object.keys(errors).length > 0) {
        throw new ApiError(400, 'validation_failed', Object.values(errors).join(' '));
      }
      const userId = await optionalUser(request, deps);
      const createdAt = new Date().toISOString();
      const site = await new ContentRepository(deps.db).site();
      const lines = [`Meno: ${message.name.trim()}`, `E-mail: ${message.email.trim()}`, `Telefón: ${message.phone.trim() || '—'}`, '', message.message.trim()];
      // The message and its e-mail to the shop are stored together: the outbox sends it after the commit.
      await deps.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('contact_messages')
          .values({
            name: message.name.trim(),
            email: message.email.trim(),
            phone: message.phone.trim() || null,
            message: message.message.trim(),
            user_id: userId,
            created_at: createdAt,
          })
          .execute();
        await queueMail(
          trx,
          {
            to: site?.email ?? 'obchod@example.sk',
            subject: `Správa z kontaktného formulára: ${message.name.trim()}`,
            text: lines.join('\n'),
            html: `<p>${lines.map(escapeHtml).join('<br>')}</p>`,
            replyTo: message.email.trim(),
          },
          'kontakt',
        );
      });
      return reply.code(201).send({ data: { ok: true } });
    },
  );
};
