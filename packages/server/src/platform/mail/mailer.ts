import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

/** One message to one recipient. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** How mail leaves: an SMTP server, or `.eml` files in the outbox folder. */
  readonly mode: 'smtp' | 'outbox';
  /** Sends the message; `link` is written to the log when the message only reaches the outbox. */
  send(message: MailMessage, options?: { link?: string }): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
}

/**
 * Mail through nodemailer: to the SMTP server of `SMTP_URL` when set; otherwise each message is
 * written as an `.eml` file under `DATA_DIR/outbox` and its link is logged, so a site without a
 * mail server can still hand out password links.
 */
export function createMailer(options: MailerOptions): Mailer {
  const { from, log } = options;
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      mode: 'smtp',
      async send(message) {
        await transport.sendMail({ from, ...message });
        log.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    mode: 'outbox',
    async send(message, extra = {}) {
      const info = await transport.sendMail({ from, ...message });
      const body = info.message;
      if (!Buffer.isBuffer(body)) throw new Error('the mail composer did not answer a buffer');
      await fs.mkdir(outbox, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outbox, `${stamp}-${crypto.randomBytes(4).toString('hex')}.eml`);
      await fs.writeFile(file, body, { mode: 0o600 });
      log.info({ to: message.to, subject: message.subject, file, link: extra.link }, 'mail written to the outbox (no SMTP_URL)');
    },
    close: () => transport.close(),
  };
}
