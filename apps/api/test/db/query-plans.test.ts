import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findClientByPrefix, updateClient } from '../../src/repositories/clients.js';
import { purgeLoginAttempts } from '../../src/repositories/login-attempts.js';
import {
  countUnsent,
  listUnsent,
  redirectForwards,
  repairClockStep,
} from '../../src/repositories/outbox.js';
import { listActivity, listDueDiligence, listQuotes } from '../../src/repositories/records.js';
import { purgeExpired } from '../../src/repositories/sessions.js';
import { sweepOrphanUploads } from '../../src/services/upload-sweep.js';
import {
  PERSON,
  buildTestApp,
  loginLinkToken,
  loginMagic,
  loginOpen,
  outboxMails,
  type TestApp,
} from '../helper.js';
import { routeKey, routeTable, validRequest } from '../hardening/support.js';

/**
 * "The API answers reads from indexed queries": every statement the API runs on SQLite while each route of its
 * own table is called (with a session, valid bodies), a magic-link login goes the whole way, the outbox worker
 * delivers what they queued, the hourly sweeps run, and the staff tool's commands read and write, is planned by
 * SQLite here, with the parameters it ran with. None may read a
 * whole table: a `SCAN` in a plan is a full pass over a table or index, where an indexed query `SEARCH`es.
 * (Found wanting by the twenty-first session: the outbox's forwards lane scanned every queued e-mail.)
 *
 * The only scans allowed are named below, each with the reason.
 */
const ALLOWED_SCANS: { table: string; statement: RegExp; why: string }[] = [
  ...['sessions', 'quotes', 'due_diligence', 'activity'].map((table) => ({
    table,
    statement: /^insert into "users" .* on conflict .* do update set "first_name" .* returning \*$/,
    why:
      'with RETURNING, SQLite lists the foreign-key checks of the tables that reference users.id; they run only ' +
      'when a statement changes that key, which this update of names and phone never does (100 of these take ' +
      'microseconds each beside 20,000 quotes)',
  })),
];

interface Ran {
  sql: string;
  parameters: unknown[];
}

