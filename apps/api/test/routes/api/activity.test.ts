import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_PER_MINUTE, TOO_MUCH_ACTIVITY } from '../../../src/routes/api/activity.js';
import { buildTestApp, databases, loginOpen, type TestApp } from '../../helper.js';

describe.each(databases)('POST /api/{client}/activity ($name)', (target) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp(target);
    cookie = await loginOpen(t.app);
  });
  afterAll(async () => {
    await t.close();
  });
  const post = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/demo/activity', payload, headers: { cookie } });

  it('should record the action for the client and user and answer 204', async () => {
    for (const action of ['view', 'submit', 'search']) {
      const response = await post({ action, item: `item-${action}` });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
    }
    const rows = await t.app.db.kysely
      .selectFrom('activity')
      .innerJoin('users', 'users.id', 'activity.user_id')
      .innerJoin('clients', 'clients.id', 'activity.client_id')
      .select(['activity.action', 'activity.item', 'users.email', 'clients.prefix'])
      .orderBy('activity.item')
      .execute();
    expect(rows).toEqual([
      { action: 'search', item: 'item-search', email: 'ada@example.com', prefix: 'demo' },
      { action: 'submit', item: 'item-submit', email: 'ada@example.com', prefix: 'demo' },
      { action: 'view', item: 'item-view', email: 'ada@example.com', prefix: 'demo' },
    ]);
  });

  it('should answer 400 naming a bad action, a missing item or an extra field', async () => {
    expect((await post({ action: 'click', item: 'x' })).json<{ error: string }>().error).toContain(
      '"action"',
    );
    expect((await post({ action: 'view' })).json()).toEqual({
      error: 'Missing required field "item".',
    });
    expect((await post({ action: 'view', item: 'x', user_id: 'someone' })).json()).toEqual({
      error: 'Unknown field "user_id".',
    });
    for (const item of ['', '   ', '\u200b', 'search\nforged line']) {
      const response = await post({ action: 'search', item });
      expect(response.statusCode, JSON.stringify(item)).toBe(400);
      expect(response.json<{ error: string }>().error, JSON.stringify(item)).toContain('"item"');
    }
  });

  it('should refuse a cross-site post', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/demo/activity',
      payload: { action: 'view', item: 'x' },
      headers: { cookie, 'sec-fetch-site': 'same-site' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('should take at most the limit a minute from one user, then 429 with Retry-After', async () => {
    const busy = await loginOpen(t.app, 'demo', { email: 'busy@example.com' });
    const count = async (email: string) =>
      (
        await t.app.db.kysely
          .selectFrom('activity')
          .innerJoin('users', 'users.id', 'activity.user_id')
          .select('activity.id')
          .where('users.email', '=', email)
          .execute()
      ).length;
    const as = (who: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/demo/activity',
        payload: { action: 'view', item: 'dashboard' },
        headers: { cookie: who },
      });
    for (let i = 0; i < ACTIVITY_PER_MINUTE; i += 1) {
      expect((await as(busy)).statusCode).toBe(204);
    }
    t.clock.advance(20_000);
    const refused = await as(busy);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: TOO_MUCH_ACTIVITY });
    expect(refused.headers['retry-after']).toBe('40');
    expect(await count('busy@example.com')).toBe(ACTIVITY_PER_MINUTE);
    // Another user is not held back by the busy one.
    expect((await post({ action: 'view', item: 'other' })).statusCode).toBe(204);
    // A new minute, a new allowance.
    t.clock.advance(40_000);
    expect((await as(busy)).statusCode).toBe(204);
    expect(await count('busy@example.com')).toBe(ACTIVITY_PER_MINUTE + 1);
  });
});
