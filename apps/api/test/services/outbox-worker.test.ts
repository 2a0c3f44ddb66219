import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/connect.js';
import {
  claimDue,
  enqueue,
  listOutbox,
  listUnsent,
  redirectForwards,
  type MailPayload,
} from '../../src/repositories/outbox.js';
import type { Mailer } from '../../src/services/mailer.js';
import { OutboxWorker, retryDelayMs } from '../../src/services/outbox-worker.js';
import { CLAIMANT, THIS_PROCESS } from '../../src/services/process-mark.js';
import { silentLogger, TestClock } from '../helper.js';

describe('retryDelayMs', () => {
  it('should double from 30 seconds and stop at one hour', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map(retryDelayMs)).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000,
    ]);
  });
});

/** A logger that keeps what is logged at warn and error, as [level, ...arguments]. */
const recordingLogger = (logged: unknown[][]) =>
  ({
    ...silentLogger,
    warn: (...args: unknown[]) => logged.push(['warn', ...args]),
    error: (...args: unknown[]) => logged.push(['error', ...args]),
  }) as unknown as FastifyBaseLogger;

const has = (fields: unknown, key: string) =>
  typeof fields === 'object' && fields !== null && key in fields;

describe('OutboxWorker', () => {
  let dataDir: string;
  let db: Db;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'firm-outbox-'));
    db = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir });
  });
  afterEach(async () => {
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A mailer that notes each mail's recipient in `sent`. */
  const recordingMailer = (sent: string[]): Mailer => ({
    async send(mail: MailPayload) {
      sent.push(mail.to);
    },
    close: () => undefined,
  });

  /** A worker over this test's database that polls only when asked (`runOnce`). */
  const workerWith = (
    mailer: Mailer,
    clock: TestClock,
    options: { forwardTimeoutMs?: number; stopGraceMs?: number; db?: Db } = {},
  ) =>
    new OutboxWorker({
      db,
      mailer,
      clock: clock.now,
      log: silentLogger,
      uploadsDir: dataDir,
      pollMs: 60_000,
      ...options,
    });

  it('should pick up a row queued while a run is in progress', async () => {
    const clock = new TestClock();
    const sent: string[] = [];
    let release: () => void = () => undefined;
    const firstSend = new Promise<void>((resolve) => (release = resolve));
    const mailer: Mailer = {
      async send(mail: MailPayload) {
        if (sent.length === 0) await firstSend;
        sent.push(mail.subject);
      },
      close: () => undefined,
    };
    const worker = workerWith(mailer, clock);
    const mail = (subject: string) => ({
      kind: 'mail' as const,
      payload: { to: 'a@example.com', subject, text: 'x' },
    });

    await enqueue(db.kysely, mail('first'), clock.now());
    const running = worker.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 20)); // the first send is now blocked
    await enqueue(db.kysely, mail('second'), clock.now());
    const joined = worker.runOnce();
    release();
    expect(await joined).toBe(2);
    expect(await running).toBe(2);
    expect(sent).toEqual(['first', 'second']);
    expect((await listOutbox(db.kysely)).every((row) => row.sent_at !== null)).toBe(true);
  });

  // Found by the twenty-eighth session's probe: after a SIGKILL under magic-link logins, the login links the killed
  // worker had claimed waited up to its five-minute lease, though the server was back in seconds.
  it('should deliver at once what a killed worker of this host had claimed, and leave a live claimant its rows', async () => {
    const clock = new TestClock();
    const sent: string[] = [];
    const child = spawn(process.execPath, ['-e', '']);
    const gonePid = child.pid as number;
    await new Promise((resolve) => child.once('exit', resolve));
    const { host, run } = THIS_PROCESS;
    const claimants = {
      killed: `${host}/${gonePid}/0badc0de`,
      'earlier run': `${host}/${process.pid}/${run === '00000000' ? '11111111' : '00000000'}`,
      live: `${host}/${process.ppid}/0badc0de`,
      'other host': `${host}x/${gonePid}/0badc0de`,
      unreadable: 'someone',
    };
    for (const [to, claimant] of Object.entries(claimants)) {
      const id = await enqueue(
        db.kysely,
        { kind: 'mail', payload: { to, subject: 's', text: 't' } },
        clock.now(),
      );
      await db.kysely
        .updateTable('outbox')
        .set({
          claimed_by: claimant,
          locked_until: new Date(clock.now().getTime() + 4 * 60_000).toISOString(),
        })
        .where('id', '=', id)
        .execute();
    }
    const worker = workerWith(recordingMailer(sent), clock);
    expect(await worker.runOnce()).toBe(2);
    expect(sent.sort()).toEqual(['earlier run', 'killed']);
    // What it claims itself carries its own mark; the others wait for their leases.
    await enqueue(
      db.kysely,
      { kind: 'mail', payload: { to: 'new', subject: 's', text: 't' } },
      clock.now(),
    );
    expect(await worker.runOnce()).toBe(1);
    const rows = await db.kysely
      .selectFrom('outbox')
      .select(['payload', 'claimed_by', 'sent_at'])
      .execute();
    const byTo = Object.fromEntries(
      rows.map((row) => [(JSON.parse(row.payload) as { to: string }).to, row]),
    );
    expect(byTo.new?.claimed_by).toBe(CLAIMANT);
    for (const to of ['live', 'other host', 'unreadable']) {
      expect(byTo[to]?.sent_at, to).toBeNull();
    }
    clock.advance(4 * 60_000 + 1);
    expect(await worker.runOnce()).toBe(3);
  });

  // Found by the seventeenth session's fault probe: the wall clock set back an hour held every queued mail, every
  // retry and every claimed row's lease for that hour.
  it('should not hold queued mail, retries or leases for a wall clock set back', async () => {
    const clock = new TestClock();
    const sent: string[] = [];
    let refuse = true;
    const mailer: Mailer = {
      async send(mail: MailPayload) {
        if (refuse) throw new Error('mail server says no');
        sent.push(mail.subject);
      },
      close: () => undefined,
    };
    const worker = workerWith(mailer, clock);
    const mail = (subject: string) => ({
      kind: 'mail' as const,
      payload: { to: 'a@example.com', subject, text: 'x' },
    });
    // A retry due 30 s from now; a row claimed by a worker that stopped (leased for 5 minutes); a new row.
    await enqueue(db.kysely, mail('retry'), clock.now());
    expect(await worker.runOnce()).toBe(0);
    refuse = false;
    await enqueue(db.kysely, mail('leased'), clock.now());
    await db.write((trx) => claimDue(trx, db.dialect, clock.now(), 5 * 60_000, 1, 'mail'));
    await enqueue(db.kysely, mail('new'), clock.now());

    // With the clock running on, the retry and the lease are kept.
    clock.advance(10_000);
    expect(await worker.runOnce()).toBe(1);
    expect(sent).toEqual(['new']);

    // Set back an hour: neither can be that far ahead of a right clock, so both are taken now.
    clock.advance(-3_600_000);
    expect(await worker.runOnce()).toBe(2);
    expect(sent.slice(1).sort()).toEqual(['leased', 'retry']);
    expect((await listOutbox(db.kysely)).every((row) => row.sent_at !== null)).toBe(true);
  });

  // The rule for a clock set back runs when the worker starts and when it sees its clock go back, not in every
  // claim (the twenty-first session's scale probe: it made every claim read every row waiting for a retry).
  it('should make due, at its start, what a clock set back while the server was stopped would hold up', async () => {
    const before = new TestClock();
    before.advance(3_600_000);
    const sent: string[] = [];
    const mail = (subject: string) => ({
      kind: 'mail' as const,
      payload: { to: 'a@example.com', subject, text: 'x' },
    });
    // Queued an hour "later": a retry due 30 s after a failure, a row claimed by a worker that stopped, a new row.
    await enqueue(db.kysely, mail('retry'), before.now());
    const failing = workerWith(
      {
        send: () => Promise.reject(new Error('mail server says no')),
        close: () => undefined,
      },
      before,
    );
    expect(await failing.runOnce()).toBe(0);
    await failing.stop();
    await enqueue(db.kysely, mail('leased'), before.now());
    const leased = await db.write((trx) =>
      claimDue(trx, db.dialect, before.now(), 5 * 60_000, 1, 'mail'),
    );
    expect(leased.map((r) => JSON.parse(r.payload) as MailPayload).map((m) => m.subject)).toEqual([
      'leased',
    ]);
    await enqueue(db.kysely, mail('new'), before.now());

    // The server starts again with the clock an hour earlier: everything goes at once.
    const now = new TestClock();
    const worker = workerWith(
      {
        async send(m: MailPayload) {
          sent.push(m.subject);
        },
        close: () => undefined,
      },
      now,
    );
    expect(await worker.runOnce()).toBe(3);
    expect(sent.sort()).toEqual(['leased', 'new', 'retry']);

    // A retry that waits within its own delay is kept waiting, and costs the claims nothing to skip.
    const failingAgain = workerWith(
      { send: () => Promise.reject(new Error('down')), close: () => undefined },
      now,
    );
    await enqueue(db.kysely, mail('later'), now.now());
    expect(await failingAgain.runOnce()).toBe(0);
    const waiting = await listUnsent(db.kysely);
    expect(waiting.map((r) => [r.attempts, r.next_attempt_at])).toEqual([
      [1, new Date(now.now().getTime() + 30_000).toISOString()],
    ]);
    expect(await worker.runOnce()).toBe(0);
  });

  // Found by the nineteenth session's fault probe: with the database moved away, "Outbox poll failed" with its
  // stack was logged at every poll (every 2 s), for ever.
  it('should log a poll that keeps failing the same way once, and the poll working again', async () => {
    const logged: string[] = [];
    const log = {
      ...silentLogger,
      error: (_: unknown, message: string) => logged.push(`error: ${message}`),
      info: (message: string) => logged.push(`info: ${message}`),
    } as unknown as FastifyBaseLogger;
    let failure: string | null = 'database disk image is malformed';
    const worker = new OutboxWorker({
      db,
      mailer: { send: () => Promise.resolve(), close: () => undefined },
      clock: new TestClock().now,
      log,
      uploadsDir: dataDir,
      pollMs: 5,
    });
    const runLane = worker.runLane.bind(worker);
    let polls = 0;
    worker.runLane = (kind) => {
      polls += 1;
      return failure === null ? runLane(kind) : Promise.reject(new Error(failure));
    };
    worker.start();
    try {
      await expect.poll(() => polls).toBeGreaterThan(5);
      failure = 'unable to open database file';
      const at = polls;
      await expect.poll(() => polls).toBeGreaterThan(at + 5);
      failure = null;
      await expect.poll(() => logged.length).toBe(3);
    } finally {
      await worker.stop();
    }
    expect(logged).toEqual([
      expect.stringMatching(/^error: Outbox poll failed/),
      expect.stringMatching(/^error: Outbox poll failed/),
      'info: Outbox poll works again',
    ]);
  });

  // Found by the thirtieth session's PostgreSQL probe: a PostgreSQL restart logged "Outbox poll failed" at error with
  // a stack for each way it refused connections (shutting down, ECONNREFUSED, starting up), where requests' 503s are
  // said at warn, without one.
  it('should log a poll failing for a database out of reach at warn, with its code and no stack', async () => {
    const logged: unknown[][] = [];
    const log = {
      ...silentLogger,
      error: (...args: unknown[]) => logged.push(['error', ...args]),
      warn: (...args: unknown[]) => logged.push(['warn', ...args]),
    } as unknown as FastifyBaseLogger;
    const worker = new OutboxWorker({
      db,
      mailer: { send: () => Promise.resolve(), close: () => undefined },
      clock: new TestClock().now,
      log,
      uploadsDir: dataDir,
      pollMs: 5,
    });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
      syscall: 'connect',
    });
    worker.runLane = () => Promise.reject(refused);
    worker.start();
    try {
      await expect.poll(() => logged.length).toBeGreaterThan(0);
    } finally {
      await worker.stop();
    }
    expect(logged).toEqual([
      [
        'warn',
        { fault: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' } },
        expect.stringMatching(/^Outbox poll failed/),
      ],
    ]);
  });

  it('should never drop a row that keeps failing', async () => {
    const clock = new TestClock();
    const mailer: Mailer = {
      send: () => Promise.reject(new Error('mail server says no')),
      close: () => undefined,
    };
    const worker = workerWith(mailer, clock);
    await enqueue(
      db.kysely,
      { kind: 'mail', payload: { to: 'a@example.com', subject: 's', text: 't' } },
      clock.now(),
    );
    for (let i = 0; i < 12; i += 1) {
      await worker.runOnce();
      clock.advance(3_600_000);
    }
    const [row] = await listOutbox(db.kysely);
    expect(row).toMatchObject({ attempts: 12, sent_at: null, last_error: 'mail server says no' });
  });

  it('should record that a row edited by hand cannot be read, keep it, and deliver the rest', async () => {
    const clock = new TestClock();
    const sent: string[] = [];
    const worker = workerWith(recordingMailer(sent), clock);
    const good = await enqueue(
      db.kysely,
      { kind: 'mail', payload: { to: 'a@example.com', subject: 's', text: 't' } },
      clock.now(),
    );
    // Not JSON; JSON of the wrong shape (a forward without fields, a mail without a subject, an attachment that is
    // not a file); the parser's and the form builder's own words were recorded for these.
    const edited = {
      'not json': { kind: 'mail', payload: '{"to":' },
      'no fields': { kind: 'forward', payload: '{"url":"https://forms.example/f"}' },
      'no subject': { kind: 'mail', payload: '{"to":"b@example.com","text":"t"}' },
      'bad file': {
        kind: 'forward',
        payload: '{"url":"https://forms.example/f","fields":{},"file":{"path":3}}',
      },
    } as const;
    for (const [name, { kind, payload }] of Object.entries(edited)) {
      const id = await enqueue(
        db.kysely,
        { kind: 'mail', payload: { to: name, subject: 's', text: 't' } },
        clock.now(),
      );
      await db.kysely.updateTable('outbox').set({ kind, payload }).where('id', '=', id).execute();
    }
    expect(await worker.runOnce()).toBe(1);
    expect(sent).toEqual(['a@example.com']);
    const rows = await listOutbox(db.kysely);
    expect(rows.find((r) => r.id === good)?.sent_at).not.toBeNull();
    const kept = rows.filter((r) => r.id !== good);
    expect(kept).toHaveLength(4);
    for (const row of kept) {
      expect(row).toMatchObject({ attempts: 1, sent_at: null });
      expect(row.last_error).toMatch(
        /^Its stored content cannot be read \(was the row edited by hand\?\)/,
      );
    }
  });

  // Found by the twenty-third session's staff-tool probe: a row whose attempts were edited to text failed to be
  // marked (`Invalid time value`), and the batch's write with it, so the good mails beside it were never marked
  // sent and went out again at every lease, seven times in half an hour.
  it('should mark a row whose attempts were edited to text, and send the mails beside it once', async () => {
    const clock = new TestClock();
    const sent: string[] = [];
    const worker = workerWith(recordingMailer(sent), clock);
    for (const to of ['a@example.com', 'b@example.com']) {
      await enqueue(
        db.kysely,
        { kind: 'mail', payload: { to, subject: 's', text: 't' } },
        clock.now(),
      );
    }
    const broken = await enqueue(
      db.kysely,
      { kind: 'mail', payload: { to: 'c@example.com', subject: 's', text: 't' } },
      clock.now(),
    );
    await sql`update outbox set attempts = 'abc', payload = '{"to":"c@example.com","text":"t"}' where id = ${broken}`.execute(
      db.kysely,
    );
    await worker.runOnce();
    clock.advance(10 * 60_000);
    await worker.runOnce();
    expect(sent.sort()).toEqual(['a@example.com', 'b@example.com']);
    const rows = await listOutbox(db.kysely);
    expect(rows.filter((r) => r.sent_at !== null)).toHaveLength(2);
    const row = rows.find((r) => r.id === broken);
    expect(row).toMatchObject({ sent_at: null });
    expect(typeof row?.attempts).toBe('number');
    expect(row?.last_error).toMatch(/^Its stored content cannot be read/);
  });

  it('should mark mail sent once another process lets go of the write lock, and not send it again', async () => {
    const clock = new TestClock();
    const sent: string[] = [];
    // Another process (the staff tool, a second instance) takes the write lock while the mail is being written,
    // and keeps it past the 5 s a statement waits for it.
    const other = new Database(path.join(dataDir, 'portal.sqlite'));
    let released: Promise<void> | undefined;
    const mailer: Mailer = {
      async send(mail: MailPayload) {
        sent.push(mail.to);
        other.exec('begin immediate');
        released = new Promise((resolve) =>
          setTimeout(() => {
            other.exec('commit');
            resolve();
          }, 6_000),
        );
      },
      close: () => undefined,
    };
    const logged: unknown[][] = [];
    try {
      const worker = new OutboxWorker({
        db,
        mailer,
        clock: clock.now,
        log: recordingLogger(logged),
        uploadsDir: dataDir,
        pollMs: 60_000,
      });
      await enqueue(
        db.kysely,
        { kind: 'mail', payload: { to: 'a@example.com', subject: 's', text: 't' } },
        clock.now(),
      );
      expect(await worker.runOnce()).toBe(1);
      await released;
      expect((await listOutbox(db.kysely))[0]).toMatchObject({ sent_at: expect.anything() });
      // Each wait is one plain line, with the fault's code and no stack (thirty-second session).
      expect(logged).toEqual([
        [
          'warn',
          { fault: { code: 'SQLITE_BUSY', message: expect.any(String) } },
          expect.stringMatching(/^The outbox could not yet record which mail was sent/),
        ],
      ]);
      // Past the lease: a row left unmarked would be claimed and sent again here.
      clock.advance(10 * 60_000);
      await worker.runOnce();
      expect(sent).toEqual(['a@example.com']);
    } finally {
      if (other.inTransaction) other.exec('rollback');
      other.close();
    }
  }, 20_000);

  // Found by the thirty-first session's fault probe: with the data folder deleted while mail was being written
  // (`rm -rf "$DATA_DIR"`), the database refuses every write until a restart, and the outbox logged the refusal
  // of its sent marks at warn with a stack, again and again for the batch's five-minute lease.
  it('should say once, in a plain line, that it cannot record its marks once the data folder is deleted', async () => {
    const clock = new TestClock();
    const logged: unknown[][] = [];
    const mailer: Mailer = {
      async send() {
        await rm(dataDir, { recursive: true, force: true });
        throw Object.assign(
          new Error(`ENOENT: no such file or directory, open '${dataDir}/outbox/x'`),
          {
            code: 'ENOENT',
          },
        );
      },
      close: () => undefined,
    };
    const worker = new OutboxWorker({
      db,
      mailer,
      clock: clock.now,
      log: recordingLogger(logged),
      uploadsDir: dataDir,
      pollMs: 60_000,
    });
    await enqueue(
      db.kysely,
      { kind: 'mail', payload: { to: 'a@example.com', subject: 's', text: 't' } },
      clock.now(),
    );
    // The refusal is the poll's (or the background task's) to log, at warn without a stack: it lasts until a restart,
    // so it is not tried again for the lease.
    const outcome = await Promise.race([
      worker.runOnce().then(
        () => 'delivered',
        (error: unknown) => error,
      ),
      new Promise((resolve) => setTimeout(() => resolve('still trying'), 2_000)),
    ]);
    await worker.stop();
    expect(outcome).toMatchObject({ code: 'SQLITE_FILES_REPLACED' });
    expect(JSON.stringify(logged)).not.toContain('stack');
    expect(logged.filter(([, fields]) => fields instanceof Error || has(fields, 'err'))).toEqual(
      [],
    );
  });

  it('should deliver a backlog of several batches, some at once, marking rows sent only after flush', async () => {
    const clock = new TestClock();
    const events: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const mailer: Mailer = {
      async send(mail: MailPayload) {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight -= 1;
        if (mail.subject === 'bad 7') throw new Error('refused');
        events.push(`send ${mail.subject}`);
      },
      async flush() {
        const rows = await listOutbox(db.kysely);
        // Nothing of the batch being flushed is marked sent yet.
        events.push(`flush (${rows.filter((r) => r.sent_at !== null).length} sent before)`);
      },
      close: () => undefined,
    };
    const worker = workerWith(mailer, clock);
    for (let i = 0; i < 250; i += 1) {
      const subject = i === 7 ? 'bad 7' : `mail ${i}`;
      await enqueue(
        db.kysely,
        { kind: 'mail', payload: { to: 'a@example.com', subject, text: 'x' } },
        clock.now(),
      );
      clock.advance(1);
    }
    expect(await worker.runOnce()).toBe(249);
    expect(maxInFlight).toBeGreaterThan(1);
    // Three batches (100, 100, 50), each flushed once before its rows are marked sent.
    expect(events.filter((e) => e.startsWith('flush'))).toEqual([
      'flush (0 sent before)',
      'flush (99 sent before)',
      'flush (199 sent before)',
    ]);
    // Oldest first: batch by batch in queue order.
    const sends = events.filter((e) => e.startsWith('send')).map((e) => Number(e.split(' ')[2]));
    expect(sends.slice(0, 99).every((n) => n < 100)).toBe(true);
    expect(sends.slice(99, 199).every((n) => n >= 100 && n < 200)).toBe(true);
    const rows = await listOutbox(db.kysely);
    expect(rows.filter((r) => r.sent_at !== null)).toHaveLength(249);
    expect(rows.find((r) => r.sent_at === null)).toMatchObject({
      attempts: 1,
      last_error: 'refused',
      locked_until: null,
    });
  });

  // Found by the twentieth session's API probe: a stop waited for the whole batch of a hundred rows (and each forward
  // for up to a minute), so a server shut down with a backlog outlasted its grace period and was ended by force.
  it('should end a run once the mail being written has been when stopped, giving the rest back unsent', async () => {
    const clock = new TestClock();
    let sends = 0;
    const mailer: Mailer = {
      async send() {
        sends += 1;
        await new Promise((resolve) => setTimeout(resolve, 1));
      },
      close: () => undefined,
    };
    const worker = workerWith(mailer, clock);
    for (let i = 0; i < 250; i += 1) {
      await enqueue(
        db.kysely,
        { kind: 'mail', payload: { to: 'a@example.com', subject: `mail ${i}`, text: 'x' } },
        clock.now(),
      );
    }
    const running = worker.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await worker.stop();
    const sent = await running;
    // At most the deliveries in flight at once (16) were begun.
    expect(sent).toBeLessThanOrEqual(16);
    expect(sends).toBe(sent);
    expect(await worker.runOnce()).toBe(0);
    const rows = await listOutbox(db.kysely);
    expect(rows.filter((r) => r.sent_at !== null)).toHaveLength(sent);
    // The rest wait for the next start, with no lease to run out and no attempt counted.
    const unsent = rows.filter((r) => r.sent_at === null);
    expect(unsent).toHaveLength(250 - sent);
    expect(unsent.every((r) => r.locked_until === null && r.attempts === 0)).toBe(true);
    expect(await claimDue(db.kysely, db.dialect, clock.now(), 60_000, 1_000, 'mail')).toHaveLength(
      250 - sent,
    );
  });

  // Found by the twentieth session's fault probe: a form service that took connections and never answered held
  // each forward for up to a minute, and every mail of the same batches with it, login links included.
  it('should deliver mail while forwards wait on a form service that does not answer', async () => {
    const clock = new TestClock();
    const held: ServerResponse[] = [];
    const service = createServer((_req, res) => held.push(res));
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const sent: string[] = [];
    const worker = workerWith(
      {
        send: (mail: MailPayload) => {
          sent.push(mail.subject);
          return Promise.resolve();
        },
        close: () => undefined,
      },
      clock,
    );
    try {
      const { port } = service.address() as AddressInfo;
      await enqueue(
        db.kysely,
        { kind: 'forward', payload: { url: `http://127.0.0.1:${port}/f`, fields: { a: 'b' } } },
        clock.now(),
      );
      await enqueue(
        db.kysely,
        { kind: 'mail', payload: { to: 'a@example.com', subject: 'before', text: 'x' } },
        clock.now(),
      );
      const first = worker.runOnce();
      while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      // The forward is held; a login link queued now goes out all the same.
      await enqueue(
        db.kysely,
        { kind: 'mail', payload: { to: 'a@example.com', subject: 'login link', text: 'x' } },
        clock.now(),
      );
      const started = Date.now();
      // Sent, and marked sent (a batch's rows are marked together once it is delivered: the mark can follow the
      // send by a moment, which a loaded machine made long enough to fail this test when it looked at once).
      const mailsSent = async () =>
        (await listOutbox(db.kysely))
          .filter((r) => r.kind === 'mail')
          .every((r) => r.sent_at !== null);
      await Promise.race([
        (async () => {
          while (!(sent.includes('login link') && (await mailsSent())))
            await new Promise((resolve) => setTimeout(resolve, 10));
        })(),
        worker.runOnce(),
      ]);
      expect(sent).toEqual(['before', 'login link']);
      expect(await mailsSent()).toBe(true);
      expect(Date.now() - started).toBeLessThan(2_000);
      await worker.stop();
      expect(await first).toBeGreaterThanOrEqual(1);
    } finally {
      // Stopped before the database closes, however the test went (a run left going used a closed database).
      await worker.stop();
      for (const res of held) res.destroy();
      await new Promise((resolve) => service.close(resolve));
    }
  });

  it('should cut short a forward the form service holds when stopped, and give it back', async () => {
    const clock = new TestClock();
    const held: ServerResponse[] = [];
    const service = createServer((_req, res) => held.push(res));
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    try {
      const worker = workerWith({ send: () => Promise.resolve(), close: () => undefined }, clock, {
        stopGraceMs: 300,
      });
      const { port } = service.address() as AddressInfo;
      await enqueue(
        db.kysely,
        {
          kind: 'forward',
          payload: { url: `http://127.0.0.1:${port}/forms/dd`, fields: { SingleLine: 'Quay' } },
        },
        clock.now(),
      );
      const running = worker.runOnce();
      while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const stopped = Date.now();
      await worker.stop();
      // Once its grace has passed.
      expect(Date.now() - stopped).toBeGreaterThanOrEqual(250);
      expect(Date.now() - stopped).toBeLessThan(2_000);
      expect(await running).toBe(0);
      const [row] = await listOutbox(db.kysely);
      expect(row).toMatchObject({ sent_at: null, locked_until: null, attempts: 0 });
    } finally {
      for (const res of held) res.destroy();
      await new Promise((resolve) => service.close(resolve));
    }
  });

  // Found by the twenty-fourth session's fault probe: a forward was cut short the moment the server was told to stop,
  // though the form service had the whole request and was about to answer: given back, it was posted again at the
  // next start.
  it('should let a forward in flight finish within the grace after stop, mark it sent, and post it once', async () => {
    const clock = new TestClock();
    const posts: (string | undefined)[] = [];
    const service = createServer((req, res) => {
      posts.push(req.headers['idempotency-key'] as string | undefined);
      req.resume();
      setTimeout(() => res.writeHead(200).end('ok'), 400);
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    try {
      const worker = workerWith(recordingMailer([]), clock);
      const { port } = service.address() as AddressInfo;
      const id = await enqueue(
        db.kysely,
        { kind: 'forward', payload: { url: `http://127.0.0.1:${port}/f`, fields: { a: 'b' } } },
        clock.now(),
      );
      const running = worker.runOnce();
      while (posts.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await worker.stop();
      expect(await running).toBe(1);
      expect((await listOutbox(db.kysely))[0]).toMatchObject({ id, sent_at: expect.anything() });
      // The row's id, the same at every attempt: a form service may take a repeat for what it is.
      expect(posts).toEqual([id]);
    } finally {
      await new Promise((resolve) => service.close(resolve));
    }
  });

  // Found by the twenty-fourth session's fault probe: a stop waited for an SMTP server slow to confirm a mail, past
  // the server's 10 s of grace, and the process was ended by force with exit code 1.
  it('should stop within its grace though a mail is still being sent, leaving its row claimed', async () => {
    const clock = new TestClock();
    let sending = false;
    const worker = workerWith(
      {
        send: () => {
          sending = true;
          return new Promise<void>(() => undefined);
        },
        close: () => undefined,
      },
      clock,
      { stopGraceMs: 100 },
    );
    await enqueue(
      db.kysely,
      { kind: 'mail', payload: { to: 'a@example.com', subject: 's', text: 't' } },
      clock.now(),
    );
    void worker.runOnce();
    while (!sending) await new Promise((resolve) => setTimeout(resolve, 10));
    // A submission's background task waiting on the run in progress (the shutdown drains those after the stop).
    const waiting = worker.runOnce();
    const stopped = Date.now();
    await worker.stop();
    expect(Date.now() - stopped).toBeLessThan(4_000);
    expect(await waiting).toBe(0);
    expect((await listOutbox(db.kysely))[0]).toMatchObject({
      sent_at: null,
      locked_until: expect.anything(),
    });
  });

  // Found by the twenty-fourth session's fault probe: forwards were marked sent together once the whole batch was
  // done, which may take minutes; a crash within it posted every forward of the batch again.
  it('should mark each forward sent as soon as the form service has taken it', async () => {
    const clock = new TestClock();
    const held: ServerResponse[] = [];
    const service = createServer((req, res) => {
      req.resume();
      if (req.url === '/slow') held.push(res);
      else res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const worker = workerWith(recordingMailer([]), clock);
    try {
      const { port } = service.address() as AddressInfo;
      const quick = await enqueue(
        db.kysely,
        { kind: 'forward', payload: { url: `http://127.0.0.1:${port}/quick`, fields: { a: 'b' } } },
        clock.now(),
      );
      await enqueue(
        db.kysely,
        { kind: 'forward', payload: { url: `http://127.0.0.1:${port}/slow`, fields: { a: 'b' } } },
        clock.now(),
      );
      const running = worker.runOnce();
      while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      // The slow one is still in flight; the quick one, of the same batch, is already marked.
      await expect
        .poll(
          async () => (await listOutbox(db.kysely)).find((r) => r.id === quick)?.sent_at ?? null,
        )
        .not.toBeNull();
      for (const res of held) res.writeHead(200).end('ok');
      expect(await running).toBe(2);
    } finally {
      await worker.stop();
      for (const res of held) res.destroy();
      await new Promise((resolve) => service.close(resolve));
    }
  });

  // Found by the twenty-fifth session's PostgreSQL probe: the read of a forward's current address, failing in a
  // database blip (a connection ended), threw past the batch. Its rows stayed claimed for the whole five-minute
  // lease with no error recorded, and the forwards delivered beside it were not marked.
  it('should count a forward whose address could not be read as a failed attempt, and deliver the rest', async () => {
    const clock = new TestClock();
    const received: string[] = [];
    const service = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push(/name="n"\r\n\r\n(\d+)/.exec(body)?.[1] ?? '?');
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    // The database as the worker sees it: its first plain read (not in a write) fails, as a connection ended would.
    let blips = 1;
    const kysely = new Proxy(db.kysely, {
      get(target, property) {
        if (property === 'selectFrom' && blips > 0) {
          blips -= 1;
          return () => {
            throw new Error('Connection terminated unexpectedly');
          };
        }
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
    const blipping = new Proxy(db, {
      get(target, property) {
        if (property === 'kysely') return kysely;
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
    try {
      const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}/f`;
      for (let n = 1; n <= 3; n += 1) {
        await enqueue(
          db.kysely,
          { kind: 'forward', payload: { url, fields: { n: String(n) } } },
          clock.now(),
        );
      }
      const worker = workerWith(recordingMailer([]), clock, { db: blipping });
      expect(await worker.runOnce()).toBe(2);
      expect(received).toEqual(['2', '3']);
      const rows = await listOutbox(db.kysely);
      expect(rows.filter((row) => row.sent_at !== null)).toHaveLength(2);
      const [waiting] = rows.filter((row) => row.sent_at === null);
      expect(waiting).toMatchObject({
        attempts: 1,
        locked_until: null,
        last_error: 'Connection terminated unexpectedly',
        next_attempt_at: new Date(clock.now().getTime() + retryDelayMs(1)).toISOString(),
      });
      // Tried again after the usual wait, and delivered once.
      clock.advance(retryDelayMs(1));
      expect(await worker.runOnce()).toBe(1);
      expect(received).toEqual(['2', '3', '1']);
    } finally {
      await new Promise((resolve) => service.close(resolve));
    }
  });

  // Found by the twenty-first session's staff-tool probe: the time limit was an `AbortSignal.timeout()` held only by
  // `AbortSignal.any()`, which a garbage collection can take away on Node 20 (nodejs/node#57736); the forward then
  // waited 300 s for undici's own limit.
  it('should give up on a form service that does not answer within the time limit, whatever the GC does', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const clock = new TestClock();
    const held: ServerResponse[] = [];
    const service = createServer((_req, res) => held.push(res));
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const collecting = setInterval(gc, 50);
    try {
      const worker = workerWith({ send: () => Promise.resolve(), close: () => undefined }, clock, {
        forwardTimeoutMs: 400,
      });
      const { port } = service.address() as AddressInfo;
      await enqueue(
        db.kysely,
        { kind: 'forward', payload: { url: `http://127.0.0.1:${port}/f`, fields: { a: 'b' } } },
        clock.now(),
      );
      const started = Date.now();
      expect(await worker.runOnce()).toBe(0);
      expect(Date.now() - started).toBeLessThan(10_000);
      const [row] = await listOutbox(db.kysely);
      expect(row).toMatchObject({ sent_at: null, attempts: 1, locked_until: null });
      expect(row?.last_error).toContain('did not answer within 0.4 s');
    } finally {
      clearInterval(collecting);
      for (const res of held) res.destroy();
      await new Promise((resolve) => service.close(resolve));
    }
  }, 20_000);

  it('should record why a forward could not connect, not only "fetch failed"', async () => {
    const clock = new TestClock();
    // A port nothing listens on: the connection is refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    await enqueue(
      db.kysely,
      { kind: 'forward', payload: { url: `http://127.0.0.1:${port}/f`, fields: { a: 'b' } } },
      clock.now(),
    );
    expect(await workerWith(recordingMailer([]), clock).runOnce()).toBe(0);
    const [row] = await listOutbox(db.kysely);
    expect(row?.last_error).toBe(`fetch failed: connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  // Found by the twenty-second session's probe: fetch refuses an address with credentials, so every forward to a
  // FORM_SERVICE_URL with a user and password failed for ever, the password logged and stored in the error.
  it('should send the user and password of a form service address as Basic credentials', async () => {
    const clock = new TestClock();
    const seen: { authorization?: string; url?: string }[] = [];
    const service = createServer((req, res) => {
      seen.push({ authorization: req.headers.authorization, url: req.url });
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = service.address() as AddressInfo;
      const worker = workerWith({ send: () => Promise.resolve(), close: () => undefined }, clock);
      await enqueue(
        db.kysely,
        {
          kind: 'forward',
          payload: { url: `http://us%40er:p%3As%20s@127.0.0.1:${port}/f?x=1`, fields: { a: 'b' } },
        },
        clock.now(),
      );
      expect(await worker.runOnce()).toBe(1);
      expect(seen).toEqual([
        {
          authorization: `Basic ${Buffer.from('us@er:p:s s').toString('base64')}`,
          url: '/f?x=1',
        },
      ]);
      const [row] = await listOutbox(db.kysely);
      expect(row?.sent_at).not.toBeNull();
    } finally {
      await new Promise((resolve) => service.close(resolve));
    }
  });

  // Found by the twenty-first session's staff-tool probe: forwards redirected while a batch was on its way still went
  // to the old address when their turn came, and a failure there put the redirect's "due now" off by the back-off.
  it('should send redirected forwards to the new address, the ones not yet begun at once', async () => {
    const clock = new TestClock();
    const held: ServerResponse[] = [];
    const old = createServer((_req, res) => held.push(res));
    const received: string[] = [];
    const fresh = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push(/name="n"\r\n\r\n(\d+)/.exec(body)?.[1] ?? '?');
        res.end('ok');
      });
    });
    for (const server of [old, fresh]) {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    }
    const url = (server: typeof old) =>
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/f`;
    try {
      const worker = workerWith({ send: () => Promise.resolve(), close: () => undefined }, clock);
      // Seventeen: sixteen on their way at once, the seventeenth waits for one of them.
      for (let n = 1; n <= 17; n += 1) {
        await enqueue(
          db.kysely,
          { kind: 'forward', payload: { url: url(old), fields: { n: String(n) } } },
          clock.now(),
        );
      }
      const running = worker.runOnce();
      while (held.length < 16) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await redirectForwards(db.kysely, url(fresh), url(old), clock.now())).toEqual({
        changed: 17,
        inFlight: 17,
        claimedUntil: new Date(clock.now().getTime() + 5 * 60_000).toISOString(),
        unreadable: 0,
      });
      // The old address fails the sixteen; the seventeenth, begun after the redirect, goes to the new one.
      for (const res of held) {
        res.statusCode = 500;
        res.end();
      }
      expect(await running).toBe(1);
      expect(received).toEqual(['17']);
      // The sixteen are due at once, not after the back-off, and go to the new address.
      expect(await worker.runOnce()).toBe(16);
      expect(received.slice(1).sort((a, b) => Number(a) - Number(b))).toEqual(
        Array.from({ length: 16 }, (_, i) => String(i + 1)),
      );
      expect(held).toHaveLength(16);
    } finally {
      for (const res of held) res.destroy();
      for (const server of [old, fresh]) await new Promise((resolve) => server.close(resolve));
    }
  });

  // Found by the twenty-first session's staff-tool probe: a batch of forwards to a service that never answers runs
  // in waves of up to 60 s, past its five-minute lease, after which another worker may take the same rows.
  it('should begin no delivery whose wait could outlast the lease, and claim those rows again', async () => {
    const clock = new TestClock();
    const held: ServerResponse[] = [];
    const leaseAtArrival: (string | null)[] = [];
    const service = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const n = /name="n"\r\n\r\n(\d+)/.exec(body)?.[1];
        if (n !== '17') {
          held.push(res);
          return;
        }
        void listOutbox(db.kysely).then((rows) => {
          leaseAtArrival.push(
            rows.find((r) => r.payload.includes('"n":"17"'))?.locked_until ?? null,
          );
          res.end('ok');
        });
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    try {
      const worker = workerWith({ send: () => Promise.resolve(), close: () => undefined }, clock);
      const { port } = service.address() as AddressInfo;
      for (let n = 1; n <= 17; n += 1) {
        await enqueue(
          db.kysely,
          {
            kind: 'forward',
            payload: { url: `http://127.0.0.1:${port}/f`, fields: { n: String(n) } },
          },
          clock.now(),
        );
      }
      const running = worker.runOnce();
      while (held.length < 16) await new Promise((resolve) => setTimeout(resolve, 10));
      // Four and a half minutes on: a forward begun now could wait past the lease.
      clock.advance(270_000);
      for (const res of held) res.end('ok');
      expect(await running).toBe(17);
      // The seventeenth was given back and claimed again: its lease runs five minutes from its new start.
      expect(leaseAtArrival).toEqual([new Date(clock.now().getTime() + 5 * 60_000).toISOString()]);
    } finally {
      for (const res of held) res.destroy();
      await new Promise((resolve) => service.close(resolve));
    }
  });

  // Found by the sixteenth session's fault probe: a forward whose stored file was deleted was retried for ever.
  it('should forward the fields without a stored file that is gone, and log which', async () => {
    const clock = new TestClock();
    const bodies: string[] = [];
    const service = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('latin1'));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const errors: unknown[][] = [];
    try {
      const worker = new OutboxWorker({
        db,
        mailer: { send: () => Promise.resolve(), close: () => undefined },
        clock: clock.now,
        log: {
          ...silentLogger,
          error: (...args: unknown[]) => errors.push(args),
        } as FastifyBaseLogger,
        uploadsDir: dataDir,
        pollMs: 60_000,
      });
      const { port } = service.address() as AddressInfo;
      await enqueue(
        db.kysely,
        {
          kind: 'forward',
          payload: {
            url: `http://127.0.0.1:${port}/forms/dd`,
            fields: { SingleLine: 'Harbour Quay' },
            file: { path: 'gone.pdf', filename: 'Site survey.pdf', contentType: 'application/pdf' },
          },
        },
        clock.now(),
      );
      expect(await worker.runOnce()).toBe(1);
      expect(bodies).toHaveLength(1);
      expect(bodies[0]).toContain('name="SingleLine"\r\n\r\nHarbour Quay');
      expect(bodies[0]).not.toContain('FileUpload');
      expect((await listOutbox(db.kysely))[0]?.sent_at).not.toBeNull();
      expect(errors).toHaveLength(1);
      expect(errors[0]?.[0]).toMatchObject({
        file: path.join(dataDir, 'gone.pdf'),
        filename: 'Site survey.pdf',
      });
    } finally {
      await new Promise((resolve) => service.close(resolve));
    }
  });
});
