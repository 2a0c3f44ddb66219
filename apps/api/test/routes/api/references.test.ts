import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/repositories/clients.js';
import { buildTestApp, databases, loginOpen, multipart, type TestApp } from '../../helper.js';

const WARRANTY = {
  build_type: 'New Build',
  stageType: 'Not Started',
  units: 4,
  build_value: 1_000_000,
  GDV: 3_000_000,
  name: 'Ada Lovelace',
  telephone: '020 7946 0123',
  email: 'ada@example.com',
};
const CAR = {
  propertyType: 'New Build Residential',
  contractWorksValue: 2_000_000,
  name: 'Ada Lovelace',
  telephone: '020 7946 0123',
  email: 'ada@example.com',
};
const DUE_DILIGENCE = {
  SingleLine: 'Harbour Quay',
  SingleLine1: '1 Quay Street',
  SingleLine2: 'Portsmouth PO1 1AA',
  SingleLine3: 'Sixty-four apartments.',
};

const number = (reference: string) => Number(reference.split('-')[2]);

/**
 * References are numbered per client: what one client submits never shows in another's references (one counter
 * for everyone let a client read the firm's volume and the other clients' activity from the gaps).
 */
describe.each(databases)('references per client ($name)', (target) => {
  let t: TestApp;
  const cookies: Record<string, string> = {};
  beforeAll(async () => {
    t = await buildTestApp(target, { TEAM_EMAIL: 'team@advisory.example' });
    await createClient(
      t.app.db.kysely,
      { prefix: 'acme', name: 'Acme Homes', loginPolicy: 'open', branding: {} },
      t.clock.now(),
    );
    cookies.demo = await loginOpen(t.app, 'demo');
    cookies.acme = await loginOpen(t.app, 'acme');
  });
  afterAll(async () => {
    await t.close();
  });

  const submit = async (client: string, path: string, payload: object = WARRANTY) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/${client}/${path}`,
      payload,
      headers: { cookie: cookies[client] ?? '' },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ reference: string }>().reference;
  };
  const request = async (client: string) => {
    const form = multipart(DUE_DILIGENCE);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/${client}/due-diligence`,
      payload: form.payload,
      headers: { ...form.headers, cookie: cookies[client] ?? '' },
    });
    expect(response.statusCode, response.body).toBe(303);
    const row = await t.app.db.kysely
      .selectFrom('due_diligence')
      .innerJoin('clients', 'clients.id', 'due_diligence.client_id')
      .select('due_diligence.reference')
      .where('clients.prefix', '=', client)
      .orderBy('due_diligence.created_at', 'desc')
      .orderBy('due_diligence.reference', 'desc')
      .executeTakeFirstOrThrow();
    return row.reference;
  };

  it('should give two clients submitting in turn consecutive references each, with no gaps', async () => {
    const seen: [string, string][] = [];
    for (const client of ['demo', 'acme', 'demo', 'acme', 'acme', 'demo', 'demo']) {
      seen.push([client, await submit(client, 'warranty')]);
    }
    expect(seen.filter(([c]) => c === 'demo').map(([, r]) => r)).toEqual([
      'BW-2026-000001',
      'BW-2026-000002',
      'BW-2026-000003',
      'BW-2026-000004',
    ]);
    expect(seen.filter(([c]) => c === 'acme').map(([, r]) => r)).toEqual([
      'BW-2026-000001',
      'BW-2026-000002',
      'BW-2026-000003',
    ]);
    // Other kinds too, due diligence included.
    expect(await submit('acme', 'car', CAR)).toBe('CAR-2026-000001');
    expect(await submit('demo', 'car', CAR)).toBe('CAR-2026-000001');
    expect(await request('demo')).toBe('DD-2026-000001');
    expect(await request('acme')).toBe('DD-2026-000001');
    expect(await request('demo')).toBe('DD-2026-000002');
  });

  it('should keep each client gapless when both submit at once', async () => {
    const clients = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? 'acme' : 'demo'));
    const references = await Promise.all(clients.map((client) => submit(client, 'warranty')));
    const of = (client: string) =>
      references
        .filter((_, i) => clients[i] === client)
        .map(number)
        .sort((a, b) => a - b);
    // After the first test's 4 (demo) and 3 (acme).
    expect(of('demo')).toEqual(Array.from({ length: 20 }, (_, k) => 5 + k));
    expect(of('acme')).toEqual(Array.from({ length: 10 }, (_, k) => 4 + k));
  });

  it('should store the same reference for both clients, and say whose it is in the team e-mail', async () => {
    const rows = await t.app.db.kysely
      .selectFrom('quotes')
      .innerJoin('clients', 'clients.id', 'quotes.client_id')
      .select(['clients.prefix', 'quotes.reference'])
      .where('quotes.reference', '=', 'BW-2026-000001')
      .orderBy('clients.prefix')
      .execute();
    expect(rows).toEqual([
      { prefix: 'acme', reference: 'BW-2026-000001' },
      { prefix: 'demo', reference: 'BW-2026-000001' },
    ]);
    const mails = (await t.app.db.kysely.selectFrom('outbox').select('payload').execute())
      .map((row) => JSON.parse(row.payload) as { subject?: string; text?: string })
      .filter((mail) => mail.text?.includes('Reference: BW-2026-000001\n'));
    expect(mails.map((mail) => mail.subject).sort()).toEqual([
      'Building warranty enquiry BW-2026-000001 from Acme Homes (acme)',
      'Building warranty enquiry BW-2026-000001 from Demo Developments (demo)',
    ]);
    for (const mail of mails) {
      expect(mail.text).toMatch(
        /Reference: BW-2026-000001\nClient: (Demo Developments \(demo\)|Acme Homes \(acme\))\n/,
      );
    }
    const requests = (await t.app.db.kysely.selectFrom('outbox').select('payload').execute())
      .map((row) => JSON.parse(row.payload) as { subject?: string })
      .map((mail) => mail.subject)
      .filter((subject) => subject?.startsWith('Due diligence request DD-2026-000001'))
      .sort();
    expect(requests).toEqual([
      'Due diligence request DD-2026-000001 from Acme Homes (acme)',
      'Due diligence request DD-2026-000001 from Demo Developments (demo)',
    ]);
  });
});
