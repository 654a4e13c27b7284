import nodemailer from 'nodemailer';
import type { Db } from '../db/client';
import { devMailbox } from '../db/schema';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends mail. Throws when the message could not be handed over. */
export interface Mailer {
  readonly kind: 'smtp' | 'dev-mailbox';
  send(message: MailMessage): Promise<void>;
}

export interface MailerOptions {
  /** smtp:// or smtps:// URL with credentials; without it, mail goes to the dev mailbox table. */
  smtpUrl?: string;
  from: string;
  /** Where the dev mailbox keeps messages when there is no SMTP server. */
  db?: Db;
}

/**
 * Outgoing mail: SMTP through nodemailer when `smtpUrl` is set, otherwise the `dev_mailbox`
 * table that the sandbox shows at /dev/mailbox.
 */
export function createMailer(opts: MailerOptions): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      kind: 'smtp',
      async send(message) {
        await transport.sendMail({ from: opts.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
      },
    };
  }
  const db = opts.db;
  if (!db) throw new Error('createMailer: a database is needed for the dev mailbox when SMTP_URL is unset');
  return {
    kind: 'dev-mailbox',
    async send(message) {
      await db.insert(devMailbox).values({ to: message.to, subject: message.subject, text: message.text, html: message.html ?? null });
    },
  };
}
