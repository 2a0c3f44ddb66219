import { randomBytes } from 'node:crypto';
import {
  DefaultQueryExecutor,
  type CompiledQuery,
  type DatabaseConnection,
  type QueryResult,
} from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOUR } from '../../src/clock.js';
import { CROSS_SITE_MESSAGE } from '../../src/plugins/app/cross-site.js';
import { CONTENT_SECURITY_POLICY } from '../../src/plugins/external/security.js';
import { DATABASE_UNAVAILABLE } from '../../src/db/unavailable.js';
import { SHUTTING_DOWN_MESSAGE, STORAGE_REFUSED_MESSAGE } from '../../src/app.js';
import {
  PERSON,
  buildTestApp,
  loginLinkToken,
  loginOpen,
  outboxMails,
  type TestApp,
} from '../helper.js';
import { quoteInFlight } from './support.js';

/** What a browser sends when a person opens an address (a link, the address bar), not a fetch of a page's. */
const NAVIGATION = {
  accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-site': 'same-origin',
};

/** Runs `run` with every database call failing as PostgreSQL does when it is down (or past its timeout). */
async function withDatabaseDown<T>(run: () => Promise<T>, code = 'ECONNREFUSED'): Promise<T> {
  const { provideConnection } = DefaultQueryExecutor.prototype;
  DefaultQueryExecutor.prototype.provideConnection = () =>
    Promise.reject(Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code }));
  try {
    return await run();
  } finally {
    DefaultQueryExecutor.prototype.provideConnection = provideConnection;
  }
}

/**
 * A validly signed cookie of a session never looked up before: SQLite keeps a lookup's answer until the next write
 * (committed-reads.ts), so only a new one reaches the database, as every lookup does on PostgreSQL.
 */
function freshCookie(t: TestApp): string {
  return `sid=${t.app.signCookie(randomBytes(32).toString('base64url'))}`;
}

/** The page a person gets for a fault: HTML in the portal's CSP, never stored, saying what happened. */
function expectFaultPage(
  response: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
  message: string,
): void {
  expectRefusalPage(response, status, 'This page cannot be shown just now');
  expect(response.body).toContain(`<p>${message.replace(/'/g, '&#39;')}</p>`);
  expect(response.body).toContain('<a href="">Try again</a>');
}

/*
 * Found by the thirty-first session's browser-fault probe: an address a person opens as a page (not a fetch) that met
 * a fault showed the `{ error }` JSON raw in the browser, and Log out with the database unavailable kept the cookie.
 */
