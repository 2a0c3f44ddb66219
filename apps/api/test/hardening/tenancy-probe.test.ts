import net from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CROSS_SITE_MESSAGE } from '../../src/plugins/app/cross-site.js';
import {
  PERSON,
  buildTestApp,
  databases,
  decodeMail,
  listenLocally,
  loginLinkToken,
  loginMagic,
  loginOpen,
  outboxMails,
  type TestApp,
} from '../helper.js';

/**
 * Found by the hostile probe of tenancy, sessions and login links (eighth session): login CSRF from browsers
 * that send no Origin, a logout that left a session to come back, and the prefix and cookie spellings a
 * hostile client tries over a real connection.
 */

const EVIL_REFERERS = [
  'https://evil.example/page',
  // Our origin as the start of another host name, or as a path of another site.
  'http://127.0.0.1:3000.evil.example/',
  'https://evil.example/http://127.0.0.1:3000/',
  // Names no site: refused too (a browser never sends these, other clients need not send any).
  'about:blank',
  'not a url',
];

const sessionSet = (response: LightMyRequestResponse) =>
  response.cookies.filter((c) => (c.name === 'sid' || c.name === '__Host-sid') && c.value !== '');

describe.each(databases)('login CSRF from browsers that send no Origin ($name)', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  async function requestToken(email: string): Promise<string> {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/northbank/login',
      payload: { ...PERSON, email },
    });
    expect(response.statusCode).toBe(200);
    await t.app.background.drain();
    // By its address: the outbox's files sort by the (test) clock's time, then at random.
    const mail = (await outboxMails(t.dataDir)).find((m) => decodeMail(m).includes(email));
    if (mail === undefined) throw new Error('no login mail');
    return loginLinkToken(mail);
  }
  const useToken = (token: string, headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/northbank/login/link',
      payload: `token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  const loggedIn = async (cookie: string, prefix = 'demo') =>
    (await t.app.inject({ method: 'GET', url: `/api/${prefix}`, headers: { cookie } })).json<{
      logged_in: boolean;
    }>().logged_in;

  // A browser without Origin on form POSTs and without Sec-Fetch-Site (Firefox before 70, say) still names
  // the page in Referer; the check looked at Origin and Sec-Fetch-Site only, so another site's form could post
  // its own login link's token and log the visitor in as the attacker (whatever they then upload is theirs).
  it("should refuse a login link's token posted from another site's page, and leave the token unspent", async () => {
    const token = await requestToken('csrf.target@example.com');
    for (const referer of EVIL_REFERERS) {
      const response = await useToken(token, { referer });
      expect(response.statusCode, referer).toBe(403);
      expect(response.json(), referer).toEqual({ error: CROSS_SITE_MESSAGE });
      expect(sessionSet(response), referer).toEqual([]);
    }
    // The Continue page's own form (Referer of this site), and a client that sends no Referer, log in.
    const own = await useToken(token, {
      referer: `${t.config.publicUrl.origin}/api/northbank/login/link?token=${token}`,
    });
    expect(own.statusCode).toBe(303);
    expect(sessionSet(own)).toHaveLength(1);
    const bare = await useToken(await requestToken('csrf.bare@example.com'), {});
    expect(bare.statusCode).toBe(303);
  });

  it("should refuse an open login and a logout from another site's page, and keep the session", async () => {
    const usersBefore = (await t.app.db.kysely.selectFrom('users').select('id').execute()).length;
    for (const referer of EVIL_REFERERS) {
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/demo/login',
        payload: { ...PERSON, email: 'csrf.open@example.com' },
        headers: { referer },
      });
      expect(login.statusCode, referer).toBe(403);
      expect(sessionSet(login), referer).toEqual([]);
    }
    expect((await t.app.db.kysely.selectFrom('users').select('id').execute()).length).toBe(
      usersBefore,
    );
    const cookie = await loginOpen(t.app);
    for (const referer of EVIL_REFERERS) {
      const out = await t.app.inject({
        method: 'GET',
        url: '/api/demo/logout',
        headers: { cookie, referer },
      });
      expect(out.statusCode, referer).toBe(403);
      expect(await loggedIn(cookie), referer).toBe(true);
    }
    const out = await t.app.inject({
      method: 'GET',
      url: '/api/demo/logout',
      headers: { cookie, referer: `${t.config.publicUrl.origin}/demo/dashboard` },
    });
    expect(out.statusCode).toBe(303);
    expect(await loggedIn(cookie)).toBe(false);
  });
});

describe.each(databases)('logout of a session that does not count right now ($name)', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  const setPolicy = (policy: 'open' | 'magic-link') =>
    t.app.db.kysely
      .updateTable('clients')
      .set({ login_policy: policy })
      .where('prefix', '=', 'demo')
      .execute();

  // An open login that ran while staff switched the client to magic-link keeps its session (the switch ends
  // those it finds): it lets nobody in while the client is magic-link. Logging out left it in place, as the
  // logout ended only a session that let its holder in, so once the client was open again the logged-out
  // cookie was logged in again.
  it('should end it, so that it does not come back when the client is open again', async () => {
    const cookie = await loginOpen(t.app, 'demo', { email: 'dormant@example.com' });
    // The switch's own clean-up is left out: the session is the one the race leaves behind.
    await setPolicy('magic-link');
    try {
      const out = await t.app.inject({
        method: 'GET',
        url: '/api/demo/logout',
        headers: { cookie },
      });
      expect(out.statusCode).toBe(303);
      expect(out.cookies.find((c) => c.name === 'sid')).toMatchObject({ value: '' });
    } finally {
      await setPolicy('open');
    }
    const me = await t.app.inject({ method: 'GET', url: '/api/demo', headers: { cookie } });
    expect(me.json()).toMatchObject({ logged_in: false, email: '' });
    const content = await t.app.inject({
      method: 'GET',
      url: '/api/demo/content',
      headers: { cookie },
    });
    expect(content.statusCode).toBe(401);
  });

  it("should still leave another client's session alone", async () => {
    const northbank = await loginMagic(t, 'northbank', { email: 'other.client@example.com' });
    const out = await t.app.inject({
      method: 'GET',
      url: '/api/demo/logout',
      headers: { cookie: northbank },
    });
    expect(out.statusCode).toBe(303);
    expect(out.cookies).toEqual([]);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/northbank',
      headers: { cookie: northbank },
    });
    expect(me.json()).toMatchObject({ logged_in: true, email: 'other.client@example.com' });
  });
});

/** One request over a real connection, bytes as given (inject would normalise some of them). */
function rawRequest(port: number, head: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      resolve({ status, body: answer.slice(answer.indexOf('\r\n\r\n') + 4) });
    });
    socket.on('error', reject);
    socket.write(`${head}Host: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  });
}

