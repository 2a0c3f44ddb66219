import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, databases, loginMagic, loginOpen, type TestApp } from '../../helper.js';

const NOT_LOGGED_IN = 'You are not logged in. Please log in again.';

/** Every route that needs a session, with a body that would otherwise be accepted. */
const PROTECTED: { method: 'GET' | 'POST'; path: string; payload?: object }[] = [
  { method: 'GET', path: 'content' },
  { method: 'GET', path: 'content?search=warranty' },
  { method: 'GET', path: 'article?id=harbour-quay&type=case_study' },
  { method: 'GET', path: 'video' },
  { method: 'POST', path: 'activity', payload: { action: 'view', item: 'dashboard' } },
  {
    method: 'POST',
    path: 'warranty',
    payload: {
      build_type: 'New Build',
      stageType: 'Not Started',
      units: 1,
      build_value: 500000,
      GDV: 500000,
      name: 'A',
      telephone: '1',
      email: 'a@example.com',
    },
  },
  {
    method: 'POST',
    path: 'btr',
    payload: {
      stage: 'Not Started',
      units: 50,
      sum_insured: 8000000,
      GDV: 20000000,
      includeRentCoverLoss: false,
      name: 'A',
      email: 'a@example.com',
      contact_number: '1',
    },
  },
  {
    method: 'POST',
    path: 'car',
    payload: {
      propertyType: 'New Build Residential',
      contractWorksValue: 500000,
      name: 'A',
      telephone: '1',
      email: 'a@example.com',
    },
  },
];

describe.each(databases)('tenancy ($name)', (target) => {
  let t: TestApp;
  let demoCookie: string;
  let northbankCookie: string;
  beforeAll(async () => {
    t = await buildTestApp(target);
    demoCookie = await loginOpen(t.app, 'demo');
    northbankCookie = await loginMagic(t, 'northbank');
  });
  afterAll(async () => {
    await t.close();
  });

  for (const route of PROTECTED) {
    it(`should answer 401 to ${route.method} ${route.path} of another client's session and without one`, async () => {
      const attempts = [
        { prefix: 'northbank', cookie: demoCookie },
        { prefix: 'demo', cookie: northbankCookie },
        { prefix: 'demo', cookie: undefined },
      ];
      for (const { prefix, cookie } of attempts) {
        const response = await t.app.inject({
          method: route.method,
          url: `/api/${prefix}/${route.path}`,
          ...(route.payload === undefined ? {} : { payload: route.payload }),
          headers: cookie === undefined ? {} : { cookie },
        });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ error: NOT_LOGGED_IN });
      }
      // The same request with the client's own session is accepted.
      const own = await t.app.inject({
        method: route.method,
        url: `/api/demo/${route.path}`,
        ...(route.payload === undefined ? {} : { payload: route.payload }),
        headers: { cookie: demoCookie },
      });
      expect(own.statusCode).toBeLessThan(300);
    });
  }

  it("should answer 401 to due diligence with another client's session", async () => {
    const boundary = 'XyZ';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="SingleLine"\r\n\r\nP\r\n--${boundary}--\r\n`;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/northbank/due-diligence',
      payload,
      headers: { cookie: demoCookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(response.statusCode).toBe(401);
  });

  it("should not end another client's session on its logout", async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/northbank/logout',
      headers: { cookie: demoCookie },
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/northbank/login');
    expect(response.cookies).toEqual([]);
    const stillIn = await t.app.inject({
      method: 'GET',
      url: '/api/demo',
      headers: { cookie: demoCookie },
    });
    expect(stillIn.json()).toMatchObject({ logged_in: true });
  });

  it("should show another client's session as logged out on the client lookup", async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/northbank',
      headers: { cookie: demoCookie },
    });
    expect(response.json()).toMatchObject({ logged_in: false, email: '' });
  });
});
