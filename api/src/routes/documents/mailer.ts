/**
 * Outgoing e-mail: nodemailer over SMTP when SMTP_URL is set, otherwise each message is written
 * as an .eml file to the outbox folder of the data directory (development and tests).
 */
import { mkdir, writeFile } from 'node:fs/promises';
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

export type Mailer = { send(message: MailMessage, tag: string): Promise<{ file: string | null }> };

export function createMailer(opts: { outboxDir: string; smtpUrl: string | null; from: string }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: opts.from, ...message });
        return { file: null };
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let sequence = 0;
  return {
    async send(message, tag) {
      const info = await transport.sendMail({ from: opts.from, ...message });
      await mkdir(opts.outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = join(opts.outboxDir, `${stamp}-${String(++sequence).padStart(3, '0')}-${tag.replace(/[^\w-]/g, '_')}.eml`);
      await writeFile(file, info.message as Buffer);
      return { file };
    },
  };
}