describe('faults on addresses a browser opens as a page', () => {
  let t: TestApp;
  let cookie: string;
  let logo: string;
  beforeAll(async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
    cookie = await loginOpen(t.app);
    const client = await t.app.inject({ url: '/api/demo', headers: { cookie } });
    logo = client.json<{ branding: { logo_url: string } }>().branding.logo_url;
  });
  afterAll(async () => {
    await t.close();
  });

  /*
   * With PostgreSQL down the lookup of the client and session fails before the handler runs: Log out was the raw
   * JSON 503 and the browser stayed logged in, for the next person at a shared computer.
   */
  it('should clear the cookie on Log out and go to the login page with the database unavailable', async () => {
    for (const code of ['ECONNREFUSED', '57014']) {
      const logout = await withDatabaseDown(
        () =>
          t.app.inject({
            url: '/api/demo/logout',
            headers: { ...NAVIGATION, cookie: freshCookie(t) },
          }),
        code,
      );
      expect(logout.statusCode, logout.body).toBe(303);
      expect(logout.headers.location).toBe('/demo/login');
      expect(logout.headers['cache-control']).toBe('no-store');
      expect(String(logout.headers['set-cookie'])).toMatch(/^sid=;.*Max-Age=0/);
    }
    // An unknown client's address is still refused as such (no database is needed to tell a malformed one).
    const unknown = await withDatabaseDown(() =>
      t.app.inject({ url: '/api/Not_A_Client/logout', headers: { ...NAVIGATION, cookie } }),
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['set-cookie']).toBeUndefined();
  });

  it('should answer a media file or the logo opened as a page with a page, and a fetch with JSON', async () => {
    for (const url of [logo, '/media/demo/0123456789abcdef0123.pdf']) {
      const page = await withDatabaseDown(() =>
        t.app.inject({ url, headers: { ...NAVIGATION, cookie: freshCookie(t) } }),
      );
      expectFaultPage(page, 503, DATABASE_UNAVAILABLE);
      expect(page.headers['retry-after']).toBe('5');
      expect(page.body).toContain('<a href="/demo/dashboard">Go to the dashboard</a>');
      const fetched = await withDatabaseDown(() =>
        t.app.inject({
          url,
          headers: { accept: '*/*', 'sec-fetch-dest': 'image', cookie: freshCookie(t) },
        }),
      );
      expect(fetched.statusCode).toBe(503);
      expect(fetched.json()).toEqual({ error: DATABASE_UNAVAILABLE });
    }
  });

  it('should answer a page of the portal whose files cannot be read with a page', async () => {
    const shell = t.app.portalShell;
    t.app.portalShell = () =>
      Promise.reject(
        Object.assign(new Error('EACCES: permission denied, open index.html'), {
          code: 'EACCES',
          syscall: 'open',
        }),
      );
    try {
      const page = await t.app.inject({
        url: '/demo/dashboard',
        headers: { ...NAVIGATION, cookie },
      });
      expectFaultPage(page, 503, STORAGE_REFUSED_MESSAGE);
      // An unexpected fault is put in words too, never a stack.
      t.app.portalShell = () => Promise.reject(new Error('unexpected'));
      const fault = await t.app.inject({ url: '/demo/login', headers: { ...NAVIGATION } });
      expectFaultPage(
        fault,
        500,
        'Something went wrong on our side. Please try again in a moment, or contact the team if it goes on.',
      );
      expect(fault.body).not.toContain('unexpected');
    } finally {
      t.app.portalShell = shell;
    }
  });

  it('should put an unexpected fault in words on the login link’s page', async () => {
    const { provideConnection } = DefaultQueryExecutor.prototype;
    DefaultQueryExecutor.prototype.provideConnection = () =>
      Promise.reject(new Error('unexpected'));
    try {
      const link = await t.app.inject({
        url: `/api/demo/login/link?token=${'a'.repeat(43)}`,
        headers: { ...NAVIGATION, cookie: freshCookie(t) },
      });
      expect(link.statusCode).toBe(500);
      expect(link.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(link.body).toContain('<h1>The portal cannot log you in just now</h1>');
      expect(link.body).toContain('<p>Something went wrong on our side.');
      expect(link.body).not.toContain('Internal server error');
    } finally {
      DefaultQueryExecutor.prototype.provideConnection = provideConnection;
    }
  });

  it('should keep the JSON for an API call the portal fetches', async () => {
    const fetched = await withDatabaseDown(() =>
      t.app.inject({
        url: '/api/demo/content',
        headers: { accept: 'application/json', 'sec-fetch-dest': 'empty', cookie: freshCookie(t) },
      }),
    );
    expect(fetched.statusCode).toBe(503);
    expect(fetched.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(fetched.json()).toEqual({ error: DATABASE_UNAVAILABLE });
  });
});

/**
 * The answer to `request` (raw HTTP), sent on a kept-alive connection once the server has begun to shut down: a
 * quote whose body is still on its way keeps the connection busy as the shutdown begins.
 */
async function answerWhileClosing(
  t: TestApp,
  cookie: string,
  request: (port: number) => string,
): Promise<string> {
  const quote = await quoteInFlight(t, cookie);
  const closed = t.app.close();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const received = await quote.finish(request(quote.port));
  await closed;
  const answers = received.split(/(?=HTTP\/1\.1 \d{3} )/);
  expect(answers[0]).toMatch(/^HTTP\/1\.1 201 /);
  return answers[1] ?? '';
}

const navigationLines = Object.entries(NAVIGATION)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');

/*
 * Found by the thirty-first session's browser-fault probe: a page opened on a kept-alive connection while the server
 * shut down (a restart, a deploy) showed the `{ error }` JSON raw; so did the login link's Continue, and Log out
 * was refused, leaving the browser logged in.
 */
describe('an address a browser opens while the server shuts down', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close().catch(() => undefined);
    t = undefined;
  });

  it('should be a page saying the portal is restarting', async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
    const cookie = await loginOpen(t.app);
    const second = await answerWhileClosing(
      t,
      cookie,
      () => `GET /demo/dashboard HTTP/1.1\r\nHost: 127.0.0.1\r\n${navigationLines}\r\n`,
    );
    const head = second.slice(0, second.indexOf('\r\n\r\n'));
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(head).toMatch(/\r\nretry-after: 5\r\n/i);
    expect(head).toMatch(/\r\ncontent-type: text\/html; charset=utf-8\r\n/i);
    expect(head).toMatch(/\r\ncache-control: no-store\r\n/i);
    expect(head).toContain(`content-security-policy: ${CONTENT_SECURITY_POLICY}\r\n`);
    expect(second).toContain(`<p>${SHUTTING_DOWN_MESSAGE}</p>`);
  });

  it('should answer the login link’s Continue with its page', async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
    const cookie = await loginOpen(t.app);
    const form = `token=${'a'.repeat(43)}`;
    const second = await answerWhileClosing(
      t,
      cookie,
      (port) =>
        `POST /api/demo/login/link HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1:${port}\r\n` +
        `${navigationLines}Content-Type: application/x-www-form-urlencoded\r\n` +
        `Content-Length: ${form.length}\r\n\r\n${form}`,
    );
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(/\r\ncontent-type: text\/html; charset=utf-8\r\n/i);
    expect(second).toContain('<h1>The portal cannot log you in just now</h1>');
    expect(second).toContain(SHUTTING_DOWN_MESSAGE);
  });

  it('should still log out: clear the cookie and go to the login page', async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
    const cookie = await loginOpen(t.app);
    const second = await answerWhileClosing(
      t,
      cookie,
      () =>
        `GET /api/demo/logout HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n${navigationLines}\r\n`,
    );
    expect(second).toMatch(/^HTTP\/1\.1 303 /);
    expect(second).toMatch(/\r\nlocation: \/demo\/login\r\n/i);
    expect(second).toMatch(/\r\nset-cookie: sid=;[^\r]*Max-Age=0/i);
  });
});

