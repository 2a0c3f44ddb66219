import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SqliteDatabase from 'better-sqlite3';
import type { Kysely, TransactionBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/schema.js';
import {
  createClient,
  lockedLoginPolicy,
  updateClient,
  type Client,
} from '../../src/repositories/clients.js';
import { createSession } from '../../src/repositories/sessions.js';
import { createOpenUser } from '../../src/repositories/users.js';
import {
  PERSON,
  buildTestApp,
  databases,
  outboxMails,
  type TestApp,
  existingClient,
} from '../helper.js';

/**
 * An open login racing `pnpm admin client update --login magic-link`: the staff command ends the sessions of
 * open logins (their e-mail was never proven), so a login that read the client as open must not write its
 * session after that cleanup, nor be told it is logged in.
 */
describe.each(databases)('open login racing a switch to magic-link ($name)', (target) => {
  let t: TestApp;
  const now = new Date('2026-03-02T09:00:00.000Z');

  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  const client = (prefix: string) => existingClient(t.app, prefix);

  /** Sessions of users who never proved their e-mail, on this client. */
  async function unprovenSessions(clientId: string): Promise<number> {
    const row = await t.app.db.kysely
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('sessions.client_id', '=', clientId)
      .where('users.verified', '=', 0)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Runs `step` once, just before the next transaction the app starts (after the request read the client). */
  function beforeNextTransaction(db: Kysely<Database>, step: () => Promise<unknown>): () => void {
    const original = db.transaction.bind(db);
    let pending: (() => Promise<unknown>) | undefined = step;
    db.transaction = (): TransactionBuilder<Database> => {
      const builder = original();
      const run = pending;
      pending = undefined;
      if (run === undefined) return builder;
      const execute = builder.execute.bind(builder);
      builder.execute = async (work) => {
        await run();
        return execute(work);
      };
      return builder;
    };
    return () => {
      db.transaction = original;
    };
  }

  it('should answer as a magic-link client, mail a link and store no session when staff switch the client between the read and the write', async () => {
    await createClient(
      t.app.db.kysely,
      { prefix: 'racing', name: 'Racing Homes', loginPolicy: 'open' },
      now,
    );
    const racing = await client('racing');
    const mailsBefore = (await outboxMails(t.dataDir)).length;
    const restore = beforeNextTransaction(t.app.db.kysely, () =>
      updateClient(t.app.db.kysely, racing, { loginPolicy: 'magic-link' }),
    );
    let response;
    try {
      response = await t.app.inject({
        method: 'POST',
        url: '/api/racing/login',
        payload: { ...PERSON, email: 'racer@example.com' },
      });
    } finally {
      restore();
    }
    expect((await client('racing')).loginPolicy).toBe('magic-link');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ redirect: false });
    expect(response.cookies.filter((c) => c.value !== '')).toEqual([]);
    expect(await unprovenSessions(racing.id)).toBe(0);
    const users = await t.app.db.kysely
      .selectFrom('users')
      .select('id')
      .where('client_id', '=', racing.id)
      .execute();
    expect(users).toEqual([]);
    await t.app.background.drain();
    const mails = (await outboxMails(t.dataDir)).slice(mailsBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('racer@example.com');
    expect(mails[0]).toContain('/api/racing/login/link?token=');
  });

  it('should keep a switch from committing while an open login that read the policy is writing, then end that session', async () => {
    await createClient(
      t.app.db.kysely,
      { prefix: 'inflight', name: 'Inflight Homes', loginPolicy: 'open' },
      now,
    );
    const inflight = await client('inflight');
    let staff: Promise<Client> | undefined;
    // The steps of startOpenSession, with the staff command tried in the middle.
    await t.app.db.kysely.transaction().execute(async (trx) => {
      const user = await createOpenUser(
        trx,
        inflight.id,
        { ...PERSON, email: 'inflight@example.com' },
        now,
      );
      expect(await lockedLoginPolicy(trx, t.app.db.dialect, inflight.id)).toBe('open');
      if (t.app.db.dialect === 'postgres') {
        // Another connection of the pool, as the staff tool's own process would be: its update waits.
        let finished = false;
        staff = updateClient(t.app.db.kysely, inflight, { loginPolicy: 'magic-link' });
        void staff.then(() => {
          finished = true;
        });
        await sleep(500);
        expect(finished).toBe(false);
      } else {
        // Another process's connection (the staff tool's): it cannot write until this transaction ends.
        const other = new SqliteDatabase(path.join(t.dataDir, 'portal.sqlite'));
        try {
          other.pragma('busy_timeout = 0');
          expect(() =>
            other
              .prepare(`update clients set login_policy = 'magic-link' where id = ?`)
              .run(inflight.id),
          ).toThrow(/locked|busy/i);
        } finally {
          other.close();
        }
      }
      await createSession(trx, inflight.id, user.id, now);
    });
    // Once the login has committed, the switch goes ahead and its cleanup sees (and ends) that session.
    await (staff ?? updateClient(t.app.db.kysely, inflight, { loginPolicy: 'magic-link' }));
    expect((await client('inflight')).loginPolicy).toBe('magic-link');
    expect(await unprovenSessions(inflight.id)).toBe(0);
  });
});
