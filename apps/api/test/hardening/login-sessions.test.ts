import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE } from '../../src/clock.js';
import { sha256 } from '../../src/crypto.js';
import { NOT_A_NAVIGATION_MESSAGE, PREFETCH_MESSAGE } from '../../src/plugins/app/cross-site.js';
import {
  PERSON,
  buildTestApp,
  databases,
  loginLinkToken,
  loginMagic,
  loginOpen,
  outboxMails,
  sessionCookie,
  type TestApp,
} from '../helper.js';
import { FUZZ_PARAMS } from './support.js';

/** Asks northbank (magic link) for a link and returns the token from the mail. */
async function requestToken(t: TestApp, email: string, prefix = 'northbank'): Promise<string> {
  const before = (await outboxMails(t.dataDir)).length;
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/${prefix}/login`,
    payload: { ...PERSON, email },
  });
  expect(response.statusCode).toBe(200);
  await t.app.background.drain();
  const mail = (await outboxMails(t.dataDir))[before];
  if (mail === undefined) throw new Error('no login mail');
  return loginLinkToken(mail);
}

const useToken = (t: TestApp, token: string, prefix = 'northbank', extra = '') =>
  t.app.inject({
    method: 'POST',
    url: `/api/${prefix}/login/link`,
    payload: `token=${encodeURIComponent(token)}${extra}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

const loggedInAs = async (t: TestApp, cookie: string, prefix = 'northbank') => {
  const me = (
    await t.app.inject({ method: 'GET', url: `/api/${prefix}`, headers: { cookie } })
  ).json<{
    logged_in: boolean;
    email: string;
  }>();
  return me.logged_in ? me.email : null;
};

const noSession = (response: LightMyRequestResponse) =>
  response.cookies.filter((c) => (c.name === 'sid' || c.name === '__Host-sid') && c.value !== '');

describe.each(databases)('login links, hostile uses ($name)', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  it('should refuse every altered token (one character changed, cut, extended, re-cased) and still honour the real one', async () => {
    const token = await requestToken(t, 'mutations@example.com');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const altered = fc
      .oneof(
        fc
          .tuple(fc.nat(token.length - 1), fc.constantFrom(...alphabet))
          .map(([i, c]) => token.slice(0, i) + c + token.slice(i + 1)),
        fc.nat(token.length - 1).map((n) => token.slice(0, n)),
        fc.string({ minLength: 1, maxLength: 5 }).map((s) => token + s),
        fc.constant(token.toUpperCase()),
        fc.constant(token.toLowerCase()),
        fc.constant(` ${token}`),
        fc.constant(sha256(token)),
      )
      .filter((candidate) => candidate !== token);
    await fc.assert(
      fc.asyncProperty(altered, async (candidate) => {
        const response = await useToken(t, candidate);
        expect(response.statusCode).not.toBe(303);
        expect(noSession(response)).toEqual([]);
      }),
      { ...FUZZ_PARAMS, numRuns: Math.min(FUZZ_PARAMS.numRuns, 200) },
    );
    // Found by the twentieth session's API probe: a token given twice was "must be string". It is named, and the
    // token is not spent.
    const twice = await useToken(t, token, 'northbank', `&token=${token}`);
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toEqual({ error: 'Invalid body: the field "token" is given twice.' });
    expect((await useToken(t, token)).statusCode).toBe(303);
  });

  // Found by the twenty-seventh session: a form in UTF-16 was read as UTF-8 and told its token was missing, and a
  // Latin-1 one had its bytes past ASCII turned into U+FFFD. Neither spends the token.
  it('should refuse a form that is not UTF-8 in its own words, and leave the token unspent', async () => {
    const token = await requestToken(t, 'utf16@example.com');
    const send = (payload: Buffer, charset?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/northbank/login/link',
        payload,
        headers: {
          'content-type': `application/x-www-form-urlencoded${charset === undefined ? '' : `; charset=${charset}`}`,
        },
      });
    for (const [payload, charset] of [
      [Buffer.from(`token=${token}`, 'utf16le'), 'utf-16le'],
      [Buffer.from(`\uFEFFtoken=${token}`, 'utf16le'), 'UTF-16'],
      [Buffer.from(`token=${token}`, 'latin1'), 'iso-8859-1'],
    ] as const) {
      const response = await send(payload, charset);
      expect(response.statusCode, charset).toBe(415);
      expect(response.json(), charset).toEqual({
        error:
          'This content type is not accepted: send the form as UTF-8 (charset=utf-8, or no charset).',
      });
    }
    const latin1 = await send(Buffer.from(`token=${token}\u00E9`, 'latin1'));
    expect(latin1.statusCode).toBe(400);
    expect(latin1.json()).toEqual({ error: 'Invalid body: it is not valid UTF-8 text.' });
    expect((await send(Buffer.from(`token=${token}`), 'UTF-8')).statusCode).toBe(303);
  });

  it('should let a reused token log in exactly once, even when both uses arrive together', async () => {
    const token = await requestToken(t, 'race@example.com');
    const answers = await Promise.all([useToken(t, token), useToken(t, token), useToken(t, token)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([303, 400, 400]);
    expect(answers.flatMap(noSession)).toHaveLength(1);
    expect((await useToken(t, token)).statusCode).toBe(400);
  });

  it('should refuse a token at any time after 15 minutes, and accept it just before', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 15 * MINUTE, max: 60 * DAY }), async (late) => {
        const token = await requestToken(t, `late${late}@example.com`);
        t.clock.advance(late);
        const response = await useToken(t, token);
        expect(response.statusCode).toBe(400);
        expect(noSession(response)).toEqual([]);
      }),
      { ...FUZZ_PARAMS, numRuns: 10 },
    );
    const token = await requestToken(t, 'intime@example.com');
    t.clock.advance(15 * MINUTE - 1000);
    expect((await useToken(t, token)).statusCode).toBe(303);
  });

  it("should refuse a token on another client's link and never log in as another e-mail", async () => {
    const victim = await requestToken(t, 'victim@example.com');
    const attacker = await requestToken(t, 'attacker@example.com');
    // Another client's path: refused, and the token is not spent.
    expect((await useToken(t, victim, 'demo')).statusCode).toBe(400);
    // The attacker's own token with an e-mail field: refused (unknown field), nothing spent.
    const withEmail = await useToken(t, attacker, 'northbank', '&email=victim%40example.com');
    expect(withEmail.statusCode).toBe(400);
    expect(noSession(withEmail)).toEqual([]);
    // The attacker's token logs in the attacker, whatever else is sent along.
    const own = await useToken(t, attacker);
    expect(own.statusCode).toBe(303);
    expect(await loggedInAs(t, sessionCookie(own))).toBe('attacker@example.com');
    // The victim's token still works where it belongs, for the victim.
    const victimSession = await useToken(t, victim);
    expect(await loggedInAs(t, sessionCookie(victimSession))).toBe('victim@example.com');
  });

  it('should not spend a token on a mail scanner: GET and HEAD, repeatedly, with tracking parameters', async () => {
    const token = await requestToken(t, 'scanner@example.com');
    for (const method of ['GET', 'HEAD', 'GET', 'GET'] as const) {
      const page = await t.app.inject({
        method,
        url: `/api/northbank/login/link?token=${token}`,
      });
      expect(page.statusCode).toBe(200);
      expect(noSession(page)).toEqual([]);
    }
    // Tracking parameters a mail service adds do not break the link: the same Continue page.
    const tracked = await t.app.inject({
      method: 'GET',
      url: `/api/northbank/login/link?token=${token}&utm_source=mail&utm_medium=email`,
    });
    expect(tracked.statusCode).toBe(200);
    expect(tracked.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(tracked.body).toContain('action="/api/northbank/login/link"');
    expect(noSession(tracked)).toEqual([]);
    // A damaged link (no token, two, one too long) is a person's page that says so, not JSON.
    for (const query of [
      '',
      '?token=',
      `?token=${token}&token=${token}`,
      `?token=${'A'.repeat(201)}`,
      // Characters a token never has: a NUL (never written into the page), markup, a space a mail client added.
      `?token=${token}%00`,
      '?token=%00',
      `?token=${token}%22%3E%3Cscript%3E`,
      `?token=%20${token}`,
    ]) {
      const damaged = await t.app.inject({
        method: 'GET',
        url: `/api/northbank/login/link${query}`,
      });
      expect(damaged.statusCode, query).toBe(400);
      expect(damaged.headers['content-type'], query).toBe('text/html; charset=utf-8');
      expect(damaged.body, query).toContain('invalid');
      expect(damaged.body, query).not.toContain('\u0000');
      expect(noSession(damaged)).toEqual([]);
    }
    expect((await useToken(t, token)).statusCode).toBe(303);
  });

  it('should answer byte-identically for known and unknown e-mails, whatever their case or spacing', async () => {
    await loginMagic(t, 'northbank', { email: 'known.person@example.com' });
    const answer = async (email: string) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/northbank/login',
        payload: { ...PERSON, email },
      });
      await t.app.background.drain();
      const { date: _date, ...headers } = response.headers;
      return {
        status: response.statusCode,
        body: response.body,
        headers,
        cookies: response.cookies,
      };
    };
    const known = await answer('known.person@example.com');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.emailAddress(),
          fc.constantFrom(
            'KNOWN.PERSON@EXAMPLE.COM',
            'known.person@example.com',
            'nobody@example.com',
          ),
        ),
        async (email) => {
          expect(await answer(email)).toEqual(known);
        },
      ),
      { ...FUZZ_PARAMS, numRuns: 20 },
    );
    expect(known.status).toBe(200);
    expect(JSON.parse(known.body)).toEqual({ redirect: false });
  });
});

