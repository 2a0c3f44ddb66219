import { randomBytes } from 'node:crypto';
import { mkdir, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { newId } from '../crypto.js';
import { fsyncPath } from './fsync.js';
import { MailWriter, type MailMessage } from './mail-writer.js';
import { findStoredUpload } from './uploads.js';
import type { MailPayload } from '../repositories/outbox.js';

/** How long a send may wait to connect, for the greeting, and on a silent socket; see {@link MAIL_SEND_ALLOWANCE_MS}. */
const SMTP_CONNECTION_TIMEOUT_MS = 30_000;
const SMTP_GREETING_TIMEOUT_MS = 30_000;
const SMTP_SOCKET_TIMEOUT_MS = 60_000;
/** The longest a send to a mail server that stops answering takes before it fails (the sum of the limits above). */
export const MAIL_SEND_ALLOWANCE_MS =
  SMTP_CONNECTION_TIMEOUT_MS + SMTP_GREETING_TIMEOUT_MS + SMTP_SOCKET_TIMEOUT_MS;

/** The outbox row a message is sent for: its id names the message, the same on every attempt. */
export interface MailKey {
  id: string;
  /** When the row was queued (ISO 8601): the outbox file's name starts with it. */
  createdAt: string;
}

export interface Mailer {
  /** Sends a message; with `key`, every attempt for that outbox row gives the same Message-ID and file. */
  send(mail: MailPayload, key?: MailKey): Promise<void>;
  /** Makes every message sent so far durable where that is a separate step (the outbox folder). */
  flush?(): Promise<void>;
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
 * A message being written into the outbox folder (`.<name>.<random>.eml.tmp`, renamed to `<name>.eml` once
 * whole). The random part keeps two writers of one row apart (a lease run out while the first still writes).
 */
const PARTIAL_MESSAGE = /^\..+\.eml\.tmp$/;

/**
 * Deletes the partial messages a killed process left in the outbox folder: cut off half-way (a due-diligence
 * mail carries its attachment, so megabytes of a client's document), never renamed into place (the row's next
 * attempt writes its message again). A writer in another process sharing the folder whose file goes is no
 * loss either: its rename fails and the outbox retries the row.
 */
async function removePartialMessages(outboxDir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(outboxDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (PARTIAL_MESSAGE.test(name)) await unlink(path.join(outboxDir, name)).catch(() => undefined);
  }
}

/**
 * Sends mail over SMTP (SMTP_URL), or, without SMTP, writes each message as an .eml file into
 * DATA_DIR/outbox and logs its `logLine` (the login link) so a developer can follow it. The folder mailer
 * first deletes partial messages a killed process left there.
 */
export function createMailer(options: MailerOptions): Mailer {
  // Our own Message-ID (the id also names the outbox file): nodemailer's default costs a random draw and a
  // hostname lookup per message, a noticeable share of the CPU a submission costs.
  const domain = /@([^\s>]+)>?\s*$/.exec(options.from)?.[1] ?? 'localhost';
  /**
   * The message for a payload. An attachment whose stored file is gone can never be sent (see
   * `findStoredUpload`): the message goes without it, saying so in its text, and the log says which file is
   * missing.
   */
  const toMessage = async (mail: MailPayload, id: string): Promise<MailMessage> => {
    const attachments: MailMessage['attachments'] = [];
    const missing: string[] = [];
    for (const a of mail.attachments ?? []) {
      const { file, missing: gone } = await findStoredUpload(options.uploadsDir, a.path);
      if (!gone) {
        attachments.push({ filename: a.filename, contentType: a.contentType, path: file });
        continue;
      }
      missing.push(a.filename);
      options.log.error(
        { file, filename: a.filename, to: mail.to },
        'An attachment’s stored file is missing: the mail is sent without it',
      );
    }
    const note = missing
      .map(
        (filename) =>
          `\nThe attached file "${filename}" could not be sent: its stored copy is missing from the ` +
          "portal's uploads folder. Ask the sender for the file again.\n",
      )
      .join('');
    return {
      messageId: `<${id}@${domain}>`,
      from: options.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text + note,
      attachments,
    };
  };

  if (options.smtpUrl !== null) {
    // Time limits for a mail server that takes the connection and then says nothing (nodemailer waits up to 2 min
    // to connect and 10 min on a silent socket by default): the worker's claim on a batch lasts five minutes, and
    // a send must end well within it (outbox-worker.ts). Options given in SMTP_URL's query win.
    const transport: Transporter = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: SMTP_CONNECTION_TIMEOUT_MS,
      greetingTimeout: SMTP_GREETING_TIMEOUT_MS,
      socketTimeout: SMTP_SOCKET_TIMEOUT_MS,
    });
    return {
      async send(mail, key) {
        await transport.sendMail(await toMessage(mail, key?.id ?? newId()));
      },
      close: () => transport.close(),
    };
  }

  // No SMTP: each message is composed (the same MIME builder the transports use, without a transport's
  // plugins and stream hand-offs) and written to a temporary file, fsync-ed and renamed into place, on a worker
  // thread (MailWriter); `flush` then fsyncs the folder so the renames are durable too before the rows are
  // marked sent.
  const writer = new MailWriter();
  // What a killed process left half-written goes before this one writes anything.
  const swept = removePartialMessages(options.outboxDir);
  let folder: Promise<void> | undefined;
  // A folder made here is a new name in the data folder: fsync-ed there before any message is written into it, so
  // that a power cut cannot take the folder, and the mails marked sent, with it (found by the twenty-ninth
  // session's probe: the folder's entries were fsync-ed, never its own name).
  const ensureFolder = () =>
    (folder ??= mkdir(options.outboxDir, { recursive: true })
      .then(async (made) => {
        if (made !== undefined) await fsyncPath(path.dirname(options.outboxDir));
      })
      .catch((error: unknown) => {
        folder = undefined;
        throw error;
      }));
  return {
    async send(mail, key) {
      // Named by the outbox row, not by the attempt: a row sent again after a kill (delivered, not yet marked
      // sent) replaces its own file through the rename below, so the folder holds each message once.
      const id = key?.id ?? newId();
      const stamp = key?.createdAt ?? new Date().toISOString();
      await swept;
      await ensureFolder();
      // Only letters, digits and dashes from the row (a time such as 2026-03-02T09:00:00.000Z, a UUID).
      const base = `${stamp}-${id}`.replace(/[^0-9A-Za-z-]/g, '-');
      const name = `${base}.eml`;
      const tmp = path.join(
        options.outboxDir,
        `.${base}.${randomBytes(6).toString('hex')}.eml.tmp`,
      );
      try {
        await writer.write(await toMessage(mail, id), tmp, path.join(options.outboxDir, name));
      } catch (error) {
        folder = undefined; // e.g. the folder was removed: create it again on the retry
        throw error;
      }
      options.log.info({ file: name, to: mail.to }, 'Mail written to the outbox folder');
      if (mail.logLine !== undefined) options.log.info(mail.logLine);
    },
    async flush() {
      await ensureFolder();
      await fsyncPath(options.outboxDir);
    },
    close: () => {
      void writer.close();
    },
  };
}