describe.each(databases)('another client’s hub over a real connection ($name)', (target) => {
  let t: TestApp;
  let port: number;
  let demo: string;
  let northbank: string;
  const DEMO_EMAIL = 'hub.demo@example.com';
  const NORTHBANK_EMAIL = 'hub.northbank@example.com';
  beforeAll(async () => {
    t = await buildTestApp(target);
    demo = await loginOpen(t.app, 'demo', { email: DEMO_EMAIL });
    northbank = await loginMagic(t, 'northbank', { email: NORTHBANK_EMAIL });
    port = await listenLocally(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it("should never answer another spelling of demo's prefix with a 2xx for northbank's session", async () => {
    const spellings = [
      '/api/DEMO/content',
      '/api/Demo/content',
      '/api/%64emo/content',
      '/api/%2564emo/content',
      '/api/demo%00/content',
      '/api/demo%20/content',
      '/api/demo%2fcontent',
      '/api/demo/content/',
      '//api/demo/content',
      '/api/./demo/content',
      '/api/demo/./content',
      '/api/northbank/../demo/content',
      '/api/demo;jsessionid=1/content',
      '/api/demo/content;jsessionid=1',
      // Cyrillic "е", full-width "ｄ" (NFKC gives "d"), a soft hyphen.
      '/api/d%D0%B5mo/content',
      '/api/%EF%BD%84emo/content',
      '/api/de%C2%ADmo/content',
      'http://127.0.0.1/api/demo/content',
    ];
    for (const path of spellings) {
      const response = await rawRequest(port, `GET ${path} HTTP/1.1\r\nCookie: ${northbank}\r\n`);
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
      expect(response.body, path).toMatch(/^\{"error":"[^"]+"\}$/);
    }
    // The same spellings with demo's own session, as a check that the refusals above meant something.
    const own = await rawRequest(port, `GET /api/%64emo/content HTTP/1.1\r\nCookie: ${demo}\r\n`);
    expect(own.status).toBe(200);
  });

  it('should log in only with the first session cookie, never a mix, and ignore tokens outside Cookie', async () => {
    const token = decodeURIComponent(demo.slice(demo.indexOf('=') + 1));
    const cases: [string, string, string | null][] = [
      [`Cookie: ${demo}; ${northbank}\r\n`, 'northbank', null],
      [`Cookie: ${northbank}; ${demo}\r\n`, 'demo', null],
      [`Cookie: ${northbank}; ${demo}\r\n`, 'northbank', NORTHBANK_EMAIL],
      [`Cookie: ${demo}\r\nCookie: ${northbank}\r\n`, 'northbank', null],
      [`Cookie: theme=dark\r\nCookie: ${demo}\r\n`, 'demo', DEMO_EMAIL],
      [`Cookie: ${demo.replace('sid', 'SID')}\r\n`, 'demo', null],
      [`Cookie: ${demo.replace('sid', 'Sid')}; x=1\r\n`, 'demo', null],
      [`Cookie: sid="${demo.slice(4)}"\r\n`, 'demo', null],
      [`Authorization: Bearer ${token}\r\n`, 'demo', null],
      [`Authorization: Bearer ${demo.slice(4)}\r\nX-Session: ${token}\r\n`, 'demo', null],
    ];
    for (const [headers, prefix, email] of cases) {
      const response = await rawRequest(port, `GET /api/${prefix} HTTP/1.1\r\n${headers}`);
      const context = `${prefix} ${headers.slice(0, 40)}`;
      expect(response.status, context).toBe(200);
      const me = JSON.parse(response.body) as { logged_in: boolean; email: string };
      expect(me, context).toMatchObject({ logged_in: email !== null, email: email ?? '' });
      expect(response.body.includes(email === DEMO_EMAIL ? NORTHBANK_EMAIL : DEMO_EMAIL)).toBe(
        false,
      );
    }
    // The token as a query parameter is no way in either: refused as an unknown parameter.
    const query = await rawRequest(
      port,
      `GET /api/demo/content?sid=${encodeURIComponent(token)} HTTP/1.1\r\n`,
    );
    expect(query.status).toBe(401);
  });
});

describe.each(databases)('the login rate limit under a burst of 50 ($name)', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target, { LOGIN_LIMIT_PER_EMAIL: '5', LOGIN_LIMIT_PER_ADDRESS: '20' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('should let exactly the limit through per address and per e-mail, however the 50 interleave', async () => {
    const burst = (email: (i: number) => string, address: (i: number) => string) =>
      Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: i % 2 === 0 ? '/api/demo/login' : '/api/northbank/login',
            payload: { ...PERSON, email: email(i) },
            remoteAddress: address(i),
          }),
        ),
      );
    const count = (answers: LightMyRequestResponse[], status: number) =>
      answers.filter((a) => a.statusCode === status).length;
    const oneAddress = await burst(
      (i) => `burst${i}@example.com`,
      () => '192.0.2.50',
    );
    expect([count(oneAddress, 200), count(oneAddress, 429)]).toEqual([20, 30]);
    // Only the answers that got through started a session (open) or queued a link (magic link).
    expect(oneAddress.filter((a) => a.statusCode === 429).flatMap(sessionSet)).toEqual([]);
    const oneEmail = await burst(
      () => 'one.target@example.com',
      (i) => `198.51.100.${i + 1}`,
    );
    // Five on the open client (counted per client: an open login e-mails nothing) and five on the magic-link
    // client (counted across magic-link clients: each e-mails the address).
    expect([count(oneEmail, 200), count(oneEmail, 429)]).toEqual([10, 40]);
    await t.app.background.drain();
  });
});