describe.each(databases)('login rate limits, evasions ($name)', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target, { LOGIN_LIMIT_PER_EMAIL: '5', LOGIN_LIMIT_PER_ADDRESS: '20' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('should count an e-mail in any case and across addresses, then answer 429', async () => {
    const variants = [
      'target@example.com',
      'TARGET@example.com',
      'tarGET@example.com',
      'Target@Example.Com',
      'target@EXAMPLE.COM',
    ];
    for (const [i, email] of variants.entries()) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/northbank/login',
        payload: { ...PERSON, email },
        remoteAddress: `198.51.100.${i + 1}`,
      });
      expect(response.statusCode, email).toBe(200);
    }
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/northbank/login',
      payload: { ...PERSON, email: 'tArGeT@example.com' },
      remoteAddress: '198.51.100.99',
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: expect.stringMatching(/too many/i) });
    expect(refused.cookies).toEqual([]);
  });

  it('should not let X-Forwarded-For spoof a fresh address when no proxy is trusted', async () => {
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i < 21; i += 1) {
      last = await t.app.inject({
        method: 'POST',
        url: '/api/demo/login',
        payload: { ...PERSON, email: `spoof${i}@example.com` },
        remoteAddress: '203.0.113.5',
        headers: { 'x-forwarded-for': `10.9.8.${i}` },
      });
    }
    expect(last?.statusCode).toBe(429);
  });
});

