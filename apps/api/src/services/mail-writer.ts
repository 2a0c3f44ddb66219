import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** What nodemailer's MailComposer takes: plain data, so it crosses to the worker as a structured clone. */
export interface MailMessage {
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  attachments: { filename: string; contentType: string; path: string }[];
}

/**
 * The worker's code: composes a message with nodemailer's MailComposer, writes it to `tmp`, fsyncs it and renames
 * it to `file`, then answers `{ id }` (or `{ id, error }`). Plain CommonJS, run with `eval`, so that it is the same
 * under the TypeScript sources (tests) and the build. It loads MailComposer from the path the API resolved.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { promisify } = require('node:util');
const MailComposer = require(workerData.composer);
const open = promisify(fs.open);
const write = promisify(fs.write);
const fsync = promisify(fs.fsync);
const close = promisify(fs.close);
const rename = promisify(fs.rename);

async function writeMessage(job) {
  const fd = await open(job.tmp, 'w', 0o600);
  try {
    // Streamed to the file, never built whole in memory: a message carries its attachment base64-encoded
    // (20 MB becomes 27), and the outbox writes 16 at once (build() held over a gigabyte for 20 such mails).
    // Written here rather than through a write stream, which would close the descriptor on an error (a full
    // disk) before the close below: a second close could shut a file opened meanwhile.
    for await (const data of new MailComposer(job.message).compile().createReadStream()) {
      for (let at = 0; at < data.length; ) {
        const { bytesWritten } = await write(fd, data, at, data.length - at);
        at += bytesWritten;
      }
    }
    await fsync(fd);
  } finally {
    await close(fd);
  }
  await rename(job.tmp, job.file);
}

parentPort.on('message', (job) => {
  writeMessage(job).then(
    () => parentPort.postMessage({ id: job.id }),
    (error) => {
      // The attempt's temporary file goes (each attempt writes its own; the retry starts afresh).
      fs.unlink(job.tmp, () => {
        parentPort.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
      });
    },
  );
});
`;

interface Pending {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Composes and writes outbox messages on a worker thread. Building a MIME message is most of the CPU a submission
 * costs; on the worker it no longer holds up the requests (a machine has more than one core). Each message is
 * durable (written, fsync-ed and renamed into place) when `write` resolves. If the worker fails or exits, every
 * message in flight is rejected (the outbox retries them) and the next `write` starts a new worker.
 */
export class MailWriter {
  #worker: Worker | undefined;
  #pending = new Map<number, Pending>();
  #next = 0;
  #closed = false;

  write(message: MailMessage, tmp: string, file: string): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('The mail writer is closed.'));
    const worker = this.#ensureWorker();
    this.#next += 1;
    const id = this.#next;
    return new Promise<void>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, message, tmp, file });
    });
  }

  /** Stops the worker; messages still in flight are rejected (their outbox rows stay unsent). */
  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker !== undefined) await worker.terminate();
    this.#failAll(new Error('The mail writer was closed.'));
  }

  #ensureWorker(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        composer: createRequire(import.meta.url).resolve('nodemailer/lib/mail-composer'),
      },
    });
    worker.on('message', ({ id, error }: { id: number; error?: string }) => {
      const pending = this.#pending.get(id);
      if (pending === undefined) return;
      this.#pending.delete(id);
      if (error === undefined) pending.resolve();
      else pending.reject(new Error(error));
    });
    const lost = (error: Error) => {
      if (this.#worker === worker) this.#worker = undefined;
      this.#failAll(error);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`The mail writer stopped (exit code ${code}).`)));
    // An idle worker does not keep the process alive; the messages in flight are retried by the outbox anyway.
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  #failAll(error: Error): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const { reject } of pending) reject(error);
  }
}
