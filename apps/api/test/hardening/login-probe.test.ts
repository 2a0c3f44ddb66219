import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EXPIRED_PER_ATTEMPT,
  purgeLoginAttempts,
  recordLoginAttempt,
} from '../../src/repositories/login-attempts.js';
import {
  PERSON,
  buildTestApp,
  databases,
  decodeMail,
  loginLinkToken,
  outboxMails,
  type TestApp,
} from '../helper.js';

/** Found by a hostile probe of the built server (login, sessions and tenancy). */
describe.each(databases)('login rate limits under a burst ($name)', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target, { LOGIN_LIMIT_PER_EMAIL: '5', LOGIN_LIMIT_PER_ADDRESS: '20' });
  });
  afterAll(async () => {
    await t.close();
  });

  // On PostgreSQL (several connections, several instances) a burst of 20 logins for one e-mail all went
  // through: each counted the attempts before any had written its own. SQLite showed it when the
  // repository's calls interleaved.
  it('should let no more than the limit through when the attempts arrive together', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/northbank/login',
          payload: { ...PERSON, email: 'burst@example.com' },
          remoteAddress: `198.51.100.${i + 1}`,
        }),
      ),
    );
    await t.app.background.drain();
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  it('should let each key through exactly up to its limit, however the counts interleave', async () => {
    const now = t.clock.now();
    const attempt = (i: number) =>
      recordLoginAttempt(
        t.app.db.kysely,
        t.app.db.dialect,
        [
          { key: 'email:together@example.com', max: 3 },
          { key: `address:192.0.2.${i}`, max: 100 },
        ],
        15 * 60_000,
        now,
      );
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => attempt(i)));
    expect(results.filter(Boolean)).toHaveLength(3);
    // A refused attempt is not counted: the addresses refused can still try another e-mail.
    const counted = await t.app.db.kysely
      .selectFrom('login_attempts')
      .select('key')
      .where('key', 'like', 'address:192.0.2.%')
      .execute();
    expect(counted).toHaveLength(3);
    // And the limit holds for a later attempt on its own.
    expect(await attempt(99)).toBe(false);
  });

  // Found by the twenty-first session's scale probe: each attempt deleted every expired one inside its own
  // transaction, so the login after a burst paid for the whole burst (409 ms after 100,000).
  it('should delete a batch of expired attempts with each attempt, and the rest in the hourly purge', async () => {
    const kysely = t.app.db.kysely;
    // Only this test's attempts (the earlier tests' would be the oldest expired ones).
    await kysely.deleteFrom('login_attempts').execute();
    const window = 15 * 60_000;
    const now = new Date(t.clock.now().getTime() + 24 * 60 * 60_000);
    const expired = Array.from({ length: 2_345 }, (_, i) => ({
      id: `expired-${String(i).padStart(5, '0')}`,
      key: `address:203.0.113.${i % 200}`,
      at: new Date(now.getTime() - window - 1_000 - i * 1_000).toISOString(),
    }));
    for (let i = 0; i < expired.length; i += 500) {
      await kysely
        .insertInto('login_attempts')
        .values(expired.slice(i, i + 500))
        .execute();
    }
    const keysLeft = async () =>
      (
        await kysely
          .selectFrom('login_attempts')
          .select('id')
          .where('id', 'like', 'expired-%')
          .execute()
      ).length;

    expect(
      await recordLoginAttempt(
        kysely,
        t.app.db.dialect,
        [{ key: 'email:after-burst@example.com', max: 5 }],
        window,
        now,
      ),
    ).toBe(true);
    // The oldest go first.
    expect(await keysLeft()).toBe(expired.length - EXPIRED_PER_ATTEMPT);
    const oldest = await kysely
      .selectFrom('login_attempts')
      .select('id')
      .where('id', '=', expired.at(-1)?.id ?? '')
      .execute();
    expect(oldest).toEqual([]);

    // The purge takes the rest, in statements of a thousand, and keeps the attempt within the window.
    expect(await purgeLoginAttempts(kysely, window, now)).toBe(
      expired.length - EXPIRED_PER_ATTEMPT,
    );
    expect(await keysLeft()).toBe(0);
    const kept = await kysely
      .selectFrom('login_attempts')
      .select('key')
      .where('key', '=', 'email:after-burst@example.com')
      .execute();
    expect(kept).toHaveLength(1);
  });
});

describe.each(databases)('the login mail ($name)', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  // Anyone could have the firm mail any address a message of their choosing, above the real link, by
  // typing it as a first name (newlines and a link included).
  it('should hold no text chosen by whoever asked for the link', async () => {
    const bait = 'URGENT your account is locked, call 0900 123 456 or visit http://evil.example/';
    const before = (await outboxMails(t.dataDir)).length;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/northbank/login',
      payload: {
        // One line: a name with line breaks is refused outright (app.test.ts).
        first_name: `Ada, ${bait}`,
        last_name: `Lovelace ${bait}`,
        email: 'mail.bait@example.com',
        phone: '020 7946 0123',
      },
    });
    expect(response.statusCode).toBe(200);
    await t.app.background.drain();
    const mail = (await outboxMails(t.dataDir))[before];
    expect(mail).toBeDefined();
    const text = decodeMail(mail as string);
    expect(text).not.toContain('evil.example');
    expect(text).not.toContain('0900');
    expect(text).not.toContain('URGENT');
    expect(text).toContain('Hello,');
    expect(loginLinkToken(mail as string)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
