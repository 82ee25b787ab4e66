/**
 * Outgoing e-mail: nodemailer over SMTP when SMTP_URL is set, otherwise each message is written
 * as an .eml file to the outbox folder of the data directory (development and tests).
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where an answer goes, e.g. the customer who wrote through the contact form. */
  replyTo?: string;
  attachments?: { filename: string; content: Buffer; contentType: string; cid?: string }[];
};

/**
 * `messageId` (from the outbox job) makes a retried message recognisable: the same Message-ID
 * header, and in the folder the same file name, so a retry after a crash replaces the file
 * instead of adding a second one.
 */
export type Mailer = { send(message: MailMessage, tag: string, messageId?: string): Promise<{ file: string | null }> };

export function createMailer(opts: { outboxDir: string; smtpUrl: string | null; from: string }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(message, _tag, messageId) {
        await transport.sendMail({ from: opts.from, ...message, ...(messageId ? { messageId } : {}) });
        return { file: null };
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let sequence = 0;
  return {
    async send(message, tag, messageId) {
      const info = await transport.sendMail({ from: opts.from, ...message, ...(messageId ? { messageId } : {}) });
      await mkdir(opts.outboxDir, { recursive: true });
      const safeTag = tag.replace(/[^\w-]/g, '_');
      const name = messageId
        ? `${safeTag}-${messageId.replace(/[^\w.-]/g, '_')}.eml`
        : `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(++sequence).padStart(3, '0')}-${safeTag}.eml`;
      // Written under a temporary name and renamed: a crash never leaves half a message behind.
      const file = join(opts.outboxDir, name);
      await writeFile(`${file}.tmp`, info.message as Buffer);
      await rename(`${file}.tmp`, file);
      return { file };
    },
  };
}
