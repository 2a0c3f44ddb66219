import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findClientByPrefix, type Client } from '../../src/repositories/clients.js';
import { findContentItem, upsertContentItem } from '../../src/repositories/content.js';
import { insertActivity, listActivity } from '../../src/repositories/records.js';
import { createOpenUser, upsertVerifiedUser } from '../../src/repositories/users.js';
import { buildTestApp, databases, type TestApp } from '../helper.js';

/**
 * Staff commands and logins running at the same moment as each other (two content imports of one client, two
 * login links of one e-mail), and exports that list every record in the same order each time. On PostgreSQL
 * the two writers really overlap (the first holds its transaction open while the second starts); on SQLite
 * the second waits for the first, which must work as well.
 */
describe.each(databases)('staff concurrency ($name)', (target) => {
  let t: TestApp;
  let demo: Client;
  const now = new Date('2026-03-02T09:00:00.000Z');

  beforeAll(async () => {
    t = await buildTestApp(target);
    const found = await findClientByPrefix(t.app.db.kysely, 'demo');
    if (found === undefined) throw new Error('demo client missing');
    demo = found;
  });
  afterAll(async () => {
    await t.close();
  });

  /**
   * Runs `first` in a transaction that stays open while `second` starts in its own, then commits; resolves with
   * both outcomes. This is what two processes (two `content import` runs, two instances) do to each other.
   */
  async function overlapping<T>(
    first: (trx: typeof t.app.db.kysely) => Promise<T>,
    second: (trx: typeof t.app.db.kysely) => Promise<T>,
  ): Promise<PromiseSettledResult<T>[]> {
    let other: Promise<T> | undefined;
    const one = t.app.db.kysely.transaction().execute(async (trx) => {
      const value = await first(trx);
      other = t.app.db.kysely.transaction().execute(second);
      // Let the second reach its write (it waits on the first's uncommitted row) before committing.
      await sleep(300);
      return value;
    });
    const settledOne = await Promise.allSettled([one]);
    return [...settledOne, ...(await Promise.allSettled([other as Promise<T>]))];
  }

  const item = (title: string) => ({
    type: 'insight' as const,
    slug: 'imported-twice',
    title,
    summary: 'Summary',
    bodyText: title,
    html: `<p>${title}</p>`,
    imageUrl: null,
    proTip: null,
    sortOrder: 1,
    related: [],
  });

  it('should let two imports of one client add the same new item at the same moment', async () => {
    const outcomes = await overlapping(
      (trx) => upsertContentItem(trx, demo.id, item('From the first import'), now),
      (trx) => upsertContentItem(trx, demo.id, item('From the second import'), now),
    );
    // Before: the second import failed with 'duplicate key value violates unique constraint
    // "content_items_client_type_slug"' (PostgreSQL), shown to staff as it was.
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
    const stored = await findContentItem(t.app.db.kysely, demo.id, 'insight', 'imported-twice');
    expect(stored?.title).toBe('From the second import');
    const copies = await t.app.db.kysely
      .selectFrom('content_items')
      .select('id')
      .where('client_id', '=', demo.id)
      .where('slug', '=', 'imported-twice')
      .execute();
    expect(copies).toHaveLength(1);
  });

  it('should log in once per e-mail when two links of one e-mail are used at the same moment', async () => {
    const northbank = await findClientByPrefix(t.app.db.kysely, 'northbank');
    if (northbank === undefined) throw new Error('northbank client missing');
    const person = (first: string) => ({
      email: 'twice@example.com',
      first_name: first,
      last_name: 'Link',
      phone: '020 7946 0123',
    });
    const outcomes = await overlapping(
      (trx) => upsertVerifiedUser(trx, northbank.id, person('First'), now),
      (trx) => upsertVerifiedUser(trx, northbank.id, person('Second'), now),
    );
    // Before: the second link answered 500 (duplicate key on "users_verified_email", PostgreSQL).
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
    const [a, b] = outcomes.map((o) => (o.status === 'fulfilled' ? o.value : undefined));
    expect(a?.id).toBeDefined();
    expect(b?.id).toBe(a?.id);
    expect(b).toMatchObject({ client_id: northbank.id, verified: 1, first_name: 'Second' });
    const users = await t.app.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('client_id', '=', northbank.id)
      .where('email', '=', 'twice@example.com')
      .execute();
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ first_name: 'Second', verified: 1 });
    // The same e-mail at another client, and open logins, are other records.
    const demoUser = await upsertVerifiedUser(t.app.db.kysely, demo.id, person('Demo'), now);
    expect(demoUser.id).not.toBe(a?.id);
  });

  it('should export activity of the same moment in the same order every time, on either database', async () => {
    const user = await createOpenUser(
      t.app.db.kysely,
      demo.id,
      { email: 'order@example.com', first_name: 'Or', last_name: 'Der', phone: '1' },
      now,
    );
    const at = new Date('2026-05-05T05:05:05.005Z');
    for (const item of ['c', 'a', 'b', 'e', 'd']) {
      await insertActivity(
        t.app.db.kysely,
        { clientId: demo.id, userId: user.id, action: 'view', item },
        at,
      );
    }
    const ids = await t.app.db.kysely
      .selectFrom('activity')
      .select(['id', 'item'])
      .where('client_id', '=', demo.id)
      .where('at', '=', at.toISOString())
      .execute();
    const byId = [...ids].sort((x, y) => (x.id < y.id ? -1 : 1)).map((r) => r.item);
    const exported = (await listActivity(t.app.db.kysely, demo.id))
      .filter((r) => r.at === at.toISOString())
      .map((r) => r.item);
    // Ties are in id order (before: in whatever order the database returned them; on SQLite the order they
    // were written, on PostgreSQL not fixed at all).
    expect(exported).toEqual(byId);
  });
});
