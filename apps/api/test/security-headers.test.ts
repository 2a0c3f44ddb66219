import helmet from '@fastify/helmet';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '../src/plugins/external/security.js';
import { buildTestApp, databases, loginOpen, type TestApp } from './helper.js';

/** The options this app gave @fastify/helmet before its headers were fixed at start-up. */
const helmetOptions = (https: boolean) => ({
  global: true,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      mediaSrc: ["'self'"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      frameSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      frameAncestors: ["'self'"],
      formAction: ["'self'"],
    },
  },
  frameguard: { action: 'sameorigin' as const },
  crossOriginEmbedderPolicy: false,
  hsts: https,
});

/** Headers that are not security headers (set by Fastify or the route). */
const OTHER = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'date',
  'connection',
  'cache-control',
  'vary',
  'allow',
  'location',
  'set-cookie',
  'accept-ranges',
  'last-modified',
  'etag',
]);

const securityOf = (response: LightMyRequestResponse) =>
  Object.fromEntries(
    Object.entries(response.headers)
      .filter(([name]) => !OTHER.has(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );

/** What @fastify/helmet sends with those options (a bare app with one route). */
async function helmetHeaders(https: boolean) {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, helmetOptions(https));
  probe.get('/', () => 'ok');
  try {
    return securityOf(await probe.inject({ method: 'GET', url: '/' }));
  } finally {
    await probe.close();
  }
}

describe.each([
  ['http', 'http://127.0.0.1:3000'],
  ['https', 'https://portal.example'],
])('security headers over %s', (scheme, publicUrl) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(databases[0]!, { PUBLIC_URL: publicUrl });
  });
  afterAll(async () => {
    await t.close();
  });

  it('should be byte-identical to what @fastify/helmet set, fixed at start-up', async () => {
    const expected = await helmetHeaders(scheme === 'https');
    expect(Object.keys(expected).length).toBeGreaterThanOrEqual(11);
    expect(securityOf(await t.app.inject({ method: 'GET', url: '/api/demo' }))).toEqual(expected);
    expect(
      Object.fromEntries(
        Object.entries(securityHeaders(scheme === 'https')).sort(([a], [b]) => a.localeCompare(b)),
      ),
    ).toEqual(expected);
    expect('strict-transport-security' in expected).toBe(scheme === 'https');
  });

  it('should be on every kind of answer: content, errors, refusals, 404, 405, files and redirects', async () => {
    const expected = await helmetHeaders(scheme === 'https');
    const cookie = await loginOpen(t.app);
    const requests = [
      { method: 'GET', url: '/api/demo/content', headers: { cookie } },
      { method: 'GET', url: '/api/demo/content', headers: { cookie, 'accept-encoding': 'br' } },
      { method: 'GET', url: '/api/demo/content' },
      { method: 'GET', url: '/api/nobody/content' },
      { method: 'GET', url: '/api/demo/content?search=%00' },
      { method: 'DELETE', url: '/api/demo/content' },
      { method: 'GET', url: '/api/no-such-route' },
      {
        method: 'POST',
        url: '/api/demo/login',
        headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
        payload: '{}',
      },
      { method: 'GET', url: '/demo/dashboard', headers: { cookie } },
      // A hub page with no session goes to the login page.
      { method: 'GET', url: '/demo/dashboard' },
      { method: 'GET', url: '/assets/app-abc123.js' },
      { method: 'GET', url: '/' },
    ] as const;
    const statuses: number[] = [];
    for (const request of requests) {
      const response = await t.app.inject(request);
      statuses.push(response.statusCode);
      expect(securityOf(response), `${request.method} ${request.url}`).toEqual(expected);
    }
    expect(statuses).toEqual([200, 200, 401, 404, 400, 405, 404, 403, 200, 302, 200, 302]);
  });

  it('should still let the media route replace the CSP with its sandboxing one', async () => {
    const cookie = await loginOpen(t.app);
    const video = (
      await t.app.inject({ method: 'GET', url: '/api/demo/video', headers: { cookie } })
    ).json<{ captions: string }>();
    const response = await t.app.inject({
      method: 'GET',
      url: video.captions,
      headers: { cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toContain('sandbox');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});
