import { openAsBlob } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import {
  claimDue,
  currentPayload,
  markFailed,
  markSent,
  withoutSecret,
  OUTBOX_KINDS,
  readForward,
  readMail,
  releaseClaims,
  releaseGoneClaims,
  repairClockStep,
  retryDelayMs,
  type OutboxRow,
} from '../repositories/outbox.js';
import { MAIL_SEND_ALLOWANCE_MS, type Mailer } from './mailer.js';
import { CLAIMANT, claimantGone } from './process-mark.js';
import { findStoredUpload } from './uploads.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { FILES_REPLACED } from '../db/sqlite-files.js';
import { codeOf } from '../storage-error.js';

const LEASE_MS = 5 * 60_000;
/** Rows claimed at once: one commit claims them, one marks the delivered ones sent. */
const BATCH = 100;
/** Deliveries of a batch in flight at once (each waits on file or network I/O most of the time). */
const CONCURRENCY = 16;
const FORWARD_TIMEOUT_MS = 60_000;
/**
 * How long a forward in flight may still finish once the worker is stopped (a SIGTERM): cut at once, one the form
 * service had taken whole but not yet answered was given back and posted again at the next start (found by the
 * twenty-fourth session's fault probe). Well within the server's 10 s shutdown grace.
 */
const STOP_GRACE_MS = 5_000;
/**
 * How much longer than that `stop` waits for the runs to end (their marks' write): a mail whose SMTP server has not
 * yet confirmed it is not cut short (it may have been delivered), and waiting for it held the shutdown past its 10 s,
 * ended by force with exit code 1 (found by the twenty-fourth session's fault probe). Its row stays claimed, and is
 * sent again once its lease runs out (delivery over SMTP is at least once).
 */
const STOP_MARKS_MS = 2_000;
/** Pauses before the marks of delivered mail are written again when the database is busy: 1 s, doubling to 10 s. */
const MARKS_RETRY_FIRST_MS = 1_000;
const MARKS_RETRY_MAX_MS = 10_000;
/**
 * The error recorded for a row whose stored content is not an e-mail or forward (only a hand-edited database makes
 * one). It was recorded as the parser's or the form builder's words ("Unexpected token…", "Cannot convert
 * undefined or null to object"), which named neither the row nor what to do (noted by the twenty-first session).
 */
const UNREADABLE =
  'Its stored content cannot be read (was the row edited by hand?): mend or delete the row; until then it is ' +
  'tried again with the back-off';

export { retryDelayMs };

interface WorkerOptions {
  db: Db;
  mailer: Mailer;
  clock: Clock;
  log: FastifyBaseLogger;
  uploadsDir: string;
  pollMs: number;
  /** How long a forward waits for the form service's answer (default 60 s; tests shorten it). */
  forwardTimeoutMs?: number;
  /** How long forwards in flight may go on once the worker is stopped (default 5 s; tests shorten it). */
  stopGraceMs?: number;
}

/** Sends queued mail and forwards from the outbox table, with retries and back-off. */
export class OutboxWorker {
  #timers = new Map<OutboxRow['kind'], NodeJS.Timeout>();
  #running = new Map<OutboxRow['kind'], Promise<number>>();
  #stopped = false;
  /** Settled once `stop` has ended (its wait for the runs is bounded): releases those waiting on a run. */
  #halted: Promise<void>;
  #halt: () => void = () => undefined;
  /** Aborted by `stop`: no delivery is begun after it. */
  #stopping = new AbortController();
  /** Aborted `stopGraceMs` after `stop`: cuts short the forwards in flight, which may wait for a minute. */
  #cutShort = new AbortController();
  #again = new Set<OutboxRow['kind']>();
  /** The message of the poll's failure while it keeps failing the same way: said once, not at every poll. */
  #failing: string | undefined;
  /** The clock's time at the last look at it (ms): a time before it means the wall clock was set back. */
  #lastSeen: number | undefined;
  /** The first run's giving up of the claims of workers that are gone (`releaseGoneClaims`), once per start. */
  #goneClaimsReleased: Promise<void> | undefined;

  constructor(private readonly options: WorkerOptions) {
    this.#halted = new Promise((resolve) => (this.#halt = resolve));
  }

