import { mkdir, open, rename } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { newId } from '../crypto.js';
import type { MailPayload } from '../repositories/outbox.js';

export interface Mailer {
  send(mail: MailPayload): Promise<void>;
  close(): void;
}

interface MailerOptions {
  smtpUrl: string | null;
  from: string;
  outboxDir: string;
  uploadsDir: string;
  log: FastifyBaseLogger;
}

/**
 * Sends mail over SMTP (SMTP_URL), or, without SMTP, writes each message as an .eml file into
 * DATA_DIR/outbox and logs its `logLine` (the login link) so a developer can follow it.
 */
export function createMailer(options: MailerOptions): Mailer {
  const toMessage = (mail: MailPayload) => ({
    from: options.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    attachments: (mail.attachments ?? []).map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      path: path.join(options.uploadsDir, path.basename(a.path)),
    })),
  });

  if (options.smtpUrl !== null) {
    const transport: Transporter = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail(toMessage(mail));
      },
      close: () => transport.close(),
    };
  }

  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send(mail) {
      const info = await transport.sendMail(toMessage(mail));
      await mkdir(options.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId()}.eml`;
      const tmp = path.join(options.outboxDir, `.${name}.tmp`);
      const handle = await open(tmp, 'w', 0o600);
      try {
        await handle.writeFile(info.message as Buffer);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, path.join(options.outboxDir, name));
      options.log.info({ file: name, to: mail.to }, 'Mail written to the outbox folder');
      if (mail.logLine !== undefined) options.log.info(mail.logLine);
    },
    close: () => transport.close(),
  };
}
