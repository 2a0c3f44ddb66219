import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_UNAVAILABLE } from '../../src/db/unavailable.js';
import {
  PERSON,
  buildTestApp,
  databases,
  lockPgTable,
  outboxMails,
  type TestApp,
} from '../helper.js';

/**
 * Found by the thirtieth session's PostgreSQL probe (two instances, PostgreSQL restarted under a run of magic-link
 * logins): a login was answered 200 ("a login link is e-mailed") once its attempt was counted, and its token and
 * mail were stored afterwards, in the background. A database lost in between (a restart, a statement stuck past
 * its timeout) left neither, and the person waited for a mail that never came (1 of 565 answered logins). The token
 * and the mail are now stored before the answer: a failure is the request's, answered 503 (or 500), never 200.
 */
describe.each(databases)('a magic-link login whose token cannot be stored ($name)', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target, { DATABASE_TIMEOUT_MS: '300' });
  });
  afterAll(async () => {
    await t.close();
  });

  /** Makes every write of a login token fail until the returned function is called. */
  async function refuseTokens(): Promise<() => Promise<void>> {
    if (t.config.databaseUrl === null) {
      // SQLite: a trigger refuses the insert (a lock would hold up the attempt's count as well).
      const other = new SqliteDatabase(path.join(t.dataDir, 'portal.sqlite'));
      other.exec(
        "create trigger refuse_tokens before insert on login_tokens begin select raise(abort, 'disk I/O error'); end",
      );
      return () => {
        other.exec('drop trigger refuse_tokens');
        other.close();
        return Promise.resolve();
      };
    }
    // PostgreSQL: the table held by a lock from outside, as in a database that is stuck.
    return lockPgTable(t.config.databaseUrl, t.config.databaseSchema ?? 'public', 'login_tokens');
  }

  async function tokens(email: string): Promise<number> {
    const rows = await t.app.db.kysely
      .selectFrom('login_tokens')
      .select('hash')
      .where('email', '=', email)
      .execute();
    return rows.length;
  }

  it('should not answer 200 for a login whose token was not stored, and work once it can be', async () => {
    const email = 'stuck@example.com';
    const release = await refuseTokens();
    let answer;
    try {
      answer = await t.app.inject({
        method: 'POST',
        url: '/api/northbank/login',
        payload: { ...PERSON, email },
      });
      await t.app.background.drain();
    } finally {
      await release();
    }
    if (target.name === 'postgres') {
      expect({ status: answer.statusCode, body: answer.json<unknown>() }).toEqual({
        status: 503,
        body: { error: DATABASE_UNAVAILABLE },
      });
    } else {
      expect(answer.statusCode).toBe(500);
    }
    expect(await tokens(email)).toBe(0);

    const before = (await outboxMails(t.dataDir)).length;
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/northbank/login',
      payload: { ...PERSON, email },
    });
    expect({ status: again.statusCode, body: again.json<unknown>() }).toEqual({
      status: 200,
      body: { redirect: false },
    });
    // Stored by the time the answer is sent, not afterwards.
    expect(await tokens(email)).toBe(1);
    await t.app.background.drain();
    expect((await outboxMails(t.dataDir)).length).toBe(before + 1);
  });
});
