import type { Client } from '@/types/api';

/** A client as GET /api/{client} answers it, logged in unless overridden. */
export function makeClient(overrides: Partial<Client> = {}): Client {
  return {
    prefix: 'demo',
    name: 'Demo Developments',
    logged_in: true,
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    phone: '07700 900123',
    login_policy: 'open',
    branding: { primary: '#1a4d8f', accent: '#0f7c80', logo_url: null },
    contact: { phone: '+44 20 7946 0000', email: 'team@example.com' },
    footer: {
      blurb: 'A due diligence report checks your insurance.',
      regulatory: 'Fictional Ltd.',
    },
    ...overrides,
  };
}

/** A fetch Response with a JSON body. */
export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'content-type': 'application/json; charset=utf-8', ...init.headers },
  });
}
