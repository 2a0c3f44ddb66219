import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAD_IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_REUSED } from '../../../src/services/idempotency.js';
import { VALID_BODIES } from '../../hardening/support.js';
import { buildTestApp, countRows, databases, loginOpen, type TestApp } from '../../helper.js';

// The suite's one valid body of each calculator.
const WARRANTY = VALID_BODIES['POST /api/:client/warranty'] ?? {};
const CAR = VALID_BODIES['POST /api/:client/car'] ?? {};

/**
 * A submission sent again with its `Idempotency-Key` (after a dropped connection, a timeout, a reload while it was on
 * its way) is answered from the stored one: one quote, one reference, one e-mail to the team.
 */
describe.each(databases)('Idempotency-Key on calculator submissions ($name)', (target) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp(target, { TEAM_EMAIL: 'quotes@advisory.example' });
    cookie = await loginOpen(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (path: string, payload: object, key?: string, session = cookie) =>
    t.app.inject({
      method: 'POST',
      url: `/api/demo/${path}`,
      payload,
      headers: { cookie: session, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    });
  const count = (table: 'quotes' | 'outbox') => countRows(t.app, table);

  it('should answer a resend with the stored quote and reference, storing and mailing nothing again', async () => {
    const before = { quotes: await count('quotes'), mails: await count('outbox') };
    const first = await post('warranty', WARRANTY, 'resend-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    for (let i = 0; i < 3; i += 1) {
      const again = await post('warranty', WARRANTY, 'resend-1');
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
    }
    expect(await count('quotes')).toBe(before.quotes + 1);
    expect(await count('outbox')).toBe(before.mails + 1);
  });

  it('should store one quote when the same key arrives several times at once', async () => {
    const before = await count('quotes');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post('warranty', WARRANTY, 'at-once-1')),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(201));
    expect(new Set(answers.map((a) => a.json<{ reference: string }>().reference)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(7);
    expect(await count('quotes')).toBe(before + 1);
  });

  // PostgreSQL runs the transactions side by side (SQLite runs them in turn): both resends find no row, and the
  // second one's insert meets the unique index once the first has committed. Held apart here by a lock on the
  // reference counters, which each takes after its look-up.
  it.runIf(target.name === 'postgres')(
    'should answer the loser of a race between two sends of one key from the winner’s row',
    async () => {
      const before = await count('quotes');
      const answers = await t.app.db.kysely.transaction().execute(async (trx) => {
        await sql`select value from sequences for update`.execute(trx);
        const sent = [post('warranty', WARRANTY, 'race-1'), post('warranty', WARRANTY, 'race-1')];
        // Both past their look-up and waiting for the counter.
        await new Promise((resolve) => setTimeout(resolve, 500));
        return sent;
      });
      const [a, b] = await Promise.all(answers);
      expect([a?.statusCode, b?.statusCode]).toEqual([201, 201]);
      expect(a?.json()).toEqual(b?.json());
      expect([a, b].filter((r) => r?.headers['idempotent-replayed'] === 'true')).toHaveLength(1);
      expect(await count('quotes')).toBe(before + 1);
    },
  );

  it('should refuse a different submission under a used key with 409, storing nothing', async () => {
    expect((await post('warranty', WARRANTY, 'changed-1')).statusCode).toBe(201);
    const before = await count('quotes');
    for (const [path, body] of [
      ['warranty', { ...WARRANTY, units: 11 }],
      ['warranty', { ...WARRANTY, email: 'grace@example.com' }],
      ['car', CAR],
    ] as const) {
      const response = await post(path, body, 'changed-1');
      expect(response.statusCode, JSON.stringify(body)).toBe(409);
      expect(response.json()).toEqual({ error: IDEMPOTENCY_KEY_REUSED });
    }
    expect(await count('quotes')).toBe(before);
  });

  it('should take a resend that differs only in the browser’s figures for the same submission', async () => {
    const first = await post('warranty', { ...WARRANTY, estimateValue: 1 }, 'figures-1');
    expect(first.statusCode).toBe(201);
    const before = await count('quotes');
    // The figures are not part of the submission (the server never uses or keeps them).
    const again = await post('warranty', { ...WARRANTY, estimateValue: 99 }, 'figures-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    // A row stored before they were dropped still holds them: a resend is matched against it all the same.
    const { reference } = first.json<{ reference: string }>();
    await t.app.db.kysely
      .updateTable('quotes')
      .set({ input: JSON.stringify({ ...WARRANTY, estimateValue: 1, totalPercentage: '1.5' }) })
      .where('reference', '=', reference)
      .where('idempotency_key', '=', 'figures-1')
      .execute();
    const old = await post('warranty', WARRANTY, 'figures-1');
    expect(old.headers['idempotent-replayed']).toBe('true');
    expect(old.json()).toEqual(first.json());
    expect(await count('quotes')).toBe(before);
  });

  it('should keep each user’s keys their own: another user’s same key stores a new quote', async () => {
    const mine = await post('warranty', WARRANTY, 'shared-key');
    const other = await loginOpen(t.app, 'demo', { email: 'someone.else@example.com' });
    const theirs = await post('warranty', WARRANTY, 'shared-key', other);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json<{ reference: string }>().reference).not.toBe(
      mine.json<{ reference: string }>().reference,
    );
  });

  it('should store every submission sent without a key, as before', async () => {
    const before = await count('quotes');
    expect((await post('warranty', WARRANTY)).statusCode).toBe(201);
    expect((await post('warranty', WARRANTY)).statusCode).toBe(201);
    expect(await count('quotes')).toBe(before + 2);
  });

  it('should refuse a key that is empty, too long or not visible ASCII, storing nothing', async () => {
    const before = await count('quotes');
    for (const key of ['', ' ', 'a b', 'x'.repeat(256), 'caf\u00e9', 'tab\there']) {
      const response = await post('warranty', WARRANTY, key);
      expect(response.statusCode, JSON.stringify(key)).toBe(400);
      expect(response.json()).toEqual({ error: BAD_IDEMPOTENCY_KEY });
    }
    // A repeated header: hardening/exhaustion-protocol.test.ts (over a socket; Node joins the values).
    expect(await count('quotes')).toBe(before);
    expect((await post('warranty', WARRANTY, 'x'.repeat(255))).statusCode).toBe(201);
  });
});
