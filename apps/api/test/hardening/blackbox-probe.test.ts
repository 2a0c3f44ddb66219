import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '../../src/plugins/external/security.js';
import { buildTestApp, databases, listenLocally, loginOpen, type TestApp } from '../helper.js';
import { DUE_DILIGENCE_FIELDS, multipart, pdf, rawExchange } from './support.js';

/**
 * Found by a black-box hostile run against the built server (a fresh data folder, the demo content, plain
 * Node scripts with fetch and raw sockets), as an outside assessor would run it.
 */

/** Sends raw bytes on a new connection and gives back everything the server sends until it closes. */
const raw = (port: number, data: string) => rawExchange(port, data, { hold: true });

/** The headers of a raw answer, by lower-case name. */
function headersOf(response: string): Record<string, string> {
  const head = response.slice(0, response.indexOf('\r\n\r\n')).split('\r\n').slice(1);
  return Object.fromEntries(
    head.map((line) => {
      const at = line.indexOf(':');
      return [line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim()];
    }),
  );
}

const EVERY_ANSWER = securityHeaders(false);

describe.each(databases)('a black-box hostile run ($name)', (target) => {
  let t: TestApp;
  let port: number;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp(target);
    port = await listenLocally(t.app);
    cookie = await loginOpen(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  // The query parser kept "%E9" as those three characters (and a lone % as it was), and the call searched for
  // them, where the same fault in the path is a 400. Judged once the session has been asked for.
  it('should refuse a query whose %-escapes do not decode, once logged in', async () => {
    for (const url of [
      '/api/demo/content?search=caf%E9',
      '/api/demo/content?search=100%',
      '/api/demo/content?search%ZZ=1',
      '/api/demo/article?id=%C3',
    ]) {
      const response = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toEqual({ error: 'Bad request: the address is not well formed.' });
      const anonymous = await t.app.inject({ method: 'GET', url });
      expect(anonymous.statusCode, url).toBe(401);
    }
    const decoded = await t.app.inject({
      method: 'GET',
      url: '/api/demo/content?search=caf%C3%A9%20100%25',
      headers: { cookie },
    });
    expect(decoded.statusCode).toBe(200);
  });

  describe('refusals made before any hook', () => {
    // The router's own refusals (a bad percent-encoding in the path, a client segment over 100 characters) were
    // answered before Fastify's hooks: no Cache-Control (a shared cache could keep the 414) and none of the
    // security headers (no CSP, no nosniff, no X-Frame-Options), though every other answer has them.
    it('should send the router’s 400 and 414 with no-store and the security headers', async () => {
      for (const [request, status, error] of [
        ['GET /api/%ZZ/content', 400, 'Bad request: the address is not well formed.'],
        ['POST /demo%ZZ/dashboard', 400, 'Bad request: the address is not well formed.'],
        [`POST /api/${'a'.repeat(101)}/login`, 414, 'The address is too long.'],
      ] as const) {
        const response = await raw(
          port,
          `${request} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
        );
        expect(response, request).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
        expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))).toEqual({ error });
        const headers = headersOf(response);
        expect(headers['cache-control'], request).toBe('no-store');
        for (const [name, value] of Object.entries(EVERY_ANSWER)) {
          expect(headers[name], `${request}: ${name}`).toBe(value);
        }
      }
    });

    // The check of Host and Content-Type runs before the security headers' hook, and its refusal skipped it;
    // Node's 417 for an unmet Expect had only nosniff.
    it('should send the security headers with a repeated Host or Content-Type, and an unmet Expect', async () => {
      const body = '{"action":"view","item":"x"}';
      for (const request of [
        'GET /api/demo HTTP/1.1\r\nHost: localhost\r\nHost: b\r\nConnection: close\r\n\r\n',
        `POST /api/demo/activity HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\n` +
          `Content-Type: text/plain\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        `POST /api/demo/activity HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\n` +
          `Expect: something-else\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      ]) {
        const response = await raw(port, request);
        expect(response, request).toMatch(/^HTTP\/1\.1 4(00|17) /);
        const headers = headersOf(response);
        expect(headers['cache-control'], request).toBe('no-store');
        for (const [name, value] of Object.entries(EVERY_ANSWER)) {
          expect(headers[name], `${request.split('\r\n')[0]}: ${name}`).toBe(value);
        }
      }
    });
  });

  describe('the OpenAPI document', () => {
    // The calls that take no query string were documented with two query parameters, "type" (schema
    // "object", not a schema at all) and "additionalProperties" (schema false): the JSON Schema's own
    // keywords read as parameter names. A client generated from the document would send `?type=…` and
    // get a 400.
    it('should list only real parameters, each with a schema object', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
      const doc = response.json<{
        paths: Record<
          string,
          Record<string, { parameters?: { name: string; in: string; schema: unknown }[] }>
        >;
      }>();
      const seen: string[] = [];
      for (const [route, operations] of Object.entries(doc.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          for (const parameter of operation.parameters ?? []) {
            seen.push(`${method} ${route} ${parameter.in} ${parameter.name}`);
            expect(typeof parameter.schema, `${method} ${route} ${parameter.name}`).toBe('object');
          }
        }
      }
      expect(seen.filter((p) => / query (type|additionalProperties)$/.test(p))).toEqual([
        'get /api/{client}/article query type',
      ]);
      expect(seen).toContain('get /api/{client}/article query type');
      expect(seen).toContain('get /api/{client}/content query search');
      // The document still says the calls refuse what they do not take.
      const unknown = await t.app.inject({
        method: 'GET',
        url: '/api/demo/video?type=object',
        headers: { cookie },
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual({ error: 'Unknown query parameter "type".' });
    });
  });

  describe('media addresses', () => {
    // `/media/{client}/{file}` is a route, but a POST, PUT or DELETE to it was a 404 "Not found." (even to the
    // logo, which exists), where every /api address answers 405 with Allow as docs/api.md says.
    it('should answer a method the media route does not take with 405 and Allow', async () => {
      const logo = (await t.app.inject({ method: 'GET', url: '/api/demo' })).json<{
        branding: { logo_url: string };
      }>().branding.logo_url;
      expect(logo).toMatch(/^\/media\/demo\/[a-f0-9]{20}\.\w+$/);
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const) {
        for (const url of [logo, '/media/demo/0123456789abcdef0123.png']) {
          const response = await t.app.inject({ method, url, headers: { cookie } });
          expect(response.statusCode, `${method} ${url}`).toBe(405);
          expect(response.headers.allow).toBe('GET, HEAD');
          expect(response.headers['cache-control']).toBe('no-store');
          expect(response.json()).toEqual({ error: `Method ${method} is not allowed here.` });
        }
      }
      // Still 404 where no route is: one segment too few or too many.
      for (const url of ['/media/demo', '/media/demo/a/b']) {
        const response = await t.app.inject({ method: 'POST', url });
        expect(response.statusCode, url).toBe(404);
        expect(response.json()).toEqual({ error: 'Not found.' });
      }
    });
  });

  describe('logout from a script', () => {
    // Node's fetch sends `Sec-Fetch-Mode: cors` (and neither Sec-Fetch-Site nor Sec-Fetch-Dest) on every
    // request: its logout was refused 403 as "not opened as a page", so the session went on, although
    // clients other than browsers are meant to pass.
    it('should log out a client that sends Sec-Fetch-Mode alone, as Node’s fetch does', async () => {
      const own = await loginOpen(t.app);
      const out = await t.app.inject({
        method: 'GET',
        url: '/api/demo/logout',
        headers: { cookie: own, 'sec-fetch-mode': 'cors', 'user-agent': 'node' },
      });
      expect(out.statusCode).toBe(303);
      expect(out.headers.location).toBe('/demo/login');
      const after = await t.app.inject({
        method: 'GET',
        url: '/api/demo/content',
        headers: { cookie: own },
      });
      expect(after.statusCode).toBe(401);
    });

    it('should still refuse a browser’s fetch or image of this very site', async () => {
      const own = await loginOpen(t.app);
      for (const headers of [
        { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
        { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
        { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
        { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' },
      ]) {
        const response = await t.app.inject({
          method: 'GET',
          url: '/api/demo/logout',
          headers: { cookie: own, ...headers },
        });
        expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      }
      const still = await t.app.inject({
        method: 'GET',
        url: '/api/demo/content',
        headers: { cookie: own },
      });
      expect(still.statusCode).toBe(200);
    });
  });

  describe('due diligence amounts and e-mail', () => {
    const uploads = async () => {
      try {
        return (await readdir(path.join(t.dataDir, 'uploads'))).sort();
      } catch {
        return [];
      }
    };
    const stored = async () =>
      (await t.app.db.kysely.selectFrom('due_diligence').select('id').execute()).length;
    const post = (form: ReturnType<typeof multipart>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/demo/due-diligence',
        payload: form.payload,
        headers: { ...form.headers, cookie },
      });

    // The amounts and the e-mail were taken as any text: "1e400", "１２" (full-width digits), "-0" or "abc"
    // as the build cost, "not an email" or "a@b.example, c@d.example" as the address the team and the form
    // service reply to, all stored and forwarded with a 303 saying all was well.
    it('should refuse an amount that is not whole pounds, storing and keeping nothing', async () => {
      const before = { uploads: await uploads(), rows: await stored() };
      for (const [field, label] of [
        ['Currency1', 'Build cost'],
        ['Currency2', 'GDV'],
        ['Currency', 'Loan amount'],
      ] as const) {
        for (const value of [
          '1e400',
          '１２',
          '-0',
          'abc',
          '12.5',
          '0x10',
          '1,00',
          '<b>1</b>',
          // Invisible or other spaces after the £ (the eighteenth session's API probe).
          '£\ufeff12500000',
          '£\u300012500000',
          '£\u00a012500000',
          '£\t12500000',
        ]) {
          const response = await post(
            multipart(
              { ...DUE_DILIGENCE_FIELDS, [field]: value },
              { filename: 'a.pdf', content: pdf(100) },
            ),
          );
          expect(response.statusCode, `${field}=${value}`).toBe(400);
          expect(response.json()).toEqual({
            error: `The field "${field}" (${label}) must be a whole number of pounds, like 12500000.`,
          });
        }
      }
      expect(await uploads()).toEqual(before.uploads);
      expect(await stored()).toBe(before.rows);
    });

    it('should refuse an e-mail that is not one address, storing nothing', async () => {
      const before = await stored();
      for (const value of [
        'not an email',
        'a@b.example, c@d.example',
        'a@b',
        '<a@b.example>',
        // Past RFC 5321's lengths: 65 characters before the @, a host label of 64.
        `${'a'.repeat(65)}@example.com`,
        `ada@${'b'.repeat(64)}.example.com`,
      ]) {
        const response = await post(multipart({ ...DUE_DILIGENCE_FIELDS, Email: value }));
        expect(response.statusCode, value).toBe(400);
        expect(response.json()).toEqual({
          error: 'The field "Email" (E-mail) must be an e-mail address.',
        });
      }
      expect(await stored()).toBe(before);
    });

    // Bytes that are not UTF-8 in a text part (a Latin-1 "é" as 0xE9) were stored as U+FFFD with a 303: what
    // was typed was lost without a word. The JSON calls refuse such bytes the same way.
    it('should refuse a text part that is not UTF-8, storing nothing', async () => {
      const before = { uploads: await uploads(), rows: await stored() };
      const form = multipart(
        { ...DUE_DILIGENCE_FIELDS, SingleLine: 'Caf\u0000' },
        { filename: 'a.pdf', content: pdf(100) },
      );
      const latin1 = Buffer.from(
        form.payload.toString('latin1').replace('Caf\u0000', 'Caf\u00e9'),
        'latin1',
      );
      expect(latin1.includes(Buffer.from([0x43, 0x61, 0x66, 0xe9]))).toBe(true);
      const response = await post({ payload: latin1, headers: form.headers });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'The field "SingleLine" (Project name) is not valid UTF-8 text.',
      });
      expect(await uploads()).toEqual(before.uploads);
      expect(await stored()).toBe(before.rows);
      // The same letter as UTF-8 is stored as typed.
      const utf8 = await post(multipart({ ...DUE_DILIGENCE_FIELDS, SingleLine: 'Café Quay' }));
      expect(utf8.statusCode).toBe(303);
      const row = await t.app.db.kysely
        .selectFrom('due_diligence')
        .select('project_name')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(row.project_name).toBe('Café Quay');
    });

    it('should still take whole pounds as the form sends them, or written with £ and commas, and no amount', async () => {
      const before = await stored();
      for (const fields of [
        DUE_DILIGENCE_FIELDS,
        { ...DUE_DILIGENCE_FIELDS, Currency1: '£12,500,000', Currency2: '0', Currency: '' },
        { ...DUE_DILIGENCE_FIELDS, Currency1: '£ 12,500,000', Currency2: '£ 21000000' },
        { ...DUE_DILIGENCE_FIELDS, Email: '', SingleLine4: '' },
      ]) {
        const response = await post(multipart(fields));
        expect(response.statusCode, JSON.stringify(fields)).toBe(303);
      }
      expect(await stored()).toBe(before + 4);
    });
  });
});
