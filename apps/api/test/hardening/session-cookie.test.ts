import { sign } from '@fastify/cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/crypto.js';
import { buildTestApp, databases, loginOpen, type TestApp } from '../helper.js';

/** The session cookie's checked values are remembered: that must never turn a bad signature into a good one. */
describe('session cookie signatures, remembered once checked', () => {
  let t: TestApp;
  let cookie: string;
  let signed: string;
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp(databases[0]!);
    cookie = await loginOpen(t.app);
    signed = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
    token = signed.slice(0, signed.lastIndexOf('.'));
  });
  afterAll(async () => {
    await t.close();
  });

  it('should give the token and its stored id for a validly signed value, the same every time', () => {
    for (let i = 0; i < 3; i += 1) {
      expect(t.app.sessionCookie.unsign(signed)).toEqual({ token, id: sha256(token) });
    }
  });

  it('should refuse every altered value, before and after the real one was checked', () => {
    const signature = signed.slice(signed.lastIndexOf('.') + 1);
    const altered = [
      token,
      `${token}.`,
      `${token}.${signature.slice(1)}`,
      `${token}.${signature}x`,
      `${token}x.${signature}`,
      `${token.slice(1)}.${signature}`,
      `${token}.${signature.toUpperCase()}`,
      sign(token, 'another-secret-another-secret-another-42'),
      sign('a'.repeat(43), 'test-secret-test-secret-test-secret-42').replace(/^a/, 'b'),
    ];
    for (const value of altered) {
      expect(value).not.toBe(signed);
      expect(t.app.sessionCookie.unsign(value), value).toBeUndefined();
      expect(t.app.sessionCookie.unsign(value), value).toBeUndefined();
    }
    expect(t.app.sessionCookie.unsign(signed)?.token).toBe(token);
  });

  it('should refuse altered cookies on a route after the real one was used, and honour the real one', async () => {
    const content = (value: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/demo/content',
        headers: { cookie: `sid=${encodeURIComponent(value)}` },
      });
    expect((await content(signed)).statusCode).toBe(200);
    const signature = signed.slice(signed.lastIndexOf('.') + 1);
    for (const value of [token, `${token}.${signature.slice(0, -1)}`, `${token}x.${signature}`]) {
      expect((await content(value)).statusCode, value).toBe(401);
    }
    expect((await content(signed)).statusCode).toBe(200);
  });

  // Found by the twentieth session's API probe: with two session cookies (another path's, a stale one, one a
  // neighbouring site set over plain HTTP), only the first was read, so one not ours locked the user out.
  it('should take the first validly signed of several session cookies, and never one that is not', async () => {
    const content = (header: string) =>
      t.app.inject({ method: 'GET', url: '/api/demo/content', headers: { cookie: header } });
    const real = `sid=${encodeURIComponent(signed)}`;
    expect((await content(`sid=x.y; ${real}`)).statusCode).toBe(200);
    expect((await content(`sid=; other=1; ${real}`)).statusCode).toBe(200);
    expect((await content(`${real}; sid=x.y`)).statusCode).toBe(200);
    const signature = signed.slice(signed.lastIndexOf('.') + 1);
    expect(
      (
        await content(
          `sid=x.y; sid=${token}.${signature.slice(1)}; xsid=${encodeURIComponent(signed)}`,
        )
      ).statusCode,
    ).toBe(401);
  });

  it('should keep answering rightly once the memory has started afresh (more values than it keeps)', async () => {
    // Any validly signed value is remembered, even one whose token has no session: fill the memory past its
    // size with such values, then check the real cookie and a forged one again.
    for (let i = 0; i < 10_050; i += 1) {
      const value = t.app.signCookie(`unknown-token-${i}`);
      expect(t.app.sessionCookie.unsign(value)?.token).toBe(`unknown-token-${i}`);
    }
    expect(t.app.sessionCookie.unsign(signed)).toEqual({ token, id: sha256(token) });
    expect(t.app.sessionCookie.unsign(`${token}.x`)).toBeUndefined();
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/demo/content',
      headers: { cookie: `sid=${encodeURIComponent(t.app.signCookie('unknown-token-1'))}` },
    });
    expect(response.statusCode).toBe(401);
  });
});
