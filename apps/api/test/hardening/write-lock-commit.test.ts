import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, countRows, loginOpen, type TestApp } from '../helper.js';
import { VALID_BODIES, commitElsewhereBefore } from './support.js';

/** The warranty body every hardening test starts from. */
const WARRANTY = VALID_BODIES['POST /api/:client/warranty'];

/**
 * A submission stored while another connection to the SQLite file tries to commit (the staff tool, a second
 * instance). A submission with an Idempotency-Key first reads (is the key used?), then writes. With a deferred
 * BEGIN the transaction's snapshot was taken by that read, and a commit by anyone between the read and the
 * first write failed the write at once ("database is locked", no busy wait): the whole group-commit batch, every
 * POST in it, was answered 5xx (found by the twelfth session's probe, on the login link; the same shape here).
 * Now every transaction that may write takes the write lock at BEGIN: the other connection cannot commit in
 * between (it waits for the lock; here, with no busy wait, it gives up), and the submission is stored.
 */
describe('a submission stored while another connection commits (SQLite)', () => {
  let t: TestApp;
  let staff: SqliteDatabase.Database;
  let cookie: string;
  let year = 4000;
  beforeAll(async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
    cookie = await loginOpen(t.app);
    staff = new SqliteDatabase(path.join(t.dataDir, 'portal.sqlite'));
    // It runs inside the app's own thread below: waiting for the app's lock would only stall the test.
    staff.pragma('busy_timeout = 0');
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    staff.close();
    await t.close();
  });

  it('should store a keyed submission whose look-up is followed by another connection’s commit', async () => {
    const before = await countRows(t.app, 'quotes');
    // The first write after the key's look-up is the reference counter's.
    const seen = commitElsewhereBefore(staff, 'sequences');
    const post = (key: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/demo/warranty',
        headers: { cookie, 'idempotency-key': key },
        payload: WARRANTY,
      });
    const answers = await Promise.all([post('lock-1'), post('lock-2'), post('lock-3')]);
    expect(
      answers.map((a) => a.statusCode),
      answers.map((a) => a.body).join('\n'),
    ).toEqual([201, 201, 201]);
    // The other connection tried while the app held the write lock, so it could not commit in between.
    expect(seen.refused).toBeGreaterThan(0);
    expect(seen.commits).toBe(0);
    vi.restoreAllMocks();
    expect(await countRows(t.app, 'quotes')).toBe(before + 3);
    // A resend under a key is answered from the stored quote.
    const again = await post('lock-2');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(answers[1]?.json());
  });

  it('should still let another connection commit between the app’s transactions', async () => {
    const free = staff
      .prepare("insert into sequences (client_id, kind, year, value) values ('c', 'S', ?, 1)")
      .run((year += 1));
    expect(free.changes).toBe(1);
    // A read-only snapshot (the hub's content) takes no write lock.
    const content = await t.app.inject({
      method: 'GET',
      url: '/api/demo/content',
      headers: { cookie },
    });
    expect(content.statusCode).toBe(200);
  });
});

/**
 * Found by the sixteenth session's fault probe: while another process held the SQLite write lock, the whole
 * server froze for up to 5 s at each write and each outbox poll (better-sqlite3 runs on the event loop's thread,
 * and SQLite's busy wait sleeps it), health checks and reads included, and writes queued behind one another waited
 * far past 5 s. The wait is now a timer between short tries, with the connection free for reads meanwhile.
 */
describe('a write waiting for another connection’s lock (SQLite)', () => {
  let t: TestApp;
  let other: SqliteDatabase.Database;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
    cookie = await loginOpen(t.app);
    other = new SqliteDatabase(path.join(t.dataDir, 'portal.sqlite'));
  });
  afterAll(async () => {
    other.close();
    await t.close();
  });

  it('should leave the server answering, and reads served, until the lock is let go, then store the write', async () => {
    const before = await countRows(t.app, 'quotes');
    other.exec('begin immediate');
    // The longest the event loop went without running a 10 ms timer while the write waited.
    let longestStall = 0;
    let last = Date.now();
    const ticker = setInterval(() => {
      const now = Date.now();
      longestStall = Math.max(longestStall, now - last);
      last = now;
    }, 10);
    try {
      const started = Date.now();
      const write = t.app.inject({
        method: 'POST',
        url: '/api/demo/warranty',
        headers: { cookie },
        payload: WARRANTY,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      // A read while the write waits: answered, not queued behind the write for the lock.
      const readStarted = Date.now();
      const content = await t.app.inject({
        method: 'GET',
        url: '/api/demo/content',
        headers: { cookie },
      });
      expect(content.statusCode).toBe(200);
      expect(Date.now() - readStarted).toBeLessThan(1_000);
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      other.exec('rollback');
      const answer = await write;
      expect(answer.statusCode, answer.body).toBe(201);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
      expect(await countRows(t.app, 'quotes')).toBe(before + 1);
    } finally {
      clearInterval(ticker);
      if (other.inTransaction) other.exec('rollback');
    }
    // SQLite's own wait is a few milliseconds a try; the old wait froze the loop for the whole 5 s (a busy
    // machine may add stalls of its own, not seconds).
    expect(longestStall).toBeLessThan(1_000);
  });
});
