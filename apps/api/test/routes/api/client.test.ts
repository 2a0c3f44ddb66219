import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PROVIDER_PHONE, DEFAULT_REGULATORY_TEXT } from '../../../src/config.js';
import { buildTestApp, databases, loginOpen, type TestApp } from '../../helper.js';

describe.each(databases)('GET /api/{client} ($name)', (target) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp(target);
  });
  afterEach(async () => {
    await t.close();
  });

  describe('given no session', () => {
    it('should answer the client with logged_in false and empty user fields', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/demo' });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({
        prefix: 'demo',
        name: 'Demo Developments',
        logged_in: false,
        first_name: '',
        last_name: '',
        email: '',
        phone: '',
        login_policy: 'open',
        branding: { primary: '#0B4F6C', accent: '#E8A33D' },
        contact: { phone: DEFAULT_PROVIDER_PHONE, email: 'team@advisory.example' },
        footer: { regulatory: DEFAULT_REGULATORY_TEXT },
      });
      expect(body.branding.logo_url).toMatch(/^\/media\/demo\/[a-f0-9]{20}\.svg$/);
      // The logo's own size (the fixture's SVG is 10 by 10), so the portal keeps its place before it loads.
      expect(body.branding.logo_size).toEqual({ width: 10, height: 10 });
    });
  });

  describe('given a session of that client', () => {
    it('should answer the logged-in user', async () => {
      const cookie = await loginOpen(t.app);
      const response = await t.app.inject({ method: 'GET', url: '/api/demo', headers: { cookie } });
      expect(response.json()).toMatchObject({
        logged_in: true,
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        phone: '020 7946 0123',
      });
    });
  });

  it('should answer 404 JSON for an unknown client', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nobody' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Unknown client.' });
  });

  it('should send the CSP and security headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/demo' });
    const csp = response.headers['content-security-policy'];
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
