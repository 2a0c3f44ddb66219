import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, databases, loginOpen, outboxMails, type TestApp } from '../../helper.js';

const WARRANTY = {
  build_type: 'New Build',
  stageType: 'Not Started',
  units: 12,
  build_value: 2_500_000,
  GDV: 6_000_000,
  name: 'Ada Lovelace',
  telephone: '020 7946 0123',
  email: 'ada@example.com',
};

/**
 * Test triggers on quotes: a contact named "Reject Me" fails its own INSERT; one named "Fail Commit" inserts
 * an orphan into a table whose foreign key is checked only at COMMIT, so its statement passes and the
 * commit holding it fails.
 */
const SQLITE_TRIGGERS = [
  `create table commit_guard (
     client_id text not null references clients (id) deferrable initially deferred)`,
  `create trigger reject_quote before insert on quotes when new.contact_name = 'Reject Me'
   begin select raise(abort, 'rejected by the test trigger'); end`,
  `create trigger fail_commit after insert on quotes when new.contact_name = 'Fail Commit'
   begin insert into commit_guard (client_id) values ('no such client'); end`,
];
const POSTGRES_TRIGGERS = [
  `create table commit_guard (
     client_id text not null references clients (id) deferrable initially deferred)`,
  `create function test_quote_trigger() returns trigger language plpgsql as $$
   begin
     if new.contact_name = 'Reject Me' then raise exception 'rejected by the test trigger'; end if;
     if new.contact_name = 'Fail Commit' then
       insert into commit_guard (client_id) values ('no such client');
     end if;
     return new;
   end $$`,
  `create trigger test_quote_trigger before insert on quotes
   for each row execute function test_quote_trigger()`,
];

describe.each(databases)('submissions committed together ($name)', (target) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp(target, { TEAM_EMAIL: 'quotes@advisory.example' });
    cookie = await loginOpen(t.app);
    for (const statement of target.name === 'sqlite' ? SQLITE_TRIGGERS : POSTGRES_TRIGGERS) {
      await sql.raw(statement).execute(t.app.db.kysely);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  /** POSTs every body at once (same tick), answers in order. */
  const postAll = (names: string[]) =>
    Promise.all(
      names.map((name) =>
        t.app.inject({
          method: 'POST',
          url: '/api/demo/warranty',
          payload: { ...WARRANTY, name },
          headers: { cookie },
        }),
      ),
    );
  const storedReferences = async () =>
    (
      await t.app.db.kysely
        .selectFrom('quotes')
        .select(['reference', 'contact_name'])
        .orderBy('reference')
        .execute()
    ).map((r) => r.reference);
  const refs = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => `BW-2026-${String(from + i).padStart(6, '0')}`);

  it('should store every concurrent POST with its own reference and queue its e-mail', async () => {
    const responses = await postAll(Array.from({ length: 30 }, (_, i) => `Client ${i}`));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(30).fill(201));
    const answered = responses.map((r) => r.json<{ reference: string }>().reference);
    expect([...answered].sort()).toEqual(refs(1, 30));
    expect(await storedReferences()).toEqual(refs(1, 30));

    await t.app.background.drain();
    await t.app.outbox.runOnce();
    const mails = await outboxMails(t.dataDir);
    for (const reference of answered) {
      expect(mails.filter((m) => m.includes(`Reference: ${reference}`))).toHaveLength(1);
    }
  });

  it('should fail only the POST whose insert fails, keeping the references gapless', async () => {
    const names = Array.from({ length: 8 }, (_, i) => (i === 3 ? 'Reject Me' : `Client ${i}`));
    const responses = await postAll(names);
    expect(responses.map((r) => r.statusCode)).toEqual([201, 201, 201, 500, 201, 201, 201, 201]);
    expect(responses[3]?.json()).toEqual({ error: 'Internal server error' });
    const answered = responses
      .filter((r) => r.statusCode === 201)
      .map((r) => r.json<{ reference: string }>().reference);
    expect([...answered].sort()).toEqual(refs(31, 37));
    expect(await storedReferences()).toEqual(refs(1, 37));
  });

  it('should answer 5xx to every POST of a commit that fails, and store none of them', async () => {
    const before = await storedReferences();
    const names = Array.from({ length: 8 }, (_, i) => (i === 5 ? 'Fail Commit' : `Client ${i}`));
    const responses = await postAll(names);
    const codes = responses.map((r) => r.statusCode);
    expect(codes[5]).toBe(500);
    expect(codes.every((code) => code === 201 || code === 500)).toBe(true);
    const acknowledged = responses
      .filter((r) => r.statusCode === 201)
      .map((r) => r.json<{ reference: string }>().reference);
    // Exactly the acknowledged ones are stored (gapless after the earlier ones).
    expect(await storedReferences()).toEqual([...before, ...[...acknowledged].sort()]);
    expect([...acknowledged].sort()).toEqual(refs(38, 37 + acknowledged.length));
    if (target.name === 'sqlite') {
      // The POSTs sent together share the failed commit: none of them was acknowledged.
      expect(codes).toEqual(Array(8).fill(500));
    } else {
      // PostgreSQL commits each POST on its own.
      expect(codes.filter((code) => code === 500)).toHaveLength(1);
    }
    expect(
      await t.app.db.kysely
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n)),
    ).toBe(37 + acknowledged.length);

    // Later POSTs are committed as usual.
    const [after] = await postAll(['Client after']);
    expect(after?.statusCode).toBe(201);
  });
});
