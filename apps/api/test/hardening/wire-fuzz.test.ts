import { connect } from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  databases,
  listenLocally,
  loginMagic,
  loginOpen,
  type TestApp,
} from '../helper.js';
import {
  DUE_DILIGENCE_FIELDS,
  FUZZ_PARAMS,
  FUZZ_TIMEOUT,
  HTML_ERRORS,
  VALID_BODIES,
  VALID_QUERIES,
  pdf,
  routeKey,
  routeTable,
  walk,
  type RouteEntry,
} from './support.js';

/**
 * fast-check over real connections (raw bytes on 127.0.0.1), from angles the injected fuzz (fuzz.test.ts) cannot
 * take: header lines as sent (repeated, conflicting, huge, framing), path shapes the router decodes itself, bytes
 * that are not UTF-8 and multipart bodies built by hand. Found useful by the thirty-second session's hostile run of
 * the built server; the findings it made are the first tests below.
 */

interface Answer {
  status: number;
  /** Each final status line received: one request, one answer. */
  statusLines: string[];
  headers: Record<string, string>;
  body: Buffer;
}

/** Sends `data` on a new connection and reads what comes back until the server closes it. */
function exchange(port: number, data: Buffer | string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer within 8 s'));
    }, 8_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A reset after the answer (the server drops what it did not read) still leaves the answer to judge.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parseAnswer(Buffer.concat(chunks)));
      } catch (error) {
        reject(error as Error);
      }
    });
    socket.write(data);
  });
}

function parseAnswer(all: Buffer): Answer {
  // An interim 100 Continue comes before the answer.
  while (/^HTTP\/1\.[01] 1\d\d /.test(all.subarray(0, 13).toString('latin1')))
    all = all.subarray(all.indexOf('\r\n\r\n') + 4);
  const end = all.indexOf('\r\n\r\n');
  if (end < 0)
    throw new Error(`no answer: ${JSON.stringify(all.toString('latin1').slice(0, 200))}`);
  const head = all.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  let body = all.subarray(end + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const eol = body.indexOf('\r\n', at);
      const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
      if (!(size > 0)) break;
      parts.push(body.subarray(eol + 2, eol + 2 + size));
      at = eol + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  } else if (headers['content-length'] !== undefined) {
    body = body.subarray(0, Number(headers['content-length']));
  }
  return {
    status: Number(/^HTTP\/1\.[01] (\d{3}) /.exec(head[0] ?? '')?.[1]),
    statusLines: all.toString('latin1').match(/HTTP\/1\.[01] \d{3} [^\r\n]*/g) ?? [],
    headers,
    body,
  };
}

/**
 * The contract for an answer on the wire: one answer, never 5xx; a refusal is a 4xx JSON `{ error }`, or the HTML
 * fault page where the app deliberately serves one (a browser's navigation, a page's address, the login link).
 */
function expectContract(answer: Answer, context: string, htmlAllowed: boolean, head: boolean) {
  expect(answer.statusLines.length, `${context}: ${answer.statusLines.join(' / ')}`).toBe(1);
  expect(answer.status, `${context}: ${answer.body.toString().slice(0, 200)}`).toBeLessThan(500);
  if (answer.status < 400 || head) return;
  const type = answer.headers['content-type'] ?? '';
  if (htmlAllowed && type.startsWith('text/html')) {
    expect(answer.body.toString(), context).toContain('</html>');
    return;
  }
  expect(type, `${context}: ${answer.body.toString().slice(0, 200)}`).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body.toString()) as unknown;
  expect(body, context).toEqual({ error: expect.any(String) });
}

/** Routes whose use with a session ends or replaces it: the live sessions are never sent to them. */
const SESSION_ENDING = new Set([
  'POST /api/:client/login',
  'POST /api/:client/login/link',
  'GET /api/:client/logout',
]);

const NORTHBANK_PERSON = {
  first_name: 'Wilhelmina',
  last_name: 'Wirefuzzington',
  email: 'wilhelmina.wirefuzzington@northbank-client.example',
  phone: '020 7946 0032',
};