describe('query plans (SQLite)', () => {
  let t: TestApp;
  const ran = new Map<string, Ran>();
  const restore: (() => void)[] = [];
  /** Statements are recorded once the app has started (its migrations and start-up checks run once). */
  let recording = false;

  beforeAll(async () => {
    // Every statement better-sqlite3 runs in this process, with the parameters of its first run.
    const probe = new SqliteDatabase(':memory:');
    const Statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<
      'run' | 'get' | 'all' | 'iterate',
      (this: { source: string }, ...args: unknown[]) => unknown
    >;
    probe.close();
    for (const method of ['run', 'get', 'all', 'iterate'] as const) {
      const original = Statement[method];
      Statement[method] = function (this: { source: string }, ...args: unknown[]) {
        if (recording && !ran.has(this.source))
          ran.set(this.source, { sql: this.source, parameters: args });
        return original.apply(this, args);
      };
      restore.push(() => (Statement[method] = original));
    }

    t = await buildTestApp({ name: 'sqlite', url: null });
    recording = true;
    const demo = await loginOpen(t.app, 'demo');
    await loginMagic(t, 'northbank');
    // A link asked for with other details than the account holds: its Continue page reads the token and the
    // account, and the account keeps its details (`details=held`).
    await t.app.inject({
      method: 'POST',
      url: '/api/northbank/login',
      payload: { ...PERSON, first_name: 'Mallory' },
    });
    await t.app.background.drain();
    const token = loginLinkToken((await outboxMails(t.dataDir)).at(-1) ?? '');
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/northbank/login/link?token=${token}`,
    });
    expect(page.body).toContain('name="details" value="held"');
    const held = await t.app.inject({
      method: 'POST',
      url: '/api/northbank/login/link',
      payload: `token=${token}&details=held`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(held.statusCode).toBe(303);
    const video = await t.app.inject({
      method: 'GET',
      url: '/api/demo/video',
      headers: { cookie: demo },
    });
    const file = video.json<{ captions: string }>().captions.split('/').at(-1);
    // Logging in and out last: each ends the session the other routes run with.
    const last = (url: string) => Number(/\/log(in|out)\b/.test(url));
    const routes = routeTable(t.app).sort((a, b) => last(a.url) - last(b.url));
    for (const route of routes) {
      const response = await t.app.inject(validRequest(route, 'demo', demo, { file }));
      expect(response.statusCode, routeKey(route)).toBeLessThan(500);
    }
    await t.app.background.drain();
    await t.app.outbox.runOnce();
    // The hourly sweeps: expired sessions and tokens, and upload files no row names (a day on, so the one
    // uploaded above counts as old enough to be looked up).
    await purgeExpired(t.app.db.kysely, new Date());
    const dayOn = new Date(Date.now() + 24 * 60 * 60_000);
    expect(
      await sweepOrphanUploads(t.app.db.kysely, path.join(t.dataDir, 'uploads'), dayOn),
    ).toEqual([]);
    await purgeLoginAttempts(t.app.db.kysely, 15 * 60_000, dayOn);
    // The worker's rule for a clock set back, and the staff tool's reads and writes.
    await repairClockStep(t.app.db.kysely, new Date(), 5 * 60_000);
    const kysely = t.app.db.kysely;
    const client = await findClientByPrefix(kysely, 'demo');
    if (client === undefined) throw new Error('no demo client');
    await listQuotes(kysely, client.id);
    await listDueDiligence(kysely, client.id);
    await listActivity(kysely, client.id);
    await listUnsent(kysely);
    await listUnsent(kysely, ['forward'], 10);
    await countUnsent(kysely);
    await redirectForwards(kysely, 'https://forms.example/form', null, new Date());
    await updateClient(kysely, client, { loginPolicy: 'magic-link' });
  });
  afterAll(async () => {
    for (const undo of restore) undo();
    await t?.close();
  });

  it('should plan every statement the routes and the outbox ran as a search, never a scan', () => {
    const db = new SqliteDatabase(`${t.dataDir}/portal.sqlite`, { readonly: true });
    try {
      const scans: string[] = [];
      let planned = 0;
      for (const { sql, parameters } of ran.values()) {
        if (!/^\s*(select|update|delete|insert|with)\b/i.test(sql)) continue;
        let plan: { detail: string }[];
        try {
          plan = db.prepare(`explain query plan ${sql}`).all(...parameters) as { detail: string }[];
        } catch {
          // One the planner here cannot take as it ran (e.g. on a temporary table): not a table read of ours.
          continue;
        }
        planned += 1;
        for (const { detail } of plan) {
          // A VALUES list or a constant row is no table.
          const scanned = /^SCAN (?!\d+-ROW VALUES CLAUSE|CONSTANT ROW)(\w+)/.exec(detail)?.[1];
          if (scanned === undefined) continue;
          if (ALLOWED_SCANS.some((a) => a.table === scanned && a.statement.test(sql))) continue;
          scans.push(`${detail}\n    in: ${sql}`);
        }
      }
      // The scenario reached the statements it is meant to: quotes, submissions, sessions, the outbox.
      expect(planned).toBeGreaterThan(20);
      expect(
        [...ran.keys()].some((sql) => /^select .* from "users" where "client_id" = \?/.test(sql)),
        'the Continue page reads the account',
      ).toBe(true);
      for (const table of ['sessions', 'quotes', 'due_diligence', 'outbox', 'content_items']) {
        expect(
          [...ran.keys()].some((sql) => sql.includes(`"${table}"`)),
          table,
        ).toBe(true);
      }
      expect(scans).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('should claim the outbox through one range of an index: its kind, unsent, due by now', () => {
    const db = new SqliteDatabase(`${t.dataDir}/portal.sqlite`, { readonly: true });
    try {
      const claims = [...ran.values()].filter(({ sql }) =>
        sql.startsWith(
          'update "outbox" set "locked_until" = ?, "claimed_by" = ? where "id" in (select',
        ),
      );
      expect(claims.length).toBeGreaterThan(0);
      for (const { sql, parameters } of claims) {
        const plan = db.prepare(`explain query plan ${sql}`).all(...parameters) as {
          detail: string;
        }[];
        // One range of the index: a search on sent_at alone read every queued row of the other lane's kind, and
        // one without the due time every row waiting for a retry.
        expect(plan.map((p) => p.detail)).toContainEqual(
          expect.stringMatching(
            /^SEARCH outbox USING INDEX \w+ \(kind=\? AND sent_at=\? AND next_attempt_at<\?\)/,
          ),
        );
      }
    } finally {
      db.close();
    }
  });
});