describe.each(databases)('sessions ($name)', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  const rawToken = (cookie: string) => {
    const value = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
    return value.slice(0, value.lastIndexOf('.'));
  };

  it('should give a new id of at least 128 bits at every login (open and magic link), stored only hashed', async () => {
    const cookies = [
      await loginOpen(t.app),
      await loginOpen(t.app),
      await loginMagic(t, 'northbank'),
      await loginMagic(t, 'northbank'),
    ];
    const tokens = cookies.map(rawToken);
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const token of tokens) {
      expect(Buffer.from(token, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    }
    const stored = await t.app.db.kysely.selectFrom('sessions').select('id').execute();
    const ids = stored.map((s) => s.id);
    for (const token of tokens) expect(ids).not.toContain(token);
  });

  it('should keep no usable login link in the database once its mail is sent', async () => {
    const token = await requestToken(t, 'stored-link@example.com');
    const mails = await t.app.db.kysely
      .selectFrom('outbox')
      .select(['payload', 'sent_at'])
      .where('kind', '=', 'mail')
      .execute();
    const sent = mails.filter((row) => row.payload.includes('stored-link@example.com'));
    expect(sent).toHaveLength(1);
    expect(sent[0]?.sent_at).not.toBeNull();
    expect(sent[0]?.payload).not.toContain(token);
    expect(sent[0]?.payload).toContain('/login/link?token=[redacted]');
    const tokens = await t.app.db.kysely.selectFrom('login_tokens').selectAll().execute();
    expect(JSON.stringify(tokens)).not.toContain(token);
    // The mail itself carried the link, which works.
    expect((await useToken(t, token)).statusCode).toBe(303);
  });

  it('should end the old session when someone logs in again with a cookie (no fixation)', async () => {
    const old = await loginOpen(t.app);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/demo/login',
      payload: PERSON,
      headers: { cookie: old },
    });
    const fresh = sessionCookie(again);
    expect(fresh).not.toBe(old);
    expect(await loggedInAs(t, old, 'demo')).toBeNull();
    expect(await loggedInAs(t, fresh, 'demo')).toBe(PERSON.email);
  });

  it('should refuse a logged-out cookie on every protected route, even replayed later', async () => {
    const cookie = await loginOpen(t.app);
    const out = await t.app.inject({ method: 'GET', url: '/api/demo/logout', headers: { cookie } });
    expect(out.statusCode).toBe(303);
    const cleared = out.cookies.find((c) => c.name === 'sid');
    expect(cleared).toMatchObject({ value: '', httpOnly: true, sameSite: 'Lax', path: '/' });
    for (const url of [
      '/api/demo/content',
      '/api/demo/video',
      '/api/demo/article?id=harbour-quay&type=case_study',
    ]) {
      expect(
        (await t.app.inject({ method: 'GET', url, headers: { cookie } })).statusCode,
        url,
      ).toBe(401);
    }
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/demo/activity',
      payload: { action: 'view', item: 'x' },
      headers: { cookie },
    });
    expect(post.statusCode).toBe(401);
  });

  it('should clear the cookie of a session that ran out when its holder logs out, but not another client’s', async () => {
    const cookie = await loginOpen(t.app);
    t.clock.advance(12 * HOUR);
    const out = await t.app.inject({ method: 'GET', url: '/api/demo/logout', headers: { cookie } });
    expect(out.statusCode).toBe(303);
    expect(out.cookies).toEqual([expect.objectContaining({ name: 'sid', value: '' })]);
    // A live session of another client is that client's business.
    const other = await loginMagic(t, 'northbank');
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: '/api/demo/logout',
      headers: { cookie: other },
    });
    expect(elsewhere.statusCode).toBe(303);
    expect(elsewhere.cookies).toEqual([]);
    expect(await loggedInAs(t, other, 'northbank')).toBe(PERSON.email);
  });

  it('should refuse a cross-site logout (a GET that changes state)', async () => {
    const cookie = await loginOpen(t.app);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/demo/logout',
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(response.statusCode).toBe(403);
    expect(await loggedInAs(t, cookie, 'demo')).toBe(PERSON.email);
  });

  it('should log out only when the page is opened: not by HEAD, nor by an image or fetch of this very site', async () => {
    const cookie = await loginOpen(t.app);
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/api/demo/logout',
      headers: { cookie },
    });
    expect(head.statusCode).toBe(405);
    // Content holding <img src="/api/demo/logout">, or a script of the site, is same-origin but no page.
    for (const [mode, dest] of [
      ['no-cors', 'image'],
      ['cors', 'empty'],
      ['navigate', 'iframe'],
      ['no-cors', 'script'],
    ] as const) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/demo/logout',
        headers: {
          cookie,
          'sec-fetch-site': 'same-origin',
          'sec-fetch-mode': mode,
          'sec-fetch-dest': dest,
        },
      });
      expect(response.statusCode, `${mode} ${dest}`).toBe(403);
      expect(response.json()).toEqual({ error: NOT_A_NAVIGATION_MESSAGE });
      expect(await loggedInAs(t, cookie, 'demo')).toBe(PERSON.email);
    }
    // The Log out link, followed.
    const out = await t.app.inject({
      method: 'GET',
      url: '/api/demo/logout',
      headers: {
        cookie,
        'sec-fetch-site': 'same-origin',
        'sec-fetch-mode': 'navigate',
        'sec-fetch-dest': 'document',
        'sec-fetch-user': '?1',
      },
    });
    expect(out.statusCode).toBe(303);
    expect(await loggedInAs(t, cookie, 'demo')).toBeNull();
  });

  it('should not log out when the browser only fetches the Log out link ahead of time (prefetch, prerender)', async () => {
    const cookie = await loginOpen(t.app);
    const navigation = {
      cookie,
      'sec-fetch-site': 'same-origin',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    };
    for (const purpose of [
      { 'sec-purpose': 'prefetch' },
      { 'sec-purpose': 'prefetch;prerender' },
      { 'sec-purpose': 'prefetch;anonymous-client-ip' },
      { purpose: 'prefetch' },
      { 'x-moz': 'prefetch' },
      { 'x-purpose': 'preview' },
    ]) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/demo/logout',
        headers: { ...navigation, ...purpose },
      });
      expect(response.statusCode, JSON.stringify(purpose)).toBe(403);
      expect(response.json()).toEqual({ error: PREFETCH_MESSAGE });
      expect(response.headers['cache-control']).toContain('no-store');
      expect(noSession(response)).toEqual([]);
      expect(response.cookies).toEqual([]);
      expect(await loggedInAs(t, cookie, 'demo')).toBe(PERSON.email);
    }
    // The link opened for real afterwards still logs out.
    const out = await t.app.inject({
      method: 'GET',
      url: '/api/demo/logout',
      headers: { ...navigation, 'sec-fetch-user': '?1' },
    });
    expect(out.statusCode).toBe(303);
    expect(await loggedInAs(t, cookie, 'demo')).toBeNull();
  });

  it('should refuse an unsigned or re-signed session id', async () => {
    const cookie = await loginOpen(t.app);
    const token = rawToken(cookie);
    for (const forged of [
      `sid=${token}`,
      `sid=${encodeURIComponent(`${token}.AAAA`)}`,
      `sid=s%3A${token}`,
    ]) {
      expect(await loggedInAs(t, forged, 'demo'), forged).toBeNull();
    }
  });
});

