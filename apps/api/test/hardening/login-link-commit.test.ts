import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { askLoginLinkToken, buildTestApp, sessionCookie, type TestApp } from '../helper.js';
import { commitElsewhereBefore } from './support.js';

/**
 * A login link used while another connection to the SQLite file commits (the staff tool's content import or
 * `client update`, which operations.md says may run alongside link logins, or a second instance). The link's
 * transaction read the token first and wrote after: SQLite cannot move a transaction that has read onto a
 * newer snapshot to write, so a commit by anyone in between failed the write at once ("database is locked",
 * no busy wait) and the person got a 503 for a good link (found by the twelfth session's probe: six uses of
 * one token raced over two instances on one data folder). Now the token is spent by one conditional update
 * that also reads it, the transaction's first statement.
 */
describe('a login link used while another connection commits (SQLite)', () => {
  let t: TestApp;
  let staff: SqliteDatabase.Database;
  beforeAll(async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
    staff = new SqliteDatabase(path.join(t.dataDir, 'portal.sqlite'));
    // It runs inside the app's own thread below: waiting for the app's write lock would only stall the test.
    staff.pragma('busy_timeout = 0');
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    staff.close();
    await t.close();
  });

  const requestToken = (email: string) => askLoginLinkToken(t, 'northbank', { email });

  it('should log in with a good link whenever another connection commits, and spend it once', async () => {
    const token = await requestToken('commit-race@example.com');
    const seen = commitElsewhereBefore(staff, 'login_tokens');
    const use = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/northbank/login/link',
        payload: `token=${token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const first = await use();
    expect(seen.tries).toBeGreaterThan(0);
    expect(first.statusCode, first.body).toBe(303);
    const cookie = sessionCookie(first);
    const me = await t.app.inject({ method: 'GET', url: '/api/northbank', headers: { cookie } });
    expect(me.json()).toMatchObject({ logged_in: true, email: 'commit-race@example.com' });
    // Spent: the same link again is the invalid-link page, commits or not.
    const again = await use();
    expect(again.statusCode).toBe(400);
    expect(again.headers['content-type']).toMatch(/^text\/html/);
  });
});
