import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, databases, loginMagic, loginOpen, type TestApp } from '../helper.js';
import {
  DUE_DILIGENCE_FIELDS,
  PUBLIC_ROUTES,
  VALID_BODIES,
  multipart,
  routeKey,
  routeTable,
  validRequest,
  type RouteEntry,
} from './support.js';

const DEMO_PERSON = {
  first_name: 'Dorothea',
  last_name: 'Demopoulos',
  email: 'dorothea.demopoulos@demo-client.example',
  phone: '020 7946 0001',
};
const NORTHBANK_PERSON = {
  first_name: 'Norberta',
  last_name: 'Quartermaine',
  email: 'norberta.quartermaine@northbank-client.example',
  phone: '020 7946 0002',
};
const NORTHBANK_PROJECT = 'Zanzibar Wharf Secret Scheme';

/** A media file (not the logo) each client really has, so `:file` names something a session would get. */
const mediaFiles: Record<string, string> = {};

const requestFor = (
  route: RouteEntry,
  prefix: string,
  cookie: string | undefined,
  query?: string,
) => validRequest(route, prefix, cookie, { file: mediaFiles[prefix], query });

describe.each(databases)('tenancy matrix from the route table ($name)', (target) => {
  let t: TestApp;
  let routes: RouteEntry[];
  let demo: string;
  let northbank: string;
  /** Strings only northbank's pages and records hold. */
  let northbankSecrets: string[];
  /** Strings only demo's logged-in user holds. */
  let demoSecrets: string[];
  let northbankIds: { slug: string; type: string }[];

  const leaks = (response: LightMyRequestResponse, secrets: string[]) => {
    const body = response.body.toLowerCase();
    return secrets.filter((s) => body.includes(s.toLowerCase()));
  };

  beforeAll(async () => {
    t = await buildTestApp(target);
    routes = routeTable(t.app);
    demo = await loginOpen(t.app, 'demo', DEMO_PERSON);
    northbank = await loginMagic(t, 'northbank', NORTHBANK_PERSON);
    // Northbank has records of its own: a quote and a due diligence request.
    const quote = await t.app.inject({
      method: 'POST',
      url: '/api/northbank/warranty',
      payload: { ...VALID_BODIES['POST /api/:client/warranty'], name: 'Norberta Quartermaine' },
      headers: { cookie: northbank },
    });
    expect(quote.statusCode).toBe(201);
    const form = multipart({ ...DUE_DILIGENCE_FIELDS, SingleLine: NORTHBANK_PROJECT });
    const dd = await t.app.inject({
      method: 'POST',
      url: '/api/northbank/due-diligence',
      payload: form.payload,
      headers: { ...form.headers, cookie: northbank },
    });
    expect(dd.statusCode).toBe(303);

    // Demo's video captions (what its own session must get; its images are the logo file, public); northbank's
    // fixture has no media, so a well-formed name stands in (without the session rule it would be a 404, not the
    // 401 the matrix wants).
    const video = await t.app.inject({
      method: 'GET',
      url: '/api/demo/video',
      headers: { cookie: demo },
    });
    mediaFiles.demo = video.json<{ captions: string }>().captions.split('/').at(-1) ?? 'x';
    mediaFiles.northbank = '0123456789abcdef0123.svg';
    const client = await t.app.db.kysely
      .selectFrom('clients')
      .select(['id', 'name'])
      .where('prefix', '=', 'northbank')
      .executeTakeFirstOrThrow();
    const items = await t.app.db.kysely
      .selectFrom('content_items')
      .select(['slug', 'type', 'title'])
      .where('client_id', '=', client.id)
      .execute();
    expect(items.length).toBeGreaterThan(0);
    northbankIds = items
      .filter((i) => i.type !== 'topic')
      .map((i) => ({ slug: i.slug, type: i.type }));
    northbankSecrets = [
      client.name,
      NORTHBANK_PERSON.email,
      NORTHBANK_PERSON.last_name,
      NORTHBANK_PROJECT,
      ...items.map((i) => i.title),
    ];
    demoSecrets = [DEMO_PERSON.email, DEMO_PERSON.last_name];
  });
  afterAll(async () => {
    await t.close();
  });

  it('should know which routes are public: everything else needs a session', () => {
    const keys = routes.map(routeKey);
    const protectedKeys = keys.filter((k) => !PUBLIC_ROUTES.has(k));
    // The documented protected routes are all found in the app's own table.
    for (const expected of [
      'GET /api/:client/content',
      'GET /api/:client/article',
      'GET /api/:client/video',
      'POST /api/:client/activity',
      'POST /api/:client/warranty',
      'POST /api/:client/btr',
      'POST /api/:client/car',
      'POST /api/:client/due-diligence',
      'GET /media/:client/:file',
    ]) {
      expect(protectedKeys).toContain(expected);
    }
  });

  it("should refuse every protected route without a session, with the other client's session, or a forged one", async () => {
    const tampered = northbank.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    let checked = 0;
    for (const route of routes) {
      const key = routeKey(route);
      if (PUBLIC_ROUTES.has(key)) continue;
      const attempts: [string, string | undefined][] = [
        ['northbank', undefined],
        ['northbank', demo],
        ['northbank', tampered],
        ['northbank', `${demo}; ${northbank.replace(/=.*/, '=')}`],
        ['demo', northbank],
      ];
      for (const [prefix, cookie] of attempts) {
        const response = await t.app.inject(requestFor(route, prefix, cookie));
        const context = `${key} on ${prefix} with ${cookie === undefined ? 'no session' : 'a foreign session'}`;
        expect(response.statusCode, context).toBe(401);
        if (route.method !== 'HEAD') {
          expect(response.json(), context).toEqual({ error: expect.any(String) });
        }
        expect(leaks(response, [...northbankSecrets, ...demoSecrets]), context).toEqual([]);
        checked += 1;
      }
      // The same request with the client's own session gets through (so the refusal above meant something).
      const own = await t.app.inject(requestFor(route, 'demo', demo));
      expect(own.statusCode, `${key} with its own session`).toBeLessThan(400);
    }
    expect(checked).toBeGreaterThanOrEqual(8 * 5);
  });

  it('should ask for a session before it judges the request: a wrong body or query without one is a 401', async () => {
    // Answering 400 first would let anyone learn a call's fields and rules without logging in.
    let checked = 0;
    for (const route of routes) {
      const key = routeKey(route);
      if (PUBLIC_ROUTES.has(key) || route.method === 'HEAD') continue;
      for (const cookie of [undefined, northbank]) {
        const request = requestFor(route, 'demo', cookie, 'unknown=1');
        const wrong =
          key === 'POST /api/:client/due-diligence'
            ? request
            : {
                ...request,
                ...(route.method === 'GET' ? {} : { payload: { unknown: 1 } }),
              };
        const response = await t.app.inject(wrong);
        const context = `${key} with a wrong ${route.method === 'GET' ? 'query' : 'body'}`;
        expect(response.statusCode, context).toBe(401);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(7 * 2);
  });

  it("should not reveal the other client's items by their ids or by search, on any protected route", async () => {
    for (const route of routes) {
      const key = routeKey(route);
      if (PUBLIC_ROUTES.has(key) || route.method === 'HEAD') continue;
      const queries = [
        ...northbankIds.flatMap(({ slug, type }) => [
          `id=${encodeURIComponent(slug)}&type=${type}`,
          `id=${encodeURIComponent(slug)}&type=${type === 'insight' ? 'case_study' : 'insight'}`,
          `search=${encodeURIComponent(slug)}`,
        ]),
        ...northbankSecrets.map((s) => `search=${encodeURIComponent(s.slice(0, 200))}`),
      ];
      for (const query of route.method === 'GET' ? queries : [undefined]) {
        const response = await t.app.inject(requestFor(route, 'demo', demo, query));
        const context = `${key}?${query ?? ''}`;
        expect(response.statusCode, context).toBeLessThan(500);
        expect(leaks(response, northbankSecrets), context).toEqual([]);
      }
    }
    // An article id of the other client is simply not found.
    const [first] = northbankIds;
    if (first === undefined) throw new Error('northbank has no articles');
    const article = await t.app.inject({
      method: 'GET',
      url: `/api/demo/article?id=${first.slug}&type=${first.type}`,
      headers: { cookie: demo },
    });
    expect(article.statusCode).toBe(404);
  });

  it('should show the public routes nothing of the other client or its user', async () => {
    for (const [prefix, cookie, secrets] of [
      ['northbank', demo, demoSecrets],
      ['demo', northbank, northbankSecrets],
    ] as const) {
      const lookup = await t.app.inject({
        method: 'GET',
        url: `/api/${prefix}`,
        headers: { cookie },
      });
      expect(lookup.statusCode).toBe(200);
      expect(lookup.json()).toMatchObject({
        logged_in: false,
        email: '',
        first_name: '',
        last_name: '',
      });
      expect(leaks(lookup, secrets)).toEqual([]);
    }
    // The other client's media is not served under this client's prefix.
    const demoMedia = `/media/demo/${mediaFiles.demo ?? ''}`;
    const media = (url: string, cookie?: string) =>
      t.app.inject({ method: 'GET', url, headers: cookie === undefined ? {} : { cookie } });
    expect((await media(demoMedia, demo)).statusCode).toBe(200);
    // Without a session, or with the other client's: 401 (a client's logo alone is public).
    expect((await media(demoMedia)).statusCode).toBe(401);
    expect((await media(demoMedia, northbank)).statusCode).toBe(401);
    // Under the other client's prefix, with that client's session: not there.
    const foreign = demoMedia.replace('/media/demo/', '/media/northbank/');
    expect((await media(foreign, northbank)).statusCode).toBe(404);
    expect((await media(foreign, demo)).statusCode).toBe(401);
  });

  it("should keep the other client's session alive: another client's routes neither use nor end it", async () => {
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/northbank',
      headers: { cookie: northbank },
    });
    expect(me.json()).toMatchObject({ logged_in: true, email: NORTHBANK_PERSON.email });
  });
});