describe('session cookie flags over https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(databases[0]!, { PUBLIC_URL: 'https://portal.example' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('should set __Host-sid with Secure, HttpOnly, SameSite=Lax, Path=/ and no Domain on every way in and out', async () => {
    const flags = { httpOnly: true, secure: true, sameSite: 'Lax', path: '/' };
    const open = await t.app.inject({ method: 'POST', url: '/api/demo/login', payload: PERSON });
    const openCookie = open.cookies.find((c) => c.name === '__Host-sid');
    expect(openCookie).toMatchObject(flags);
    expect(openCookie).not.toHaveProperty('domain');
    expect(open.cookies.find((c) => c.name === 'sid')).toBeUndefined();

    const token = await requestToken(t, 'secure@example.com');
    const link = await useToken(t, token);
    expect(link.statusCode).toBe(303);
    expect(link.cookies.find((c) => c.name === '__Host-sid')).toMatchObject(flags);

    const out = await t.app.inject({
      method: 'GET',
      url: '/api/demo/logout',
      headers: { cookie: sessionCookie(open) },
    });
    expect(out.cookies.find((c) => c.name === '__Host-sid')).toMatchObject({ ...flags, value: '' });
    // The plain name is not accepted in place of the __Host- one.
    const plain = sessionCookie(link).replace('__Host-sid', 'sid');
    expect(await loggedInAs(t, plain)).toBeNull();
    // Nor a name whose prefix is in another case: a sibling subdomain could set one with its Domain in a browser that
    // checks the prefix case-sensitively (cookie tossing, probed by the twenty-seventh session: it held).
    for (const name of ['__host-sid', '__HOST-sid', '__Host-SID']) {
      expect(await loggedInAs(t, sessionCookie(link).replace('__Host-sid', name)), name).toBeNull();
    }
    expect(await loggedInAs(t, sessionCookie(link))).toBe('secure@example.com');
    expect(String(open.headers['strict-transport-security'])).toContain('max-age=');
  });
});
