import { randomBytes } from 'node:crypto';
import { DefaultQueryExecutor } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginOpen, type TestApp } from '../helper.js';

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

/*
 * Found by the thirty-first session's browser-fault probe: an address a person opens as a page (not a fetch) that met
 * a fault showed the `{ error }` JSON raw in the browser, and Log out with the database unavailable kept the cookie.
 */
describe('faults on addresses a browser opens as a page', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
    cookie = await loginOpen(t.app);
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
});
