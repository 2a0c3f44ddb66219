import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAD_IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_REUSED } from '../../../src/services/idempotency.js';
import { DUE_DILIGENCE_FIELDS, VALID_BODIES } from '../../hardening/support.js';
import {
  buildTestApp,
  countRows,
  databases,
  loginOpen,
  multipart,
  pdf,
  type TestApp,
} from '../../helper.js';

const FIELDS = DUE_DILIGENCE_FIELDS;
const FILE = { filename: 'appraisal.pdf', content: pdf(8192) };

/**
 * A due-diligence request sent again with its `Idempotency-Key` (after a dropped connection, a timeout, a reload
 * while it was on its way) is answered as the first was: one row, one file, one e-mail, one forward.
 */
describe.each(databases)('Idempotency-Key on due-diligence requests ($name)', (target) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp(target, {
      TEAM_EMAIL: 'dd@advisory.example',
      // The forward is queued with the mail: counted below, never sent (nothing listens there).
      FORM_SERVICE_URL: 'http://127.0.0.1:9/forms/dd',
      DUE_DILIGENCE_LIMIT_PER_HOUR: '4',
    });
    cookie = await loginOpen(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (
    fields: Record<string, string>,
    file: typeof FILE | undefined,
    key?: string,
    session = cookie,
  ) => {
    const form = multipart(fields, file);
    return t.app.inject({
      method: 'POST',
      url: '/api/demo/due-diligence',
      payload: form.payload,
      headers: {
        ...form.headers,
        cookie: session,
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
    });
  };
  const count = (table: 'due_diligence' | 'outbox') => countRows(t.app, table);
  const uploads = async () => {
    try {
      return (await readdir(path.join(t.dataDir, 'uploads'))).sort();
    } catch {
      return [];
    }
  };
  const snapshot = async () => ({
    requests: await count('due_diligence'),
    queued: await count('outbox'),
    files: await uploads(),
  });

  it('should answer a resend with the same redirect, storing, mailing, forwarding and keeping nothing again', async () => {
    const before = await snapshot();
    const first = await post(FIELDS, FILE, 'dd-resend-1');
    expect(first.statusCode).toBe(303);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const after = await snapshot();
    expect(after.requests).toBe(before.requests + 1);
    expect(after.queued).toBe(before.queued + 2); // the team's e-mail and the form service's forward
    expect(after.files).toHaveLength(before.files.length + 1);
    for (let i = 0; i < 3; i += 1) {
      const again = await post(FIELDS, FILE, 'dd-resend-1');
      expect(again.statusCode).toBe(303);
      expect(again.headers.location).toBe('/demo/due-diligence?success=1');
      expect(again.headers['idempotent-replayed']).toBe('true');
    }
    expect(await snapshot()).toEqual(after);
  });

  it('should count a resend against the hour’s limit, as the upload it is, and refuse it past the limit', async () => {
    const fresh = await loginOpen(t.app, 'demo', { email: 'limit@example.com' });
    // The limit is 4 an hour: one request, then three resends of it.
    expect((await post(FIELDS, undefined, 'dd-limit-1', fresh)).statusCode).toBe(303);
    for (let i = 0; i < 3; i += 1) {
      const resend = await post(FIELDS, undefined, 'dd-limit-1', fresh);
      expect(resend.statusCode).toBe(303);
      expect(resend.headers['idempotent-replayed']).toBe('true');
    }
    expect((await post(FIELDS, undefined, 'dd-limit-1', fresh)).statusCode).toBe(429);
    expect((await post(FIELDS, undefined, 'dd-limit-2', fresh)).statusCode).toBe(429);
  });

  it('should refuse a different request under a used key with 409, keeping nothing of it', async () => {
    const other = await loginOpen(t.app, 'demo', { email: 'grace@example.com' });
    expect((await post(FIELDS, FILE, 'dd-changed-1', other)).statusCode).toBe(303);
    const before = await snapshot();
    for (const [fields, file] of [
      [{ ...FIELDS, SingleLine: 'Harbour Quay II' }, FILE],
      [{ ...FIELDS, Currency: '9050000' }, FILE],
      [FIELDS, undefined],
      [FIELDS, { ...FILE, content: pdf(8193) }],
      [FIELDS, { ...FILE, filename: 'appraisal-v2.pdf' }],
    ] as const) {
      const response = await post(fields, file, 'dd-changed-1', other);
      expect(response.statusCode, JSON.stringify([fields, file?.filename])).toBe(409);
      expect(response.json()).toEqual({ error: IDEMPOTENCY_KEY_REUSED });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('should keep each user’s keys their own, and a calculator’s key apart from a request’s', async () => {
    const other = await loginOpen(t.app, 'demo', { email: 'someone.else@example.com' });
    const quote = await t.app.inject({
      method: 'POST',
      url: '/api/demo/warranty',
      payload: VALID_BODIES['POST /api/:client/warranty'] ?? {},
      headers: { cookie: other, 'idempotency-key': 'dd-resend-1' },
    });
    expect(quote.statusCode).toBe(201);
    const before = await count('due_diligence');
    expect(
      (await post(FIELDS, undefined, 'dd-resend-1', other)).headers['idempotent-replayed'],
    ).toBeUndefined();
    expect(await count('due_diligence')).toBe(before + 1);
  });

  it('should refuse a malformed key before reading the form, keeping nothing', async () => {
    const before = await snapshot();
    for (const key of ['', 'a b', 'x'.repeat(256), 'caf\u00e9']) {
      const response = await post(FIELDS, FILE, key);
      expect(response.statusCode, JSON.stringify(key)).toBe(400);
      expect(response.json()).toEqual({ error: BAD_IDEMPOTENCY_KEY });
    }
    expect(await snapshot()).toEqual(before);
  });

  // PostgreSQL runs the transactions side by side (SQLite runs them in turn): both sends find no row, and the
  // second one's insert meets the unique index once the first has committed. Held apart here by a lock on the
  // reference counters, which each takes after its look-up.
  it.runIf(target.name === 'postgres')(
    'should answer the loser of a race between two sends of one key from the winner’s row, keeping one file',
    async () => {
      const fresh = await loginOpen(t.app, 'demo', { email: 'racer@example.com' });
      const before = await snapshot();
      const answers = await t.app.db.kysely.transaction().execute(async (trx) => {
        await sql`select value from sequences for update`.execute(trx);
        const sent = [
          post(FIELDS, FILE, 'dd-race-1', fresh),
          post(FIELDS, FILE, 'dd-race-1', fresh),
        ];
        await new Promise((resolve) => setTimeout(resolve, 800));
        return sent;
      });
      const [a, b] = await Promise.all(answers);
      expect([a?.statusCode, b?.statusCode]).toEqual([303, 303]);
      expect([a, b].filter((r) => r?.headers['idempotent-replayed'] === 'true')).toHaveLength(1);
      const after = await snapshot();
      expect(after.requests).toBe(before.requests + 1);
      expect(after.files).toHaveLength(before.files.length + 1);
    },
  );
});