  start(): void {
    this.#stopped = false;
    this.#goneClaimsReleased = undefined;
    this.#stopping = new AbortController();
    this.#cutShort = new AbortController();
    this.#halted = new Promise((resolve) => (this.#halt = resolve));
    // Each kind is delivered in a lane of its own: a form service that takes connections and never answers holds
    // each forward for up to a minute, and held the mail of the same batches with it, login links included (found
    // by the twentieth session's fault probe).
    for (const kind of OUTBOX_KINDS) {
      const tick = () => {
        void this.runLane(kind)
          .then(() => {
            if (this.#failing === undefined) return;
            this.#failing = undefined;
            this.options.log.info('Outbox poll works again');
          })
          .catch((error: unknown) => this.#pollFailed(error))
          .finally(() => {
            if (!this.#stopped) this.#timers.set(kind, setTimeout(tick, this.options.pollMs));
          });
      };
      this.#timers.set(kind, setTimeout(tick, 0));
    }
  }

  /**
   * Logs a failed poll once while it keeps failing the same way: a database moved away or damaged failed every
   * poll (every 2 s) with an error and its stack, for ever (found by the nineteenth session's fault probe); its
   * cause is logged once where it is found. A different failure is logged again, and so is the poll working again.
   */
  #pollFailed(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (message === this.#failing) return;
    this.#failing = message;
    // The database stopped, restarting or out of reach is the surroundings', not the code's: said at warn with its
    // code and message and no stack, as requests' 503s are (a PostgreSQL restart logged an error with a stack for
    // each way its start refused connections: found by the thirtieth session's PostgreSQL probe).
    if (isDatabaseUnavailable(error)) {
      const { code } = error as { code?: unknown };
      this.options.log.warn(
        { fault: { code, message } },
        'Outbox poll failed (said once while it fails this way; the outbox is polled again all the same)',
      );
      return;
    }
    this.options.log.error(
      { err: error },
      'Outbox poll failed (said once while it fails this way; the outbox is polled again all the same)',
    );
  }

  /**
   * Stops polling and lets a run in progress end once the mail being written has been: the rest of its batch is
   * given back unsent, and forwards in flight are cut short and given back too, all for the next start, with no
   * attempt counted. Later `runOnce` calls do nothing. It waited for the whole batch (a hundred rows, and each
   * forward up to a minute for the form service), so a server shut down with a backlog outlasted its grace period
   * and was ended by force (found by the twentieth session's API probe).
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#stopping.abort();
    for (const timer of this.#timers.values()) clearTimeout(timer);
    const grace = this.options.stopGraceMs ?? STOP_GRACE_MS;
    const cut = setTimeout(() => this.#cutShort.abort(), grace);
    let giveUp: NodeJS.Timeout | undefined;
    const runs = [...this.#running.values()].map((run) => run.catch(() => undefined));
    await Promise.race([
      Promise.all(runs),
      new Promise<void>((resolve) => {
        giveUp = setTimeout(() => {
          this.options.log.warn(
            'The outbox stopped with a delivery still in flight (an SMTP server slow to confirm it): its row ' +
              'stays claimed, and is sent again once its claim runs out',
          );
          resolve();
        }, grace + STOP_MARKS_MS);
      }),
    ]);
    clearTimeout(cut);
    clearTimeout(giveUp);
    this.#halt();
  }

  /**
   * Processes every due row; returns how many were sent. A call during a run makes that run go round once
   * more, so a row queued just before the call is always picked up by the promise it gets.
   */
  runOnce(): Promise<number> {
    if (this.#stopped) return Promise.resolve(0);
    const done = Promise.all(OUTBOX_KINDS.map((kind) => this.runLane(kind))).then(
      ([mail = 0, forward = 0]) => mail + forward,
    );
    // Whoever waits on a run (a submission's background task, which the shutdown drains) waits no longer than the
    // stop does: a run left with an unconfirmed SMTP send held the shutdown's drain past its 10 s, ended by force
    // with exit code 1 (found by the twenty-fourth session's second fault probe).
    return Promise.race([done, this.#halted.then(() => 0)]);
  }

  /** {@link runOnce} for the rows of one kind, in a lane of their own (what the poll runs, lane by lane). */
  runLane(kind: OutboxRow['kind']): Promise<number> {
    if (this.#stopped) return Promise.resolve(0);
    const running = this.#running.get(kind);
    if (running !== undefined) {
      this.#again.add(kind);
      return running;
    }
    const run = async () => {
      let sent = 0;
      do {
        this.#again.delete(kind);
        sent += await this.#process(kind);
      } while (this.#again.has(kind) && !this.#stopped);
      return sent;
    };
    const started = run().finally(() => this.#running.delete(kind));
    this.#running.set(kind, started);
    return started;
  }

  /**
   * Makes due what a wall clock set back would hold up ({@link repairClockStep}): when the worker first runs (the
   * clock may have stepped while the server was stopped) and whenever the clock reads earlier than it did at the
   * last look. The claims themselves read only due rows.
   */
  async #repairAfterClockStep(): Promise<void> {
    const now = this.options.clock();
    if (this.#lastSeen !== undefined && now.getTime() >= this.#lastSeen) {
      this.#lastSeen = now.getTime();
      return;
    }
    const repaired = await this.options.db.write((trx) => repairClockStep(trx, now, LEASE_MS));
    if (repaired > 0) {
      this.options.log.warn(
        { repaired },
        'Outbox rows were waiting on times further ahead than their rules allow (the wall clock was set back): ' +
          'they are due now',
      );
    }
    this.#lastSeen = now.getTime();
  }

  /**
   * Gives up the claims of workers of this host that are gone (a killed process, an earlier run of this pid in a
   * container), once when the worker first runs: their rows are delivered now, not when their leases run out.
   * Until it has succeeded it is tried again at the next run.
   */
  #releaseGoneClaims(): Promise<void> {
    this.#goneClaimsReleased ??= (async () => {
      const { db, clock, log } = this.options;
      const released = await db.write((trx) => releaseGoneClaims(trx, clock(), claimantGone));
      if (released > 0) {
        log.info(
          { released },
          'Outbox rows claimed by a process of this host that is gone (killed) are delivered now, not when their ' +
            'claim runs out',
        );
      }
    })().catch((error: unknown) => {
      this.#goneClaimsReleased = undefined;
      throw error;
    });
    return this.#goneClaimsReleased;
  }

  async #process(kind: OutboxRow['kind']): Promise<number> {
    const { db, clock } = this.options;
    await this.#repairAfterClockStep();
    await this.#releaseGoneClaims();
    let sent = 0;
    for (;;) {
      const claimedAt = clock().getTime();
      const rows = await db.write((trx) =>
        claimDue(trx, db.dialect, new Date(claimedAt), LEASE_MS, BATCH, kind, CLAIMANT),
      );
      if (rows.length === 0) return sent;
      // A delivery is begun only while its longest wait still ends within the lease: after it, another worker
      // may take the row. A batch of forwards to a service that never answers runs in waves of 60 s, seven of
      // them for a hundred rows, past the five minutes (found by the twenty-first session's staff-tool probe);
      // the rows not begun by then are given back and claimed again with a new lease.
      const lastStart =
        claimedAt +
        LEASE_MS -
        (kind === 'forward' ? this.#forwardTimeoutMs : MAIL_SEND_ALLOWANCE_MS);
      // Delivered mails are marked sent together after the batch: one commit instead of one a row. A crash
      // in between re-sends at most this batch once its lease runs out (over SMTP delivery is at least once;
      // the outbox folder names each message by its row, so a re-sent one replaces its own file). A forward is
      // marked sent as soon as the form service has taken it: a batch of forwards may last minutes, and a crash
      // within it posted every forward of the batch again (found by the twenty-fourth session's fault probe: 26
      // of 40 due-diligence requests posted twice after one kill). Its Idempotency-Key is its row's id, so a
      // form service can still tell the rare repeat (a crash between its answer and the mark).
      const delivered: string[] = [];
      // What a delivered mail's row keeps once sent, when not its whole payload (a login mail: not its token).
      const sentPayloads: { id: string; payload: string }[] = [];
      let markedAtOnce = 0;
      const failed: { row: OutboxRow; message: string }[] = [];
      const givenBack: string[] = [];
      const stopping = this.#stopping.signal;
      await inParallel(rows, CONCURRENCY, async (claimed) => {
        if (stopping.aborted || clock().getTime() > lastStart) {
          givenBack.push(claimed.id);
          return;
        }
        // A forward goes to the address it holds now: staff may have redirected it since it was claimed
        // (`pnpm admin outbox redirect`). That read failing (a database blip) counts as a failed attempt, with
        // its error and the usual wait: it threw past the batch, whose rows then stayed claimed for the whole
        // lease with no error recorded, those delivered beside it unmarked (found by the twenty-fifth session's
        // PostgreSQL probe).
        let row = claimed;
        try {
          if (claimed.kind === 'forward') row = await this.#current(claimed);
        } catch (error) {
          failed.push({ row: claimed, message: failureText(error) });
          return;
        }
        try {
          await this.#deliver(row, this.#cutShort.signal);
        } catch (error) {
          if (stopping.aborted) givenBack.push(row.id);
          else failed.push({ row, message: failureText(error) });
          return;
        }
        if (row.kind !== 'forward') {
          delivered.push(row.id);
          const kept = withoutSecret(row.payload);
          if (kept !== undefined) sentPayloads.push({ id: row.id, payload: kept });
          return;
        }
        try {
          await this.#writeMarks(claimedAt, () =>
            db.write((trx) => markSent(trx, [row.id], clock())),
          );
          markedAtOnce += 1;
        } catch {
          // Marked with the batch instead.
          delivered.push(row.id);
        }
      });
      if (delivered.length > 0) {
        // e.g. the mail files' directory entries: durable before the rows say "sent".
        await this.options.mailer.flush?.();
      }
      // Kept trying while the database is busy (another process holding the write lock past the 5 s wait): given
      // up, the delivered mails went out again once their lease ran out (noted by the twenty-third session).
      await this.#writeMarks(claimedAt, () =>
        db.write(async (trx) => {
          await markSent(trx, delivered, clock(), sentPayloads);
          await releaseClaims(trx, givenBack);
        }),
      );
      // The failures in a write of their own: one that cannot be marked must not undo the marks of the mails
      // delivered beside it, which then went out again at every lease (found by the twenty-third session's
      // staff-tool probe).
      if (failed.length > 0) {
        await db.write(async (trx) => {
          for (const { row, message } of failed) {
            const now = clock();
            const next = new Date(now.getTime() + retryDelayMs(row.attempts + 1));
            await markFailed(trx, row, message, next, now);
          }
        });
      }
      // Logged once the marks are stored (a write's work may run twice, so nothing else happens inside it).
      for (const { row, message } of failed) {
        this.options.log.warn(
          { outboxId: row.id, kind: row.kind, attempts: row.attempts + 1, err: message },
          'Outbox delivery failed; will retry',
        );
      }
      sent += delivered.length + markedAtOnce;
      if ((rows.length < BATCH && givenBack.length === 0) || this.#stopped) return sent;
    }
  }

  /**
   * Runs the write of a batch's marks, again after a pause each time the database is unavailable for now (busy,
   * restarting), for as long as the batch's lease lasts and the worker is not stopping; then once more. Any other
   * error, or the last try's, is thrown (the poll logs it).
   */
  async #writeMarks(claimedAt: number, write: () => Promise<void>): Promise<void> {
    let pause = MARKS_RETRY_FIRST_MS;
    for (;;) {
      try {
        await write();
        return;
      } catch (error) {
        const leaseLeft = claimedAt + LEASE_MS - this.options.clock().getTime();
        if (
          !isDatabaseUnavailable(error) ||
          // The database's files were deleted or replaced (the data folder deleted, say): writes stay refused
          // until a restart, and were tried again for the whole lease, each time with a stack (found by the
          // thirty-first session's fault probe). Thrown at once, it is logged once, at warn, by the poll.
          codeOf(error) === FILES_REPLACED ||
          this.#stopping.signal.aborted ||
          leaseLeft <= 0
        )
          throw error;
        // The surroundings', not the code's: one line, the fault's code and message, no stack (as the poll's).
        const { message } = error as Error;
        this.options.log.warn(
          { fault: { code: codeOf(error), message } },
          'The outbox could not yet record which mail was sent (the database is busy or out of reach); trying again',
        );
        // Cut short by a stop (then tried once more).
        await sleep(Math.min(pause, leaseLeft), undefined, { signal: this.#stopping.signal }).catch(
          () => undefined,
        );
        pause = Math.min(pause * 2, MARKS_RETRY_MAX_MS);
      }
    }
  }

  /** The row with the payload it holds now (the one claimed, if it cannot be read). */
  async #current(row: OutboxRow): Promise<OutboxRow> {
    const payload = await currentPayload(this.options.db.kysely, row.id);
    return payload === undefined ? row : { ...row, payload };
  }

  async #deliver(row: OutboxRow, stopping: AbortSignal): Promise<void> {
    if (row.kind === 'mail') {
      const mail = readMail(row.payload);
      if (mail === undefined) throw new Error(UNREADABLE);
      await this.options.mailer.send(mail, { id: row.id, createdAt: row.created_at });
      return;
    }
    const job = readForward(row.payload);
    if (job === undefined) throw new Error(UNREADABLE);
    const form = new FormData();
    for (const [name, value] of Object.entries(job.fields)) form.append(name, value);
    if (job.file !== undefined) {
      // openAsBlob reads lazily: a missing file would only fail the fetch, as a network error, so it is looked
      // for first. A gone file goes without (the team's e-mail says the same; see mailer.ts).
      const { file, missing } = await findStoredUpload(this.options.uploadsDir, job.file.path);
      if (!missing) {
        form.append(
          'FileUpload',
          await openAsBlob(file, { type: job.file.contentType }),
          job.file.filename,
        );
      } else {
        this.options.log.error(
          { outboxId: row.id, file, filename: job.file.filename },
          'An attachment’s stored file is missing: the form is forwarded without it',
        );
      }
    }
    // The time limit is a timer of our own, held until the answer: an `AbortSignal.timeout()` passed only inside
    // `AbortSignal.any()` can be garbage-collected on Node 20 and then never fires (nodejs/node#57736), so a form
    // service that never answered held each forward for undici's 300 s instead of 60 s (found by the
    // twenty-first session's staff-tool probe).
    const timeout = new AbortController();
    const timer = setTimeout(
      () =>
        timeout.abort(
          new DOMException(
            `The form service did not answer within ${this.#forwardTimeoutMs / 1000} s`,
            'TimeoutError',
          ),
        ),
      this.#forwardTimeoutMs,
    );
    const { url, authorization } = withoutCredentials(job.url);
    try {
      const response = await fetch(url, {
        method: 'POST',
        body: form,
        // The same for every attempt at this forward: a form service may take a repeat for what it is.
        headers: {
          'idempotency-key': row.id,
          ...(authorization === undefined ? {} : { authorization }),
        },
        redirect: 'manual',
        signal: AbortSignal.any([timeout.signal, stopping]),
      });
      await response.body?.cancel();
      if (!response.ok) {
        throw new Error(`Form service answered ${response.status}`);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  get #forwardTimeoutMs(): number {
    return this.options.forwardTimeoutMs ?? FORWARD_TIMEOUT_MS;
  }
}

/**
 * A form service's address without the user and password it may hold, and those as HTTP Basic credentials.
 * `fetch` refuses an address with credentials in it, so a FORM_SERVICE_URL such as `https://user:pass@forms…`
 * (which the configuration takes, and `outbox list` prints with the password starred out) failed every forward
 * for ever, its error ("Request cannot be constructed from a URL that includes credentials") logged and stored
 * with the address whole, password and all (found by the twenty-second session's probe).
 */
export function withoutCredentials(address: string): { url: string; authorization?: string } {
  const url = new URL(address);
  if (url.username === '' && url.password === '') return { url: address };
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  return {
    url: url.href,
    authorization: `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`,
  };
}

/** Runs `task` on every item, at most `limit` at a time; resolves when all have finished. */
async function inParallel<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * An error's message followed by its causes' ("fetch failed: connect ECONNREFUSED 127.0.0.1:9"): fetch says only
 * "fetch failed", and why is in its cause (noted by the twenty-third session: a forward to a wrong address recorded
 * nothing an operator could act on).
 */
export function failureText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth += 1) {
    const message = current instanceof Error ? current.message : String(current);
    if (message !== '' && !parts.includes(message)) parts.push(message);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(': ');
}