describe.each(databases)('fuzzing over real connections ($name)', (target) => {
  let t: TestApp;
  let port: number;
  let routes: RouteEntry[];
  let demo: string;
  let northbank: string;
  /** Strings only a northbank session may be shown: its user, and its content's titles demo does not have. */
  let northbankSecrets: string[];
  const files: Record<string, string> = {};
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);

  beforeAll(async () => {
    t = await buildTestApp(target, {
      LOGIN_LIMIT_PER_EMAIL: '10000',
      LOGIN_LIMIT_PER_ADDRESS: '10000',
      QUOTE_LIMIT_PER_HOUR: '10000',
      QUOTE_LIMIT_PER_ADDRESS: '10000',
      DUE_DILIGENCE_LIMIT_PER_HOUR: '10000',
      DUE_DILIGENCE_LIMIT_PER_ADDRESS: '10000',
    });
    routes = routeTable(t.app);
    demo = await loginOpen(t.app, 'demo');
    northbank = await loginMagic(t, 'northbank', NORTHBANK_PERSON);
    const titles = async (prefix: string, cookie: string) => {
      const response = await t.app.inject({ url: `/api/${prefix}/content`, headers: { cookie } });
      return [...response.body.matchAll(/"title":"([^"]{12,})"/g)].map((m) => m[1] ?? '');
    };
    const demoTitles = new Set(await titles('demo', demo));
    northbankSecrets = [
      NORTHBANK_PERSON.email,
      NORTHBANK_PERSON.last_name,
      ...(await titles('northbank', northbank)).filter((title) => !demoTitles.has(title)),
    ];
    expect(northbankSecrets.length).toBeGreaterThan(2);
    // Demo's logo (public) and video captions (its session's); northbank's fixture has no media, so a well-formed
    // name stands in.
    const logo = (await t.app.inject({ url: '/api/demo' })).json<{
      branding: { logo_url: string };
    }>().branding.logo_url;
    const video = await t.app.inject({ url: '/api/demo/video', headers: { cookie: demo } });
    files.demo = logo.split('/').at(-1) ?? 'x';
    files.captions = video.json<{ captions: string }>().captions.split('/').at(-1) ?? 'x';
    files.northbank = '0123456789abcdef0123.svg';
    port = await listenLocally(t.app);
    process.on('warning', onWarning);
  });
  afterAll(async () => {
    process.off('warning', onWarning);
    await t.close();
  });

  /** The server still answers, and both live sessions still count. */
  const expectStillServing = async () => {
    for (const [prefix, cookie] of [
      ['demo', demo],
      ['northbank', northbank],
    ] as const) {
      const answer = await exchange(
        port,
        `GET /api/${prefix} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body.toString())).toMatchObject({ logged_in: true });
    }
  };

  const expectNoLeak = (answer: Answer, context: string) => {
    const body = answer.body.toString().toLowerCase();
    expect(
      northbankSecrets.filter((secret) => body.includes(secret.toLowerCase())),
      context,
    ).toEqual([]);
  };

  const urlFor = (route: RouteEntry, prefix: string) => {
    const key = routeKey(route);
    let url = route.url
      .replace(':client', prefix)
      .replace(':file', files[prefix] ?? 'x')
      .replace('*', `${prefix}/dashboard`);
    const query = VALID_QUERIES[key] ?? VALID_QUERIES[key.replace(/^HEAD /, 'GET ')];
    if (query !== undefined) url += `?${query}`;
    return url;
  };

  /** A route's valid body and its type (the due-diligence form as multipart, the rest as JSON). */
  const bodyFor = (route: RouteEntry): { type: string; body: Buffer } | undefined => {
    const key = routeKey(route);
    if (route.method !== 'POST') return undefined;
    if (key === 'POST /api/:client/due-diligence') {
      const { payload, boundary } = multipartBody(
        Object.entries({ ...DUE_DILIGENCE_FIELDS, SingleLine: 'Wire fuzz' }),
        'wirefuzzboundary',
      );
      return { type: `multipart/form-data; boundary=${boundary}`, body: payload };
    }
    return {
      type: 'application/json',
      body: Buffer.from(JSON.stringify(VALID_BODIES[key] ?? {})),
    };
  };

  // Found by the thirty-second session's header fuzz: an Expect other than 100-continue is answered 417 before
  // the body is read; a chunked body that was not chunked was then read by the parser as it arrived, and its
  // refusal, a 400, written after the 417 on the same connection (an answer no request asked for).
  it('should answer an unmet Expect once, whatever follows it on the connection', async () => {
    for (const rest of ['{"action":"view"}', 'zz\r\n{}\r\n0\r\n\r\n', 'GET / HTTP/1.1\r\n\r\n']) {
      const answer = await exchange(
        port,
        `POST /api/demo/activity HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${demo}\r\n` +
          `Content-Type: application/json\r\nExpect: foo\r\nTransfer-Encoding: chunked\r\n\r\n${rest}`,
      );
      expect(answer.statusLines, rest).toEqual(['HTTP/1.1 417 Expectation Failed']);
      expect(JSON.parse(answer.body.toString())).toEqual({
        error: 'The Expect header cannot be met (only 100-continue is).',
      });
    }
  });

  // Found by the same fuzz: a media file asked for with `Content-Length: 0` (or any body framing) had eleven
  // `close` listeners on its response, past Node's default of ten, and each such request wrote a "possible
  // EventEmitter memory leak" warning with its stack to stderr, outside the log.
  it('should serve a media file to a request with an empty body without a listener warning', async () => {
    warnings.length = 0;
    for (const framing of ['Content-Length: 0', 'Transfer-Encoding: chunked']) {
      for (const [file, cookie] of [
        [files.demo, ''],
        [files.captions, `Cookie: ${demo}\r\n`],
      ]) {
        const answer = await exchange(
          port,
          `GET /media/demo/${file} HTTP/1.1\r\nHost: 127.0.0.1\r\n${cookie}${framing}\r\n` +
            `Connection: close\r\n\r\n${framing.startsWith('Transfer') ? '0\r\n\r\n' : ''}`,
        );
        expect(answer.status, `${file} ${framing}`).toBe(200);
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
  });

  // Found by the same session's multipart fuzz: @fastify/busboy drops a part with no `Content-Disposition: form-data`,
  // and when that part held more than 16 KB ending in the same read, it never finished the body: the request was
  // not answered until the client gave up. The part's problem is now answered once the body is in.
  it('should answer a form whose dropped part holds more than 16 KB', async () => {
    for (const [disposition, chunked] of [
      ['Content-Disposition: attachment; name="SingleLine"\r\n', false],
      ['', true],
    ] as const) {
      const body = Buffer.concat([
        Buffer.from(`--b\r\n${disposition}Content-Type: application/pdf\r\n\r\n`),
        pdf(40_000),
        Buffer.from('\r\n--b--\r\n'),
      ]);
      const framed = chunked
        ? Buffer.concat([
            Buffer.from(`${body.length.toString(16)}\r\n`),
            body,
            Buffer.from('\r\n0\r\n\r\n'),
          ])
        : body;
      const answer = await exchange(
        port,
        Buffer.concat([
          Buffer.from(
            `POST /api/demo/due-diligence HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${demo}\r\n` +
              'Content-Type: multipart/form-data; boundary=b\r\n' +
              (chunked ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${body.length}\r\n`) +
              'Connection: close\r\n\r\n',
          ),
          framed,
        ]),
      );
      expect(answer.status, `${disposition} ${chunked}`).toBe(400);
      expect(JSON.parse(answer.body.toString())).toEqual({
        error: 'A part of the form has no Content-Disposition: form-data header naming its field.',
      });
    }
    expect(await walk(path.join(t.dataDir, 'uploads'))).toEqual([]);
  });

  it(
    'should keep the contract for any combination of header lines, on every route',
    async () => {
      const header = fc.oneof(
        fc.constantFrom(
          'Content-Type: application/json',
          'Content-Type: text/plain',
          'Content-Type: application/json; charset=utf-16',
          'Content-Type: multipart/form-data; boundary=x',
          'Content-Type: application/x-www-form-urlencoded',
          'Content-Type:',
          'Content-Length: 0',
          'Content-Length: 5',
          'Content-Length: 99999999999999999999',
          'Content-Length: -1',
          'Content-Length:  7 ',
          'Transfer-Encoding: chunked',
          'Transfer-Encoding: gzip, chunked',
          'Transfer-Encoding: identity',
          'Content-Encoding: gzip',
          'Content-Encoding: identity',
          'Expect: 100-continue',
          'Expect: foo',
          `Cookie: sid=x; ${'a'.repeat(200)}=1`,
          'Cookie: sid=',
          'Cookie: sid=%ZZ',
          'Cookie: ;;;',
          'Cookie: __proto__=x',
          `Cookie: sid=${'A'.repeat(6000)}`,
          'Accept-Encoding: gzip',
          'Accept-Encoding: br;q=abc, gzip;q=-1',
          'Accept-Encoding: *;q=0',
          'Accept-Encoding: identity;q=0',
          `Accept-Encoding: ${'gzip,'.repeat(1500)}`,
          'Accept: text/html',
          'Accept: */*;q=x',
          'Sec-Fetch-Mode: navigate',
          'Sec-Fetch-Dest: document',
          'Sec-Fetch-Site: cross-site',
          'Origin: https://evil.example',
          'Origin: null',
          'Range: bytes=0-0',
          'Range: bytes=-1',
          'Range: bytes=5-1',
          `Range: bytes=0-1,${'4-5,'.repeat(300)}6-7`,
          'If-Range: "x"',
          'If-None-Match: *',
          'If-None-Match: ',
          'If-Match: "nope"',
          'If-Modified-Since: yesterday',
          'Connection: keep-alive',
          'Connection: close, upgrade',
          'Upgrade: websocket',
          'Upgrade: h2c',
          'X-Forwarded-For: ::1, 1.2.3.4',
          'X-Forwarded-Host: evil.example',
          'Forwarded: for=1.2.3.4;proto=https',
          'Host: evil.example',
          'Host: ',
          'Host: [::1]',
          'Idempotency-Key: ',
          `Idempotency-Key: ${'k'.repeat(300)}`,
          'Trailer: Content-Length',
          'Max-Forwards: 0',
        ),
        fc
          .tuple(
            fc.constantFrom('X-A', 'Cookie', 'Accept', 'Accept-Encoding', 'Content-Type', 'Range'),
            fc.string({ unit: 'binary-ascii', maxLength: 60 }),
          )
          .map(([name, value]) => `${name}: ${value.replace(/[\r\n\0]/g, '')}`),
      );
      const request = fc.record({
        route: fc.constantFrom(...routes),
        prefix: fc.constantFrom('demo', 'northbank'),
        session: fc.constantFrom('none', 'demo', 'northbank', 'both'),
        withBody: fc.boolean(),
        extra: fc.array(header, { maxLength: 6 }),
      });
      warnings.length = 0;
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          const key = routeKey(r.route);
          const ending = SESSION_ENDING.has(key);
          const sessions = ending
            ? []
            : { none: [], demo: [demo], northbank: [northbank], both: [demo, northbank] }[
                r.session
              ];
          const valid = bodyFor(r.route);
          const lines = [`${r.route.method} ${urlFor(r.route, r.prefix)} HTTP/1.1`];
          if (!r.extra.some((line) => /^host:/i.test(line))) lines.push('Host: 127.0.0.1');
          for (const cookie of sessions) lines.push(`Cookie: ${cookie}`);
          const framed = r.extra.some((line) => /^(content-length|transfer-encoding):/i.test(line));
          let body: Buffer = Buffer.alloc(0);
          if ((r.withBody || framed) && valid !== undefined) {
            lines.push(`Content-Type: ${valid.type}`);
            body = valid.body;
          }
          if (r.withBody && !framed) lines.push(`Content-Length: ${body.length}`);
          // A declared length longer than what is sent would only wait for the rest (a stalled body, cut at 60 s).
          const declared = /^content-length:\s*(\d{1,4})\s*$/im.exec(r.extra.join('\n'))?.[1];
          if (declared !== undefined && body.length < Number(declared))
            body = Buffer.concat([body, Buffer.alloc(Number(declared) - body.length, 0x20)]);
          lines.push(...r.extra, 'Connection: close');
          const answer = await exchange(
            port,
            Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]),
          );
          const context = `${key} ${r.prefix} [${r.extra.map((l) => l.slice(0, 80)).join(' | ')}]`;
          const page = !/^\/(api|media)\//.test(r.route.url);
          // As the app tells a browser's navigation (`Sec-Fetch-Dest: document`, or `Accept: text/html`).
          const navigation = r.extra.some((line) =>
            /navigate|^sec-fetch-dest: document|^accept: text\/html/i.test(line),
          );
          // Node answers an unmet Expect or a malformed request before the app; it is still one answer.
          expectContract(
            answer,
            context,
            page || navigation || HTML_ERRORS.has(key),
            r.route.method === 'HEAD',
          );
          if (!sessions.includes(northbank)) expectNoLeak(answer, context);
        }),
        { ...FUZZ_PARAMS, timeout: 10_000 },
      );
      await expectStillServing();
      expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
    },
    FUZZ_TIMEOUT * 2,
  );

  it(
    'should answer any shape of a route’s path (encodings, case, dot segments) without another client’s data',
    async () => {
      const percent = (s: string) =>
        [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
      const fullwidth = (s: string) =>
        [...s].map((c) => String.fromCodePoint((c.codePointAt(0) ?? 0) + 0xfee0)).join('');
      const slug = fc.constantFrom('demo', 'northbank').chain((c) =>
        fc.constantFrom(
          c,
          c.toUpperCase(),
          `${c[0]?.toUpperCase()}${c.slice(1)}`,
          percent(c),
          percent(c).toUpperCase(),
          encodeURIComponent(fullwidth(c)),
          encodeURIComponent(c.normalize('NFD').replace('o', 'о')), // a Cyrillic o
          `${c}.`,
          `${c}%2e`,
          `${c}%20`,
          `${c}%00`,
          `${c};x`,
          `${c}%3B`,
          `${c}%2F`,
          `${c}%5C`,
          `${c}%E2%80%8B`,
          `%EF%BB%BF${c}`,
          `${c}%23`,
          `${c}%3F`,
          `${c}%ZZ`,
          `${c}%C0%AE`,
          c.replace('n', '%6E'),
        ),
      );
      const separator = fc.constantFrom(
        '/',
        '//',
        '/./',
        '/x/../',
        '/%2e/',
        '/%2E%2E/',
        '\\',
        '%2F',
        '/;/',
      );
      const ending = fc.constantFrom(
        '',
        '/',
        '//',
        '/.',
        '/..',
        '/%2e',
        '?',
        '#',
        '.',
        ';',
        '%20',
        '%00',
        '%3F',
      );
      const request = fc.record({
        route: fc.constantFrom(...routes.filter((route) => !SESSION_ENDING.has(routeKey(route)))),
        slug,
        separators: fc.array(fc.tuple(fc.nat(), separator), { maxLength: 2 }),
        ending,
        upperApi: fc.boolean(),
        session: fc.constantFrom('none', 'demo'),
        navigation: fc.boolean(),
      });
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          const key = routeKey(r.route);
          let url = urlFor(r.route, 'demo').replace(/\/demo(?=\/|\?|$)/, `/${r.slug}`);
          const [pathPart, query] = url.split('?') as [string, string | undefined];
          let segments = pathPart.split('/');
          if (r.upperApi && segments[1] === 'api') segments[1] = 'API';
          for (const [at, sep] of r.separators) {
            const i = 1 + (at % Math.max(1, segments.length - 1));
            segments =
              `${segments.slice(0, i).join('/')}${sep}${segments.slice(i).join('/')}`.split('/');
          }
          url = `${segments.join('/')}${r.ending}${query === undefined ? '' : `?${query}`}`;
          if (!url.startsWith('/')) url = `/${url}`;
          const lines = [`${r.route.method} ${url} HTTP/1.1`, 'Host: 127.0.0.1'];
          if (r.session === 'demo') lines.push(`Cookie: ${demo}`);
          if (r.navigation) lines.push('Accept: text/html', 'Sec-Fetch-Mode: navigate');
          const valid = bodyFor(r.route);
          if (valid !== undefined)
            lines.push(`Content-Type: ${valid.type}`, `Content-Length: ${valid.body.length}`);
          lines.push('Connection: close');
          const answer = await exchange(
            port,
            Buffer.concat([
              Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'),
              valid?.body ?? Buffer.alloc(0),
            ]),
          );
          const context = `${r.route.method} ${url} (${r.session})`;
          expectContract(
            answer,
            context,
            r.navigation || !/^\/(api|media)\//i.test(url) || HTML_ERRORS.has(key),
            r.route.method === 'HEAD',
          );
          expectNoLeak(answer, context);
        }),
        { ...FUZZ_PARAMS, timeout: 10_000 },
      );
      await expectStillServing();
    },
    FUZZ_TIMEOUT * 2,
  );

  it(
    'should refuse JSON bodies with odd bytes, numbers and nesting as 4xx { error }, never store them',
    async () => {
      const jsonRoutes = routes.filter(
        (route) =>
          route.method === 'POST' &&
          !SESSION_ENDING.has(routeKey(route)) &&
          routeKey(route) !== 'POST /api/:client/due-diligence',
      );
      const numberText = fc.oneof(
        fc.constantFrom(
          '1e400',
          '-1e400',
          '1e-400',
          '-0',
          '00',
          '1.',
          '.5',
          '+1',
          '0x10',
          '9007199254740993',
          `1${'0'.repeat(5000)}`,
          `0.${'0'.repeat(5000)}1`,
          `1e${'9'.repeat(400)}`,
          'Infinity',
          'NaN',
        ),
        fc.bigInt().map(String),
        fc.double().map(String),
      );
      const stringText = fc.oneof(
        fc.constantFrom(
          '"\\ud800"',
          '"\\udc00\\ud800"',
          '"\\u0000"',
          '"\\u202e"',
          '"\\uFEFF"',
          '"\\x41"',
          '"a\u2028b"',
        ),
        fc.string({ unit: 'binary', maxLength: 30 }).map((s) => JSON.stringify(s)),
      );
      const request = fc.record({
        route: fc.constantFrom(...jsonRoutes),
        field: fc.nat(),
        value: fc.oneof(numberText, stringText, fc.constantFrom('true', 'null', '[]', '{}')),
        // A byte order mark (UTF-8, UTF-16 either way), a NUL, whitespace.
        prefix: fc.constantFrom('', 'efbbbf', 'feff', 'fffe', '00', '200d0a'),
        // A lone surrogate, an overlong '/', a stray byte, a code point past U+10FFFF, a truncated sequence.
        badBytes: fc.constantFrom('', 'eda080', 'c0af', 'ff', 'f4908080', 'e282'),
        shape: fc.constantFrom('value', 'value', 'duplicate', 'deepArray', 'deepObject'),
        depth: fc.integer({ min: 20, max: 20_000 }),
        charset: fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'application/json; charset=UTF-16LE',
          'application/json; charset="utf-8"',
          'application/json;charset=utf-8;charset=latin1',
        ),
      });
      const quoteRows = async () =>
        Number(
          (
            await t.app.db.kysely
              .selectFrom('quotes')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await quoteRows();
      let quotesAccepted = 0;
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          const key = routeKey(r.route);
          const valid = VALID_BODIES[key] ?? {};
          const keys = Object.keys(valid);
          const field = keys[r.field % Math.max(1, keys.length)] ?? 'a';
          const entries = Object.entries(valid).map(
            ([k, v]) => `${JSON.stringify(k)}:${k === field ? r.value : JSON.stringify(v)}`,
          );
          if (r.shape === 'duplicate')
            entries.push(`${JSON.stringify(field)}:${JSON.stringify(valid[field])}`);
          let text = `{${entries.join(',')}}`;
          if (r.shape === 'deepArray')
            text = `{${JSON.stringify(field)}:${'['.repeat(r.depth)}1${']'.repeat(r.depth)}}`;
          if (r.shape === 'deepObject') text = `${'{"a":'.repeat(r.depth)}1${'}'.repeat(r.depth)}`;
          let body = Buffer.concat([Buffer.from(r.prefix, 'hex'), Buffer.from(text)]);
          if (r.badBytes !== '') {
            const at = body.indexOf('"', body.indexOf(':')) + 1;
            body = Buffer.concat([
              body.subarray(0, at),
              Buffer.from(r.badBytes, 'hex'),
              body.subarray(at),
            ]);
          }
          const answer = await exchange(
            port,
            Buffer.concat([
              Buffer.from(
                `POST ${urlFor(r.route, 'demo')} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${demo}\r\n` +
                  `Content-Type: ${r.charset}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
              ),
              body,
            ]),
          );
          const context = `${key} ${r.charset} ${body.subarray(0, 120).toString('latin1')}`;
          expectContract(answer, context, false, false);
          // Bytes that are not UTF-8, a UTF-16 BOM, a NUL, a charset other than UTF-8 or a number past a double:
          // refused. A leading UTF-8 BOM is dropped (docs/api.md), so a body it begins is judged as without it: a
          // valid one is taken (a seed at FUZZ_RUNS=300 found one, which this counted as odd).
          const odd =
            r.badBytes !== '' ||
            (r.prefix !== '' && r.prefix !== '200d0a' && r.prefix !== 'efbbbf') ||
            /utf-16|latin1/i.test(r.charset) ||
            (r.shape === 'value' &&
              /^(-?1e400|1e-400|1e9{400}|1e9+|Infinity|NaN|\+1|0x10|00|1\.|\.5)$/.test(r.value));
          if (odd) expect(answer.status, context).toBeGreaterThanOrEqual(400);
          if (answer.status < 300 && key !== 'POST /api/:client/activity') quotesAccepted += 1;
        }),
        { ...FUZZ_PARAMS, timeout: 10_000 },
      );
      // One quote stored for each accepted, none for a refusal.
      expect((await quoteRows()) - before).toBe(quotesAccepted);
      await expectStillServing();
    },
    FUZZ_TIMEOUT * 2,
  );

  it(
    'should answer any multipart shape sent to the due-diligence form, and keep no file it refused',
    async () => {
      const boundary = fc.oneof(
        fc.constantFrom(
          'b',
          '----WebKitFormBoundary7MA4YWxkTrZu0gW',
          'a'.repeat(70),
          'a'.repeat(71),
          'a'.repeat(300),
          'with space',
          'x=y',
          'é',
          '--',
        ),
        fc
          .string({ unit: 'binary-ascii', minLength: 1, maxLength: 40 })
          .map((s) => s.replace(/[\r\n"]/g, 'x')),
      );
      const contentType = fc.constantFrom(
        (b: string) => `multipart/form-data; boundary=${b}`,
        (b: string) => `multipart/form-data; boundary="${b}"`,
        (b: string) => `Multipart/Form-Data; BOUNDARY=${b}`,
        (b: string) => `multipart/form-data; boundary=${b}; boundary=other`,
        (b: string) => `multipart/mixed; boundary=${b}`,
        (b: string) => `multipart/form-data;boundary=${b};`,
      );
      const disposition = fc.constantFrom(
        (n: string) => `form-data; name="${n}"`,
        (n: string) => `form-data; name=${n}`,
        (n: string) => `FORM-DATA; NAME="${n}"`,
        (n: string) => `form-data; name="${n}"; name="other"`,
        (n: string) => `form-data; name="${n}"; filename="a.pdf"`,
        (n: string) => `form-data; name="${n}"; filename*=UTF-8''%E2%80%AEfdp.exe`,
        (n: string) => `form-data; name*=UTF-8''${n}`,
        () => 'form-data',
        () => 'attachment; name="SingleLine"',
        (n: string) => `form-data; name="${n}"; filename=""`,
        (n: string) => `form-data; name="${n}"; filename="${'x'.repeat(5000)}.pdf"`,
        (n: string) => `form-data; name="${n}\\"; filename="x.pdf"`,
      );
      const part = fc.record({
        name: fc.oneof(
          fc.constantFrom(...Object.keys(DUE_DILIGENCE_FIELDS), 'FileUpload', '__proto__', ''),
          fc.string({ maxLength: 10 }),
        ),
        disposition,
        headers: fc.array(
          fc.constantFrom(
            'Content-Type: application/pdf',
            'Content-Type: text/plain; charset=utf-16',
            'Content-Transfer-Encoding: base64',
            'Content-Length: 3',
            `X: ${'y'.repeat(9000)}`,
            'Content-Type: multipart/mixed; boundary=inner',
            'Content-Disposition: form-data; name="Email"',
            ':',
            'no colon',
          ),
          { maxLength: 3 },
        ),
        value: fc.oneof(
          fc.constantFrom('', '1e400', '%PDF-1.7\n', 'x'.repeat(30_000)),
          fc.string({ unit: 'binary', maxLength: 50 }),
        ),
        file: fc.option(fc.integer({ min: 0, max: 70_000 }), { nil: undefined }),
      });
      const form = fc.record({
        boundary,
        contentType,
        parts: fc.array(part, { maxLength: 4 }),
        keep: fc.subarray(Object.keys(DUE_DILIGENCE_FIELDS)),
        withFile: fc.boolean(),
        eol: fc.constantFrom('\r\n', '\n'),
        preamble: fc.constantFrom('', 'preamble\r\n', '\r\n\r\n'),
        end: fc.constantFrom('close', 'none', 'epilogue', 'noNewline', 'twice'),
      });
      await fc.assert(
        fc.asyncProperty(form, async (f) => {
          const nl = f.eol;
          const b = f.boundary;
          const chunks: Buffer[] = [Buffer.from(f.preamble)];
          const add = (headers: string[], content: Buffer) =>
            chunks.push(
              Buffer.from(`--${b}${nl}${headers.join(nl)}${nl}${nl}`),
              content,
              Buffer.from(nl),
            );
          for (const name of f.keep)
            add(
              [`Content-Disposition: form-data; name="${name}"`],
              Buffer.from(DUE_DILIGENCE_FIELDS[name] ?? ''),
            );
          if (f.withFile)
            add(
              [
                'Content-Disposition: form-data; name="FileUpload"; filename="x.pdf"',
                'Content-Type: application/pdf',
              ],
              pdf(600),
            );
          for (const p of f.parts)
            add(
              [`Content-Disposition: ${p.disposition(p.name)}`, ...p.headers],
              p.file === undefined ? Buffer.from(p.value) : pdf(p.file),
            );
          if (f.end === 'close') chunks.push(Buffer.from(`--${b}--${nl}`));
          if (f.end === 'epilogue') chunks.push(Buffer.from(`--${b}--${nl}epilogue --${b}--${nl}`));
          if (f.end === 'noNewline') chunks.push(Buffer.from(`--${b}--`));
          if (f.end === 'twice') chunks.push(Buffer.from(`--${b}--${nl}--${b}--${nl}`));
          const body = Buffer.concat(chunks);
          const answer = await exchange(
            port,
            Buffer.concat([
              Buffer.from(
                `POST /api/demo/due-diligence HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${demo}\r\n` +
                  `Content-Type: ${f.contentType(b)}\r\nContent-Length: ${body.length}\r\n` +
                  'Connection: close\r\n\r\n',
                'latin1',
              ),
              body,
            ]),
          );
          const context = `due diligence ${f.contentType(b).slice(0, 80)} ${f.end} ${JSON.stringify(
            f.parts.map((p) => [
              p.name,
              p.disposition(p.name).slice(0, 60),
              p.headers.map((h) => h.slice(0, 40)),
            ]),
          )}`;
          expect(answer.status === 303 || answer.status >= 400, context).toBe(true);
          expectContract(answer, context, false, false);
        }),
        { ...FUZZ_PARAMS, timeout: 10_000 },
      );
      // Every file in the uploads folder is one a stored request points at.
      const onDisk = await walk(path.join(t.dataDir, 'uploads'));
      const rows = await t.app.db.kysely
        .selectFrom('due_diligence')
        .select('attachment_path')
        .where('attachment_path', 'is not', null)
        .execute();
      expect(onDisk).toEqual(rows.map((r) => r.attachment_path).sort());
      await expectStillServing();
    },
    FUZZ_TIMEOUT * 2,
  );
});

/** A multipart/form-data body of `fields`, with its boundary. */
function multipartBody(fields: [string, string][], boundary: string) {
  const parts = fields.map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return { payload: Buffer.from(`${parts.join('')}--${boundary}--\r\n`), boundary };
}