/** A page a person gets for a refusal: HTML in the portal's CSP, never stored, never the `{ error }` JSON. */
function expectRefusalPage(
  response: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
  heading: string,
): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(response.body).toContain(`<h1>${heading}</h1>`);
  expect(response.body).not.toContain('{"error"');
}

/** What the portal's own fetches send (not a navigation). */
const FETCH = { accept: 'application/json', 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors' };

/*
 * Found by the thirty-second session's browser-fault probe: a login link (its Continue page and the Continue POST)
 * and Log out answered a person's browser with the raw `{ error }` JSON for an unknown client, for a body the
 * Continue form refused, and for a Log out link followed from another site; and Log out kept the cookie when the
 * database failed after its delete.
 */
describe('refusals on addresses a person opens from a link', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
  });
  afterAll(async () => {
    await t.close();
  });

  it('should answer a login link or Log out for an unknown client with a page, and a fetch with JSON', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    for (const client of ['nosuchclient', 'Not_A_Client']) {
      const requests = [
        { method: 'GET' as const, url: `/api/${client}/login/link?token=${'a'.repeat(43)}` },
        {
          method: 'POST' as const,
          url: `/api/${client}/login/link`,
          payload: `token=${'a'.repeat(43)}`,
        },
        { method: 'GET' as const, url: `/api/${client}/logout` },
      ];
      for (const request of requests) {
        const page = await t.app.inject({ ...request, headers: { ...NAVIGATION, ...form } });
        expectRefusalPage(page, 404, 'There is no client portal at this address');
        // The name is not repeated: a link could make the page say anything in it.
        expect(page.body).not.toContain(client);
        expect(page.body).toContain('Check the link');
        // Nowhere to link to: the portal's root is some other client's login page.
        expect(page.body).not.toContain('<a ');
        expect(page.headers['set-cookie']).toBeUndefined();
        // A script (a fetch of Log out is refused before the client is looked up: no browser's fetch may log out).
        const fetched = await t.app.inject({
          ...request,
          headers: { accept: 'application/json', ...form },
        });
        expect(fetched.statusCode).toBe(404);
        expect(fetched.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(fetched.json()).toEqual({ error: 'Unknown client.' });
      }
    }
  });

  // A Log out link (or the Continue form) of an unknown client followed from another site showed the 403 "You have
  // not been logged out" page, whose link to `/<name>/dashboard` is the portal's 404 (noted by the thirty-second
  // session): it is the page any other address of an unknown client gets. A fetch keeps the 403, unlooked-up.
  it('should answer a Log out link or Continue form of an unknown client from another site with the unknown-client page', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const fromElsewhere = [
      { ...NAVIGATION, 'sec-fetch-site': 'cross-site' },
      { ...NAVIGATION, 'sec-fetch-site': 'same-site' },
      // An older browser, which sends no Fetch Metadata: the other site is in Referer, or in Origin.
      { accept: 'text/html', referer: 'https://elsewhere.example/page' },
      { accept: 'text/html', origin: 'https://elsewhere.example' },
    ];
    for (const client of ['nosuchclient', 'Not_A_Client', 'demo-gone']) {
      const requests = [
        { method: 'GET' as const, url: `/api/${client}/logout` },
        {
          method: 'POST' as const,
          url: `/api/${client}/login/link`,
          payload: `token=${'a'.repeat(43)}`,
        },
      ];
      for (const request of requests) {
        for (const headers of fromElsewhere) {
          const page = await t.app.inject({ ...request, headers: { ...headers, ...form } });
          expectRefusalPage(page, 404, 'There is no client portal at this address');
          expect(page.body).not.toContain(client);
          expect(page.body).not.toContain('<a ');
          expect(page.headers['set-cookie']).toBeUndefined();
        }
        const fetched = await t.app.inject({
          ...request,
          headers: { ...FETCH, 'sec-fetch-site': 'cross-site', ...form },
        });
        expect(fetched.statusCode).toBe(403);
        expect(fetched.json()).toEqual({ error: CROSS_SITE_MESSAGE });
      }
    }
    // A known client's are still refused as coming from another site, and the session lives on.
    const cookie = await loginOpen(t.app);
    const logout = await t.app.inject({
      url: '/api/demo/logout',
      headers: { ...NAVIGATION, 'sec-fetch-site': 'cross-site', cookie },
    });
    expectRefusalPage(logout, 403, 'You have not been logged out');
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/demo/login/link',
      payload: `token=${'a'.repeat(43)}`,
      headers: { ...NAVIGATION, 'sec-fetch-site': 'cross-site', ...form, cookie },
    });
    expectRefusalPage(posted, 403, 'The login was not completed');
    const client = await t.app.inject({ url: '/api/demo', headers: { cookie } });
    expect(client.json<{ logged_in: boolean }>().logged_in).toBe(true);
    // The database not answering: the lookup cannot tell, and the refusal stays what it was.
    const down = await withDatabaseDown(() =>
      t.app.inject({
        url: '/api/nosuchclient/logout',
        headers: { ...NAVIGATION, 'sec-fetch-site': 'cross-site' },
      }),
    );
    expectRefusalPage(down, 403, 'You have not been logged out');
  });

  it('should answer a Continue form the server refuses with a page, and a fetch with JSON', async () => {
    const token = `token=${'a'.repeat(43)}`;
    const cases = [
      {
        status: 413,
        type: 'application/x-www-form-urlencoded',
        payload: `${token}&x=${'a'.repeat(70_000)}`,
        error: 'The request body is too large.',
      },
      {
        status: 415,
        type: 'text/plain',
        payload: token,
        error:
          'This content type is not accepted: send the login link’s form (token=…) as application/x-www-form-urlencoded.',
      },
      {
        status: 415,
        type: 'application/x-www-form-urlencoded; charset=utf-16',
        payload: token,
        error:
          'This content type is not accepted: send the form as UTF-8 (charset=utf-8, or no charset).',
      },
      {
        status: 400,
        type: 'application/x-www-form-urlencoded',
        payload: `${token}&token=b`,
        error: 'Invalid body: the field "token" is given twice.',
      },
      {
        status: 400,
        type: 'application/x-www-form-urlencoded',
        payload: '',
        error: 'Missing required field "token".',
      },
    ];
    for (const { status, type, payload, error } of cases) {
      const request = { method: 'POST' as const, url: '/api/demo/login/link', payload };
      const page = await t.app.inject({
        ...request,
        headers: { ...NAVIGATION, 'content-type': type },
      });
      expectRefusalPage(page, status, 'The login was not completed');
      expect(page.body).toContain(`<p>${error.replace(/"/g, '&quot;')}</p>`);
      expect(page.body).toContain('Your login link has not been used');
      const fetched = await t.app.inject({
        ...request,
        headers: { ...FETCH, 'content-type': type },
      });
      expect(fetched.statusCode).toBe(status);
      expect(fetched.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(fetched.json()).toEqual({ error });
    }
  });

  it('should not log out on a Log out link followed from another site, and say so in a page', async () => {
    const cookie = await loginOpen(t.app);
    const followed = [
      { ...NAVIGATION, 'sec-fetch-site': 'cross-site' },
      // An older browser, which sends no Fetch Metadata: the other site is in Referer.
      { accept: 'text/html', referer: 'https://elsewhere.example/page' },
    ];
    for (const headers of followed) {
      const page = await t.app.inject({ url: '/api/demo/logout', headers: { ...headers, cookie } });
      expectRefusalPage(page, 403, 'You have not been logged out');
      expect(page.body).toContain('from another site');
      expect(page.body).toContain('<a href="/demo/dashboard">Go to the dashboard</a>');
      expect(page.headers['set-cookie']).toBeUndefined();
    }
    const fetched = await t.app.inject({
      url: '/api/demo/logout',
      headers: { ...FETCH, 'sec-fetch-site': 'cross-site', cookie },
    });
    expect(fetched.statusCode).toBe(403);
    expect(fetched.json()).toEqual({ error: CROSS_SITE_MESSAGE });
    // The defence holds: the session lives on.
    const client = await t.app.inject({ url: '/api/demo', headers: { cookie } });
    expect(client.json<{ logged_in: boolean }>().logged_in).toBe(true);
  });

  /*
   * A session that ran out is ended by the lookup; Log out's own delete then finds nothing, and it asks whether the
   * cookie's session is another client's: with the database failing then, the answer was the 503 page and the cookie
   * stayed, after the user asked to log out (on a shared computer, perhaps).
   */
  it('should clear the cookie when the database fails after Log out’s delete', async () => {
    const cookie = await loginOpen(t.app);
    t.clock.advance(13 * HOUR);
    // Every call after the logout's delete fails.
    let deleted = false;
    const restore = failQueries((sql) => {
      if (deleted) return true;
      if (/^delete from "sessions" where .*"client_id"/.test(sql)) deleted = true;
      return false;
    });
    try {
      const logout = await t.app.inject({
        url: '/api/demo/logout',
        headers: { ...NAVIGATION, cookie },
      });
      expect(deleted).toBe(true);
      expect(logout.statusCode, logout.body).toBe(303);
      expect(logout.headers.location).toBe('/demo/login');
      expect(String(logout.headers['set-cookie'])).toMatch(/^sid=;.*Max-Age=0/);
    } finally {
      restore();
    }
  });

  it('should not spend the login link when the database fails as Continue ends the browser’s earlier session', async () => {
    const cookie = await loginOpen(t.app);
    const before = (await outboxMails(t.dataDir)).length;
    await t.app.inject({ method: 'POST', url: '/api/northbank/login', payload: PERSON });
    await t.app.background.drain();
    const token = loginLinkToken((await outboxMails(t.dataDir))[before] ?? '');
    const form = {
      method: 'POST' as const,
      url: '/api/northbank/login/link',
      payload: `token=${token}`,
    };
    const headers = { ...NAVIGATION, 'content-type': 'application/x-www-form-urlencoded' };
    const restore = failQueries((sql) => /^delete from "sessions" where "id" = \?$/.test(sql));
    let failed;
    try {
      failed = await t.app.inject({ ...form, headers: { ...headers, cookie } });
    } finally {
      restore();
    }
    expect(failed.statusCode).toBe(503);
    expect(failed.body).toContain('Your login link has not been used');
    // And so it is: the link still logs in.
    const again = await t.app.inject({ ...form, headers: { ...headers, cookie } });
    expect(again.statusCode, again.body).toBe(303);
    expect(again.headers.location).toBe('/northbank/dashboard');
  });
});

/**
 * Makes the database calls whose SQL `fails` picks (asked as each comes) fail as PostgreSQL's do when it is down.
 * Answers the function that undoes it.
 */
function failQueries(fails: (sql: string) => boolean): () => void {
  const { provideConnection } = DefaultQueryExecutor.prototype;
  const down = () =>
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  DefaultQueryExecutor.prototype.provideConnection = function <T>(
    this: DefaultQueryExecutor,
    consumer: (connection: DatabaseConnection) => Promise<T>,
  ): Promise<T> {
    return provideConnection.call(this, (connection: DatabaseConnection) =>
      consumer({
        streamQuery: connection.streamQuery.bind(connection),
        executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
          if (fails(query.sql)) throw down();
          return connection.executeQuery<R>(query);
        },
      }),
    ) as Promise<T>;
  };
  return () => {
    DefaultQueryExecutor.prototype.provideConnection = provideConnection;
  };
}
