import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClientError,
  createClient,
  findClientByPrefix,
  updateClient,
} from '../../src/repositories/clients.js';
import {
  buildTestApp,
  databases,
  loginMagic,
  loginOpen,
  type TestApp,
  existingClient,
} from '../helper.js';

/**
 * The staff tool's client records (`pnpm admin client add|update`, and the first-start seed): refusals change
 * nothing, and commands running at the same moment as others (or as a content import) never undo them.
 */
describe.each(databases)('staff client records ($name)', (target) => {
  let t: TestApp;
  const now = new Date('2026-03-02T09:00:00.000Z');

  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  const client = (prefix: string) => existingClient(t.app, prefix);

  it('should refuse a taken prefix with a plain message, also when the check before it raced', async () => {
    // The staff tool checks the prefix first; a second `client add` of the same prefix can pass that check
    // before the first one writes. The insert itself must then refuse in words, not with the database's error.
    await createClient(
      t.app.db.kysely,
      { prefix: 'twice', name: 'First', loginPolicy: 'open' },
      now,
    );
    const second = createClient(
      t.app.db.kysely,
      { prefix: 'twice', name: 'Second', loginPolicy: 'magic-link' },
      now,
    );
    await expect(second).rejects.toThrow(ClientError);
    await expect(second).rejects.toThrow('A client with the prefix "twice" already exists.');
    expect((await client('twice')).name).toBe('First');
  });

  it('should refuse a name or phone that is not one line of visible text, storing nothing', async () => {
    const bad: [Partial<{ name: string; contactPhone: string }>, RegExp][] = [
      [{ name: 'x'.repeat(100_000) }, /client name is 100000 characters long; at most 200/],
      [{ name: 'Two\nlines' }, /client name must be one line/],
      [{ name: 'Tab\there' }, /one line/],
      [{ name: 'Red \u001b[31malert' }, /one line/],
      [{ name: 'Nul\u0000' }, /one line/],
      [{ name: 'Sep\u2028arated' }, /one line/],
      [{ name: '\u200b\u200b\ufeff ' }, /client name must not be blank/],
      // As blank (found by the twenty-third session's staff-tool probe): the Braille blank, the Hangul fillers, a
      // lone combining mark or grapheme joiner, a variation selector, tag characters.
      [{ name: '\u2800' }, /client name must not be blank/],
      [{ name: '\u115f\u3164' }, /client name must not be blank/],
      [{ name: '\u0301\u034f\ufe0f' }, /client name must not be blank/],
      [{ name: '\u{e0067}\u{e0062}' }, /client name must not be blank/],
      [{ contactPhone: '\u3164' }, /contact phone must not be blank/],
      [{ contactPhone: '0207\r\nBcc: someone@evil.example' }, /contact phone must be one line/],
      [{ contactPhone: '9'.repeat(5000) }, /contact phone is 5000 characters long/],
    ];
    for (const [details, message] of bad) {
      await expect(
        createClient(
          t.app.db.kysely,
          { prefix: 'refused', name: 'Fine', loginPolicy: 'open', ...details },
          now,
        ),
        JSON.stringify(details).slice(0, 60),
      ).rejects.toThrow(message);
      const before = await client('demo');
      await expect(updateClient(t.app.db.kysely, before, details)).rejects.toThrow(message);
      expect(await client('demo')).toEqual(before);
    }
    expect(await findClientByPrefix(t.app.db.kysely, 'refused')).toBeUndefined();
    // Hostile but one line: taken as text (the portal escapes it; the XSS e2e relies on this).
    await createClient(
      t.app.db.kysely,
      {
        prefix: 'hostile',
        name: `XSS Lab <img src=x onerror="__xss('client-name')">`,
        loginPolicy: 'open',
        contactPhone: `javascript:__xss('phone') <img src=x onerror=__xss('phone-img')>`,
      },
      now,
    );
  });

  it('should change only what it is given, keeping what another command or an import changed meanwhile', async () => {
    await createClient(
      t.app.db.kysely,
      { prefix: 'stale', name: 'Stale Homes', loginPolicy: 'open' },
      now,
    );
    // What `client update` read before it wrote...
    const read = await client('stale');
    // ...then, before it writes, a content import publishes a logo and another command changes the name and
    // the accent colour.
    await t.app.db.kysely
      .updateTable('clients')
      .set({
        name: 'Renamed Homes',
        branding: JSON.stringify({
          ...read.branding,
          accent: '#aa0000',
          logo_url: '/media/stale/a.svg',
        }),
      })
      .where('id', '=', read.id)
      .execute();
    const updated = await updateClient(t.app.db.kysely, read, { branding: { primary: '#112233' } });
    expect(updated.name).toBe('Renamed Homes');
    expect(updated.branding).toEqual({
      primary: '#112233',
      accent: '#aa0000',
      logo_url: '/media/stale/a.svg',
    });
    // Nothing to change: nothing written, the stored client answered.
    expect(await updateClient(t.app.db.kysely, read, { branding: {} })).toEqual(updated);
  });

  it('should end the open-login sessions of a client switched to magic-link, and only those', async () => {
    await createClient(
      t.app.db.kysely,
      { prefix: 'switch', name: 'Switch Homes', loginPolicy: 'magic-link' },
      now,
    );
    const proven = await loginMagic(t, 'switch', { email: 'proven@example.com' });
    await updateClient(t.app.db.kysely, await client('switch'), { loginPolicy: 'open' });
    // While the client is open anyone can log in, typing any e-mail.
    const open = await loginOpen(t.app, 'switch', { email: 'proven@example.com' });
    const demo = await loginOpen(t.app, 'demo');
    const loggedIn = async (prefix: string, cookie: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/${prefix}`, headers: { cookie } })).json<{
        logged_in: boolean;
      }>().logged_in;
    expect(await loggedIn('switch', open)).toBe(true);

    await updateClient(t.app.db.kysely, await client('switch'), { loginPolicy: 'magic-link' });
    // Magic-link means a proven e-mail: the session that never proved one is over...
    expect(await loggedIn('switch', open)).toBe(false);
    const content = await t.app.inject({
      method: 'GET',
      url: '/api/switch/content',
      headers: { cookie: open },
    });
    expect(content.statusCode).toBe(401);
    // ...the one that came through a link goes on, and other clients' sessions are not touched.
    expect(await loggedIn('switch', proven)).toBe(true);
    expect(await loggedIn('demo', demo)).toBe(true);

    // An open login that was in flight while the switch ran (its session written after the switch ended the
    // others): it does not count either, as the lookup asks for a proven e-mail on a client that is not open.
    await updateClient(t.app.db.kysely, await client('switch'), { loginPolicy: 'open' });
    const late = await loginOpen(t.app, 'switch', { email: 'late@example.com' });
    expect(await loggedIn('switch', late)).toBe(true);
    await t.app.db.kysely
      .updateTable('clients')
      .set({ login_policy: 'magic-link', content_version: 99 })
      .where('prefix', '=', 'switch')
      .execute();
    expect(await loggedIn('switch', late)).toBe(false);
    expect(await loggedIn('switch', proven)).toBe(true);
  });
});
