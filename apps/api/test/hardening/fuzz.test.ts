import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, databases, loginOpen, type TestApp } from '../helper.js';
import {
  clientSegment,
  contentTypes,
  jsonBody,
  noDotSegment,
  oddMethods,
  oddString,
  queryString,
  urlPart,
} from './arbitraries.js';
import {
  DUE_DILIGENCE_FIELDS,
  FUZZ_PARAMS,
  FUZZ_TIMEOUT,
  VALID_BODIES,
  VALID_QUERIES,
  expectContractAnswer,
  multipart,
  pdf,
  routeKey,
  routeTable,
  walk,
  type RouteEntry,
} from './support.js';

/** Routes whose use with a session ends or replaces it: they get a throwaway session, not the shared one. */
const SESSION_ENDING = new Set([
  'POST /api/:client/login',
  'POST /api/:client/login/link',
  'GET /api/:client/logout',
]);

type CookieChoice = 'session' | 'none' | 'garbage' | 'tampered' | 'doubled';
const cookieChoice = fc.constantFrom<CookieChoice>(
  'session',
  'session',
  'session',
  'none',
  'garbage',
  'tampered',
  'doubled',
);

describe.each(databases)('fuzzing every route ($name)', (target) => {
  let t: TestApp;
  let session: string;
  let routes: RouteEntry[];
  let throwaway = 0;

  beforeAll(async () => {
    // Throwaway sessions and the login route's own runs must not reach the login rate limit.
    t = await buildTestApp(target, {
      LOGIN_LIMIT_PER_EMAIL: '10000',
      LOGIN_LIMIT_PER_ADDRESS: '100000',
    });
    session = await loginOpen(t.app, 'demo');
    routes = routeTable(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  const cookieFor = async (key: string, choice: CookieChoice): Promise<string | undefined> => {
    if (choice === 'none') return undefined;
    throwaway += 1;
    const live = SESSION_ENDING.has(key)
      ? await loginOpen(t.app, 'demo', { email: `throwaway${throwaway}@example.com` })
      : session;
    if (choice === 'session') return live;
    if (choice === 'tampered') return live.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    if (choice === 'doubled') return `${live}; ${live.replace(/=.*/, '=s%3Ax.y')}`;
    return 'sid=%E0%A4%A; __Host-sid=""; =; sid=' + 'z'.repeat(3000);
  };

  it('should read the route table from the app (a new route is fuzzed without being listed)', () => {
    const keys = routes.map(routeKey);
    for (const expected of [
      'GET /api/:client',
      'POST /api/:client/login',
      'POST /api/:client/warranty',
      'POST /api/:client/due-diligence',
      'GET /media/:client/:file',
      'GET /*',
    ]) {
      expect(keys).toContain(expected);
    }
    expect(routes.length).toBeGreaterThanOrEqual(20);
  });

  it(
    'should never answer 5xx, and refuse with a 4xx JSON { error } (JSON and query routes)',
    async () => {
      for (const route of routes) {
        const key = routeKey(route);
        if (key === 'POST /api/:client/due-diligence') continue; // multipart: its own property below
        const body = VALID_BODIES[key];
        const request = fc.record({
          client: clientSegment,
          method: fc.oneof(
            { arbitrary: fc.constant(route.method), weight: 4 },
            { arbitrary: oddMethods, weight: 1 },
          ),
          query: queryString(VALID_QUERIES[key]),
          body: body === undefined ? fc.option(oddString, { nil: undefined }) : jsonBody(body),
          contentType: fc.oneof(
            { arbitrary: fc.constant('application/json'), weight: 4 },
            { arbitrary: contentTypes, weight: 1 },
          ),
          cookie: cookieChoice,
          crossSite: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
          file: oddString.map((s) => noDotSegment(urlPart(s.slice(0, 300), true))),
          wildcard: fc.array(
            oddString.map((s) => noDotSegment(urlPart(s.slice(0, 100), true))),
            { maxLength: 4 },
          ),
        });
        await fc.assert(
          fc.asyncProperty(request, async (r) => {
            let url = route.url
              .replace(':client', r.client)
              .replace(':file', r.file)
              .replace('*', r.wildcard.map((s) => s || 'x').join('/') || 'x');
            if (!url.startsWith('/')) url = `/${url}`;
            if (r.query !== '') url += `?${r.query}`;
            const cookie = await cookieFor(key, r.cookie);
            const hasBody = r.method !== 'GET' && r.method !== 'HEAD' && r.body !== undefined;
            const response = await t.app.inject({
              method: r.method,
              url,
              headers: {
                ...(cookie === undefined ? {} : { cookie }),
                ...(hasBody ? { 'content-type': r.contentType } : {}),
                ...(r.crossSite ? { origin: 'https://evil.example' } : {}),
              },
              ...(hasBody ? { payload: r.body } : {}),
            });
            expectContractAnswer(response, key, `${r.method} ${url.slice(0, 200)}`, r.method);
          }),
          { ...FUZZ_PARAMS, timeout: 10_000 },
        );
      }
    },
    FUZZ_TIMEOUT * 20,
  );

  it(
    'should never answer 5xx to hostile due-diligence forms, and keep no file it refused',
    async () => {
      const key = 'POST /api/:client/due-diligence';
      const fieldName = fc.oneof(
        fc.constantFrom(...Object.keys(DUE_DILIGENCE_FIELDS), 'FileUpload'),
        fc.constantFrom('__proto__', 'constructor', 'hasOwnProperty', ''),
        fc.string({ maxLength: 20 }).filter((s) => !/["\r\n]/.test(s)),
      );
      const fileContent = fc.oneof(
        fc.uint8Array({ maxLength: 3000 }).map((a) => Buffer.from(a)),
        fc.integer({ min: 1, max: 5000 }).map((n) => pdf(n)),
        fc.constantFrom(
          Buffer.from('MZ\x90\x00'),
          Buffer.from('<svg onload=alert(1)>'),
          Buffer.from([0x50, 0x4b, 0x03, 0x04]),
          Buffer.alloc(0),
        ),
      );
      const form = fc.record({
        keepValid: fc.subarray(Object.keys(DUE_DILIGENCE_FIELDS)),
        extra: fc.array(
          fc.tuple(
            fieldName,
            oddString.map((s) => s.slice(0, 25_000)),
          ),
          { maxLength: 4 },
        ),
        file: fc.option(
          fc.record({
            field: fc.oneof(fc.constant('FileUpload'), fieldName),
            filename: fc.oneof(
              fc.constantFrom(
                '../../etc/passwd',
                '..\\x.pdf',
                '/abs/path.pdf',
                'a\u0000b.pdf',
                'C:\\x.pdf',
                '',
              ),
              oddString.map((s) => s.slice(0, 300).replace(/["\r\n]/g, '')),
            ),
            contentType: fc.constantFrom('application/pdf', 'text/html', 'image/svg+xml', 'x'),
            content: fileContent,
          }),
          { nil: undefined },
        ),
        broken: fc.constantFrom('none', 'none', 'none', 'truncate', 'boundary', 'no-boundary'),
        truncateAt: fc.nat(),
      });
      await fc.assert(
        fc.asyncProperty(form, async (f) => {
          const fields: [string, string][] = [
            ...f.keepValid.map((k) => [k, DUE_DILIGENCE_FIELDS[k] ?? ''] as [string, string]),
            ...f.extra,
          ];
          const built = multipart(fields, f.file);
          let payload = built.payload;
          let contentType = built.headers['content-type'];
          if (f.broken === 'truncate')
            payload = payload.subarray(0, f.truncateAt % (payload.length + 1));
          if (f.broken === 'boundary') contentType = 'multipart/form-data; boundary=other';
          if (f.broken === 'no-boundary') contentType = 'multipart/form-data';
          const response = await t.app.inject({
            method: 'POST',
            url: '/api/demo/due-diligence',
            payload,
            headers: { 'content-type': contentType, cookie: session },
          });
          expectContractAnswer(response, key, `due diligence (${f.broken})`, 'POST');
        }),
        { ...FUZZ_PARAMS, timeout: 10_000 },
      );
      // Every file left in the uploads folder is one a stored request points at: no partial or refused files.
      const onDisk = await walk(path.join(t.dataDir, 'uploads'));
      const rows = await t.app.db.kysely
        .selectFrom('due_diligence')
        .select('attachment_path')
        .where('attachment_path', 'is not', null)
        .execute();
      expect(onDisk).toEqual(rows.map((r) => r.attachment_path).sort());
    },
    FUZZ_TIMEOUT * 3,
  );
});
