import {
  quoteBtrWarranty,
  quoteBuildingWarranty,
  quoteContractorsAllRisks,
  type BtrWarrantyQuote,
} from '@firm/pricing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  databases,
  decodeMail,
  loginOpen,
  multipart,
  outboxMails,
  type TestApp,
} from '../helper.js';

/**
 * Found by the hostile probe of the calculator submissions and the activity call against the built server
 * (fifth session): loss of rent figures stored unchecked, a misleading "missing field", line breaks the
 * one-line schema lets by reaching the team's e-mail, and form bodies recorded as activity.
 */

const BTR = {
  stage: 'Part Complete',
  units: 120,
  sum_insured: 40_000_000,
  GDV: 60_000_000,
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  contact_number: '020 7946 0123',
};
const CAR = {
  propertyType: 'New Build Commercial',
  contractWorksValue: 3_450_000,
  name: 'Ada Lovelace',
  telephone: '020 7946 0123',
  email: 'ada@example.com',
};
const WARRANTY = {
  build_type: 'New Build',
  stageType: 'Not Started',
  units: 10,
  build_value: 500_000,
  GDV: 2_000_000,
  name: 'Ada Lovelace',
  telephone: '020 7946 0123',
  email: 'ada@example.com',
};

/** Characters a mail reader may break a line at: CR, LF, VT, FF, NEL, line and paragraph separators. */
const LINE_BREAKS = /[\n\v\f\r\u0085\u2028\u2029]/;

