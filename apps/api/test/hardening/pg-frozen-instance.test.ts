import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';
import type { Database } from '../../src/db/schema.js';
import { isDatabaseUnavailable } from '../../src/db/unavailable.js';
import { PERSON, buildTestApp, type TestApp } from '../helper.js';

/**
 * Found by the thirtieth session's PostgreSQL probe (two instances on one database, one stopped with SIGSTOP under a
 * run of logins): the stopped instance was caught inside a login's transaction, holding `login_attempts`' lock, and
 * every login on the other instance was answered 503 for as long as it stood still (a paused VM, a long pause of
 * the process, a network cut that leaves the connection half open: hours, until TCP gives up). The server's
 * connections now run with `idle_in_transaction_session_timeout` (DATABASE_TIMEOUT_MS, at least a second), so
 * PostgreSQL ends such a transaction, and its locks go with it; the stalled request fails, unacknowledged.
 */
describe.skipIf(process.env.TEST_DATABASE_URL === undefined)(
  'an instance that stands still inside a transaction (postgres)',
  () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp(
        { name: 'postgres', url: process.env.TEST_DATABASE_URL ?? '' },
        { DATABASE_TIMEOUT_MS: '1000' },
      );
    });
    afterAll(async () => {
      await t?.close();
    });

    /**
     * A transaction on `db` that takes `hold` and then stands still between two statements (as in a process that
     * is stopped) for longer than the idle limit, while a login is answered beside it: what the stalled
     * transaction failed with.
     */
    async function loginBesideStalled(
      db: Kysely<Database>,
      hold: (trx: Transaction<Database>) => Promise<unknown>,
      table: 'login_attempts' | 'clients',
    ): Promise<unknown> {
      let stalledError: unknown;
      const stalled = db
        .transaction()
        .execute(async (trx) => {
          await hold(trx);
          await sleep(3_500);
          await trx.selectFrom(table).select('id').execute();
        })
        .catch((error: unknown) => {
          stalledError = error;
        });
      await sleep(1_800);
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/demo/login',
        payload: PERSON,
      });
      expect(answer.statusCode).toBe(200);
      await stalled;
      return stalledError;
    }

    it('should have its transaction ended, so that the others log in again', async () => {
      // A login's transaction that stops between two statements, as in a process that stands still.
      const stalledError = await loginBesideStalled(
        t.app.db.kysely,
        (trx) => sql`lock table login_attempts in share row exclusive mode`.execute(trx),
        'login_attempts',
      );
      // The stalled work learns its transaction is gone, as a fault of the database's (a 503, not a 500).
      expect(stalledError).toBeDefined();
      expect(isDatabaseUnavailable(stalledError)).toBe(true);
    });

    // The staff tool's connections have no statement timeout (an import may wait for another's), but a staff tool
    // stopped inside an import (Ctrl-Z, a laptop put to sleep) held its client's row, and so every open login of
    // that client (which reads the policy FOR SHARE) was answered 503 until it went on.
    it('should have a stopped staff tool’s transaction ended too', async () => {
      const staff = await openDatabase(t.config, undefined, { mustExist: true });
      try {
        const stalledError = await loginBesideStalled(
          staff.kysely,
          // As an import's first statement: the client's row, locked until commit.
          (trx) =>
            trx
              .updateTable('clients')
              .set((eb) => ({ content_version: eb('content_version', '+', 1) }))
              .where('prefix', '=', 'demo')
              .execute(),
          'clients',
        );
        expect(isDatabaseUnavailable(stalledError)).toBe(true);
      } finally {
        await staff.close();
      }
    });
  },
);
