import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedUrl, loggerOptions } from '../src/log-options.js';
import {
  PERSON,
  buildTestApp,
  databases,
  loginLinkToken,
  outboxMails,
  type TestApp,
} from './helper.js';

describe('loggedUrl', () => {
  it.each([
    ['/api/northbank/login/link?token=abc123', '/api/northbank/login/link?token=[redacted]'],
    ['/x?TOKEN=abc', '/x?TOKEN=[redacted]'],
    ['/x?%74oken=abc&search=roofs', '/x?%74oken=[redacted]&search=roofs'],
    ['/x?search=a&token=abc&token=def', '/x?search=a&token=[redacted]&token=[redacted]'],
    ['/x?token', '/x?token=[redacted]'],
    ['/x?%E0%A4%A=1&token=abc', '/x?%E0%A4%A=1&token=[redacted]'],
    ['/api/demo/content?search=token', '/api/demo/content?search=token'],
    // Damaged links (found by the thirty-first session's login-link probe): the token of a link nobody could use
    // stays usable, so it is hidden as well.
    ['/x?a=1;token=abc', '/x?a=1;token=[redacted]'],
    ['/x?utm=1&amp;token=abc&b=2', '/x?utm=1&amp;token=[redacted]&b=2'],
    ['/x?token%00=abc', '/x?token%00=[redacted]'],
    ['/x?token+=abc', '/x?token+=[redacted]'],
    ['/x?token%3Dabc', '/x?[redacted]'],
    ['/x?%74oken%3dabc&search=a', '/x?[redacted]&search=a'],
    ['/x?a;b=c', '/x?a;b=c'],
    ['/api/northbank/login/link%3Ftoken=abc', '/api/northbank/login/link%3Ftoken=[redacted]'],
    ['/x%3FTOKEN%3Dabc/y?z=1', '/x%3FTOKEN%3D[redacted]/y?z=1'],
    ['/api/demo/articles/tokenism', '/api/demo/articles/tokenism'],
    [
      '/northbank/login?next=%2Fapi%2Flogin%2Flink%3Ftoken%3Dabc&x=1',
      '/northbank/login?next=%2Fapi%2Flogin%2Flink%3Ftoken%3D[redacted]&x=1',
    ],
    ['/api/demo/content', '/api/demo/content'],
  ])('%s is logged as %s', (url, logged) => {
    expect(loggedUrl(url)).toBe(logged);
  });
});

describe('the server log', () => {
  const lines: string[] = [];
  let t: TestApp;

  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n')));
    const sqlite = databases.find((d) => d.url === null);
    if (sqlite === undefined) throw new Error('no SQLite target');
    t = await buildTestApp(
      sqlite,
      { LOG_LEVEL: 'info' },
      { logger: loggerOptions('info', stream) },
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('should never hold a login link token in a request line', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/northbank/login',
      payload: PERSON,
    });
    expect(login.statusCode).toBe(200);
    await t.app.background.drain();
    const token = loginLinkToken((await outboxMails(t.dataDir)).at(-1) ?? '');
    for (const url of [
      `/api/northbank/login/link?token=${token}`,
      `/api/northbank/login/link?Token=${token}`,
      `/api/northbank/login/link?%74oken=${token}&x=1`,
      // Refused requests are logged by the error handler, with their address (found by the eighteenth
      // session's API probe): an unknown client, a malformed address.
      `/api/nobody/login/link?token=${token}`,
      `/api/northbank/login/link%ZZ?token=${token}`,
      // A link a mail program damaged: refused as invalid, its token still unspent (thirty-first session).
      `/api/northbank/login/link?utm_source=mail&amp;token=${token}`,
      `/api/northbank/login/link?token%3D${token}`,
      `/api/northbank/login/link%3Ftoken=${token}`,
    ]) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBeLessThan(500);
    }
    // A body's encoding on a GET is refused before routing.
    const encoded = await t.app.inject({
      method: 'GET',
      url: `/api/northbank/login/link?token=${token}`,
      headers: { 'content-encoding': 'gzip' },
    });
    expect(encoded.statusCode).toBeGreaterThanOrEqual(400);
    expect(encoded.statusCode).toBeLessThan(500);
    expect(lines.join('\n')).toContain('"msg":"Request refused"');
    // What was refused and why, without a stack (found by the twentieth session's API probe).
    const refusals = lines.filter((line) => line.includes('"msg":"Request refused"'));
    expect(refusals.every((line) => line.includes('"refusal":{'))).toBe(true);
    expect(refusals.filter((line) => line.includes('"stack"'))).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    const requestLines = lines.filter((line) => line.includes('"req":'));
    expect(requestLines.length).toBeGreaterThanOrEqual(4);
    expect(requestLines.join('\n')).toContain('login/link?token=[redacted]');
    // Only the local outbox's developer line (no SMTP configured) names the link; no request line does.
    expect(lines.filter((line) => line.includes(token))).toEqual([
      expect.stringContaining('Login link for'),
    ]);
  });
  // Found by the twentieth session's fault probe: on a full disk, each quote's background send of its mail logged
  // an error with a stack.
  it('should log a background task that found the disk full at warn, without a stack', async () => {
    const before = lines.length;
    t.app.background.run(() =>
      Promise.reject(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })),
    );
    t.app.background.run(() => Promise.reject(new Error('a fault of the code')));
    await t.app.background.drain();
    const logged = lines.slice(before).filter((line) => line.includes('Background task failed'));
    expect(logged).toHaveLength(2);
    const [full, fault] = logged.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(full).toMatchObject({ level: 40, fault: { code: 'SQLITE_FULL' } });
    expect(JSON.stringify(full)).not.toContain('"stack"');
    expect(fault).toMatchObject({ level: 50 });
    expect(JSON.stringify(fault)).toContain('"stack"');
  });
});