describe.each(databases)('calculator submissions and activity, hostile probe ($name)', (target) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp(target, { TEAM_EMAIL: 'quotes@advisory.example' });
    cookie = await loginOpen(t.app);
  });
  afterAll(async () => {
    await t.close();
  });
  const post = (path: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/demo/${path}`, payload, headers: { cookie } });
  const stored = async () =>
    (await t.app.db.kysely.selectFrom('quotes').select('reference').execute()).length;
  /** The team e-mail of a reference, decoded. */
  const mailOf = async (reference: string) => {
    await t.app.background.drain();
    await t.app.outbox.runOnce();
    const mails = (await outboxMails(t.dataDir)).map(decodeMail);
    const mail = mails.find((m) => m.includes(`Reference: ${reference}\n`));
    if (mail === undefined) throw new Error(`No team mail for ${reference}`);
    return mail;
  };

  it('should refuse loss of rent figures outside the domain even when the cover is left out', async () => {
    const before = await stored();
    const bad = await post('btr', {
      ...BTR,
      includeRentCoverLoss: false,
      anticipatedRentalIncome: 1e12,
      term: 36,
      programmeMonths: -7.5,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      error:
        'anticipatedRentalIncome: Must be between £1,000,000 and £35,000,000 (got 1000000000000). ' +
        'programmeMonths: Must be a whole number (got -7.5).',
    });
    const alone = await post('btr', { ...BTR, includeRentCoverLoss: false, programmeMonths: 5 });
    expect(alone.json()).toEqual({ error: 'programmeMonths: Must be a multiple of 6 (got 5).' });
    expect(await stored()).toBe(before);

    // Figures in the domain are recorded as sent and not priced: the cover was left out.
    const valid = await post('btr', {
      ...BTR,
      includeRentCoverLoss: false,
      anticipatedRentalIncome: 2_000_000,
      term: 24,
      programmeMonths: 12,
    });
    expect(valid.statusCode).toBe(201);
    expect(valid.json<{ quote: BtrWarrantyQuote }>().quote).toEqual(
      quoteBtrWarranty({
        stage: 'Part Complete',
        units: 120,
        sumInsured: 40_000_000,
        gdv: 60_000_000,
      }),
    );
  });

  it('should name includeRentCoverLoss, not the loss of rent fields, when the flag is missing', async () => {
    const response = await post('btr', BTR);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'Missing required field "includeRentCoverLoss".' });
  });

  it('should keep every contact field on its own line of the team e-mail', async () => {
    for (const [path, body, field] of [
      ['car', CAR, 'name'],
      ['warranty', WARRANTY, 'telephone'],
      ['btr', { ...BTR, includeRentCoverLoss: false }, 'contact_number'],
    ] as const) {
      for (const brk of ['\u0085', '\u000b', '\u000c']) {
        const forged = `Ada${brk}Reference: BW-2026-999999${brk}Total: £1`;
        const response = await post(path, { ...body, [field]: forged });
        // Refusing the field is as good as defusing it; what must never happen is a forged line.
        if (response.statusCode === 400) continue;
        expect(response.statusCode).toBe(201);
        const mail = await mailOf(response.json<{ reference: string }>().reference);
        const label = field === 'name' ? 'Name' : 'Telephone';
        const line = mail.split('\n').find((l) => l.startsWith(`${label}: Ada`));
        expect(line).toBe(`${label}: Ada Reference: BW-2026-999999 Total: £1`);
        expect(line).not.toMatch(LINE_BREAKS);
      }
    }
  });

  it('should write each calculator’s name as it reads in a sentence', async () => {
    const response = await post('btr', { ...BTR, includeRentCoverLoss: false });
    const mail = await mailOf(response.json<{ reference: string }>().reference);
    expect(mail).toContain('A BTR warranty + loss of rent quote was submitted');
    const car = await post('car', CAR);
    expect(await mailOf(car.json<{ reference: string }>().reference)).toContain(
      'A contractors all risks quote was submitted',
    );
  });

  it('should answer 50 concurrent submissions with the library’s exact quotes and gapless references', async () => {
    const before = await t.app.db.kysely
      .selectFrom('sequences')
      .select(['kind', 'value'])
      .execute();
    const start = (kind: string) => before.find((row) => row.kind === kind)?.value ?? 0;
    const bodies = Array.from({ length: 50 }, (_, i) => {
      if (i % 3 === 0) {
        const value = 500_000 + i * 987_653;
        return {
          path: 'warranty',
          body: { ...WARRANTY, build_value: value, units: 1 + i },
          expected: quoteBuildingWarranty({
            buildType: 'New Build',
            stage: 'Not Started',
            units: 1 + i,
            sumInsured: value,
            gdv: 2_000_000,
          }),
        };
      }
      if (i % 3 === 1) {
        const income = 1_000_000 + i * 654_321;
        return {
          path: 'btr',
          body: {
            ...BTR,
            sum_insured: 8_000_000 + i * 6_543_211,
            includeRentCoverLoss: true,
            anticipatedRentalIncome: income,
            term: 36,
            programmeMonths: 48,
          },
          expected: quoteBtrWarranty({
            stage: 'Part Complete',
            units: 120,
            sumInsured: 8_000_000 + i * 6_543_211,
            gdv: 60_000_000,
            lossOfRent: { anticipatedRentalIncome: income, termMonths: 36, programmeMonths: 48 },
          }),
        };
      }
      const value = 500_000 + i * 976_543;
      return {
        path: 'car',
        body: { ...CAR, contractWorksValue: value },
        expected: quoteContractorsAllRisks({
          propertyType: 'New Build Commercial',
          contractWorksValue: value,
        }),
      };
    });
    const answers = await Promise.all(bodies.map(({ path, body }) => post(path, body)));
    const references: Record<string, number[]> = { BW: [], BTR: [], CAR: [] };
    answers.forEach((answer, i) => {
      expect(answer.statusCode).toBe(201);
      const { reference, quote } = answer.json<{ reference: string; quote: object }>();
      expect(quote).toEqual(bodies[i]?.expected);
      // Money in whole pounds (rates are the only fractions): integers, so written without a point.
      for (const [key, value] of Object.entries(quote)) {
        if (typeof value === 'number' && key !== 'totalPercentage') {
          expect(Number.isSafeInteger(value)).toBe(true);
        }
      }
      const [prefix, , number] = reference.split('-');
      references[prefix ?? '']?.push(Number(number));
    });
    for (const [prefix, numbers] of Object.entries(references)) {
      const first = start(prefix) + 1;
      expect(numbers.sort((a, b) => a - b)).toEqual(
        Array.from({ length: numbers.length }, (_, k) => first + k),
      );
    }
  });

  it('should take activity as JSON only, never from a form body', async () => {
    const count = async () =>
      (await t.app.db.kysely.selectFrom('activity').select('id').execute()).length;
    const before = await count();
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/demo/activity',
      payload: 'action=view&item=forged',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(415);
    expect(form.json()).toEqual({
      error:
        'This content type is not accepted: send JSON (application/json), or multipart/form-data to the due-diligence form.',
    });
    const parts = multipart({ action: 'view', item: 'forged' });
    const multi = await t.app.inject({
      method: 'POST',
      url: '/api/demo/activity',
      payload: parts.payload,
      headers: { cookie, ...parts.headers },
    });
    expect(multi.statusCode).toBe(415);
    expect(await count()).toBe(before);
    // Every JSON call, not only this one: the login too.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/demo/login',
      payload: 'first_name=A&last_name=B&email=form%40example.com&phone=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(login.statusCode).toBe(415);
    for (const type of ['application/json', 'Application/JSON; charset=utf-8']) {
      const json = await t.app.inject({
        method: 'POST',
        url: '/api/demo/activity',
        payload: JSON.stringify({ action: 'view', item: 'dashboard' }),
        headers: { cookie, 'content-type': type },
      });
      expect(json.statusCode).toBe(204);
    }
  });
});
