/**
 * E-mails go through the outbox: the caller queues the message in the transaction of its cause,
 * the worker sends it (with retries) after the commit. Each message gets a stable Message-ID from
 * its job, so a retry after a crash is recognisable as the same message.
 */
import { randomUUID } from 'node:crypto';
import type { DbOrTrx } from '../../db/database.ts';
import { enqueue, type JobHandler } from './outbox.ts';
import type { Mailer, MailMessage } from './mailer.ts';

export const MAIL_TOPIC = 'mail';

type StoredAttachment = { filename: string; content: string; contentType: string; cid?: string };
type MailJob = { message: Omit<MailMessage, 'attachments'> & { attachments?: StoredAttachment[] }; tag: string };

/** Queues a message; `key` names its cause when one cause must never send it twice (default: a new cause). */
export function queueMail(db: DbOrTrx, message: MailMessage, tag: string, key: string = randomUUID()): Promise<void> {
  const payload: MailJob = {
    tag,
    message: {
      ...message,
      attachments: message.attachments?.map((a) => ({ ...a, content: a.content.toString('base64') })),
    },
  };
  return enqueue(db, MAIL_TOPIC, `mail:${key}`, payload);
}

/**
 * The Message-ID of a job's e-mail: the same on every attempt. A job id is a number (the table)
 * or a UUID (pg-boss), of which 64 bits are kept so that the header fits on one line.
 */
export function jobMessageId(jobId: string, tag: string, from: string): string {
  const domain = /@([\w.-]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<${tag.replace(/[^\w.-]/g, '_')}.${jobId.replace(/\W/g, '').slice(0, 16)}@${domain}>`;
}

export function mailJobHandler(mailer: Mailer, from: string): JobHandler {
  return async (job) => {
    const { message, tag } = job.payload as MailJob;
    await mailer.send(
      { ...message, attachments: message.attachments?.map((a) => ({ ...a, content: Buffer.from(a.content, 'base64') })) },
      tag,
      jobMessageId(job.id, tag, from),
    );
  };
}
