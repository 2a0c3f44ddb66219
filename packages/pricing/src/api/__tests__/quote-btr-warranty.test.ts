import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PricingInputError } from '../../core/pricing-input-error';
import { BTR_LIMITS } from '../../limits';
import { BTR_TERMS, STAGES, type BtrTermMonths, type Stage } from '../../options';
import {
  bigIntBtrWarrantyPremium,
  bigIntIpt,
  bigIntLossOfRentPremium,
  referenceBtrWarranty,
} from '../../__tests__/reference';
import { RATE_TABLE_VERSION } from '../rate-table-version';
import {
  quoteBtrWarranty,
  type BtrWarrantyInput,
  type LossOfRentInput,
} from '../quote-btr-warranty';

const base: BtrWarrantyInput = {
  stage: 'Not Started',
  units: 100,
  sumInsured: 10_000_000,
  gdv: 30_000_000,
};
const lossOfRent: LossOfRentInput = {
  anticipatedRentalIncome: 1_000_000,
  termMonths: 12,
  programmeMonths: 0,
};
const quote = (change: Partial<BtrWarrantyInput>) => quoteBtrWarranty({ ...base, ...change });
const issuesOf = (input: unknown) => {
  try {
    quoteBtrWarranty(input as BtrWarrantyInput);
  } catch (error) {
    if (error instanceof PricingInputError) return error.issues;
    throw error;
  }
  throw new Error('expected a PricingInputError');
};

describe('quoteBtrWarranty', () => {
  it('prices the warranty alone: £10,000,000 not started', () => {
    expect(quote({})).toEqual({
      rates: { base: 0.85, stage: 0, lossOfRentTerm: null },
      totalPercentage: 0.85,
      warrantyPremium: 85_000,
      lossOfRentPremium: 0,
      subTotal: 85_000,
      ipt: 10_200,
      total: 95_200,
      rateTableVersion: RATE_TABLE_VERSION,
    });
  });

  it.each([
    ['Not Started', 0, 0.85, 85_000],
    ['Part Complete', 0.31, 1.16, 116_000],
    ['Completed', 0.51, 1.36, 136_000],
  ] as const)('adds the %s stage rate %f (total %f%%)', (stage, rate, total, premium) => {
    const result = quote({ stage });
    expect(result.rates.stage).toBe(rate);
    expect(result.totalPercentage).toBe(total);
    expect(String(result.totalPercentage)).toBe(String(total)); // 0.85 + 0.31 prints 1.16
    expect(result.warrantyPremium).toBe(premium);
  });

  it('floors exactly where doubles fall a pound short: £12,000,000 part complete is £139,200', () => {
    // 12000000 * (0.85 + 0.31) / 100 in doubles is 139199.999…
    expect(quote({ stage: 'Part Complete', sumInsured: 12_000_000 }).warrantyPremium).toBe(139_200);
  });

  it.each([
    [12, 0.0085, 8_500],
    [24, 0.0072, 14_400],
    [36, 0.0064, 19_200],
  ] as const)(
    'prices a %i-month loss of rent term at %f of £1,000,000 a year: £%i',
    (termMonths, rate, premium) => {
      const result = quote({ lossOfRent: { ...lossOfRent, termMonths } });
      expect(result.rates.lossOfRentTerm).toBe(rate);
      expect(result.lossOfRentPremium).toBe(premium);
      expect(result.subTotal).toBe(85_000 + premium);
    },
  );

  it('floors the loss of rent: £1,234,567 for 36 months is floor(23,703.6864) = £23,703', () => {
    const result = quote({
      lossOfRent: { anticipatedRentalIncome: 1_234_567, termMonths: 36, programmeMonths: 0 },
    });
    expect(result.lossOfRentPremium).toBe(23_703);
  });

  it.each([
    [0, 8_500],
    [6, 20_500],
    [48, 104_500],
  ])('adds £2,000 a month for a %i-month programme', (programmeMonths, premium) => {
    expect(quote({ lossOfRent: { ...lossOfRent, programmeMonths } }).lossOfRentPremium).toBe(
      premium,
    );
  });

  it.each([
    // subTotal 85,000 + 8,500 = 93,500 → 12% is exactly 11,220
    [{ lossOfRent }, 93_500, 11_220],
    // subTotal floor(8,000,001 × 0.85%) = 68,000 → 8,160
    [{ sumInsured: 8_000_001 }, 68_000, 8_160],
    // subTotal 93,619 (£8,010,000 at 1.16% = 92,916 + 703) → 12% = 11,234.28 → 11,234
    [
      {
        stage: 'Part Complete',
        sumInsured: 8_010_000,
        lossOfRent: { anticipatedRentalIncome: 1_100_000, termMonths: 12, programmeMonths: 0 },
      },
      92_916 + 9_350,
      12_271,
    ],
  ] as const)('floors the IPT: %j', (change, subTotal, ipt) => {
    const result = quote(change as Partial<BtrWarrantyInput>);
    expect(result.subTotal).toBe(subTotal);
    expect(result.ipt).toBe(ipt);
    expect(result.total).toBe(subTotal + ipt);
  });

  it('floors an IPT with a fraction of a pound: sub-total £94,208 → £11,304', () => {
    // £8,000,000 at 0.85% = 68,000; £3,083,400 over 12 months at 0.0085 = 26,208.9 → 26,208;
    // 94,208 × 12% = 11,304.96 → 11,304.
    const result = quote({
      sumInsured: 8_000_000,
      lossOfRent: { anticipatedRentalIncome: 3_083_400, termMonths: 12, programmeMonths: 0 },
    });
    expect(result.lossOfRentPremium).toBe(26_208);
    expect(result.ipt).toBe(11_304);
    expect(result.total).toBe(94_208 + 11_304);
  });

  it.each([
    [7_999_999, 'sumInsured'],
    [350_000_001, 'sumInsured'],
  ])('rejects a sum insured of %i', (sumInsured, field) => {
    expect(issuesOf({ ...base, sumInsured })[0]?.field).toBe(field);
  });

  it('accepts the domain edges of every field', () => {
    expect(() =>
      quote({
        units: 50,
        sumInsured: 8_000_000,
        gdv: 20_000_000,
        lossOfRent: { anticipatedRentalIncome: 1_000_000, termMonths: 12, programmeMonths: 0 },
      }),
    ).not.toThrow();
    expect(() =>
      quote({
        units: 500,
        sumInsured: 350_000_000,
        gdv: 500_000_000,
        lossOfRent: { anticipatedRentalIncome: 35_000_000, termMonths: 36, programmeMonths: 48 },
      }),
    ).not.toThrow();
  });

  it('reports every bad loss of rent field', () => {
    expect(
      issuesOf({
        ...base,
        lossOfRent: {
          anticipatedRentalIncome: 999_999,
          termMonths: 18,
          programmeMonths: 9,
          months: 1,
        },
      }),
    ).toEqual([
      {
        field: 'lossOfRent.months',
        message:
          'Is not a known field (expected "anticipatedRentalIncome", "termMonths", "programmeMonths").',
      },
      {
        field: 'lossOfRent.anticipatedRentalIncome',
        message: 'Must be between £1,000,000 and £35,000,000 (got 999999).',
      },
      { field: 'lossOfRent.termMonths', message: 'Must be one of 12, 24, 36 (got 18).' },
      { field: 'lossOfRent.programmeMonths', message: 'Must be a multiple of 6 (got 9).' },
    ]);
  });

  it.each([null, 'yes', 12, [lossOfRent]])('rejects a malformed loss of rent %j', (value) => {
    expect(issuesOf({ ...base, lossOfRent: value })).toEqual([
      {
        field: 'lossOfRent',
        message: expect.stringContaining(
          'Must be an object { anticipatedRentalIncome, termMonths, programmeMonths }',
        ) as string,
      },
    ]);
  });

  it('rejects a programme beyond 48 months and a missing term', () => {
    expect(
      issuesOf({
        ...base,
        lossOfRent: { anticipatedRentalIncome: 1_000_000, programmeMonths: 54 },
      }),
    ).toEqual([
      { field: 'lossOfRent.termMonths', message: 'Is missing.' },
      { field: 'lossOfRent.programmeMonths', message: 'Must be between 0 and 48 (got 54).' },
    ]);
  });

  it('treats an explicitly undefined loss of rent as none', () => {
    expect(quote({ lossOfRent: undefined })).toEqual(quote({}));
  });

  it('reports every bad top-level field at once', () => {
    expect(
      issuesOf({
        stage: 'Started',
        units: 49,
        sumInsured: '10m',
        gdv: 20_000_000.5,
        extra: true,
      }).map((i) => i.field),
    ).toEqual(['extra', 'stage', 'units', 'sumInsured', 'gdv']);
  });
});

describe('properties', () => {
  it('should equal the exact decimal.js reference on any valid input', () => {
    fc.assert(
      fc.property(btrInputArb, (input) => {
        const result = quoteBtrWarranty(input);
        const expected = referenceBtrWarranty(input);
        expect({
          totalPercentage: String(result.totalPercentage),
          lossOfRentTerm:
            result.rates.lossOfRentTerm === null ? null : String(result.rates.lossOfRentTerm),
          warrantyPremium: String(result.warrantyPremium),
          lossOfRentPremium: String(result.lossOfRentPremium),
          subTotal: String(result.subTotal),
          ipt: String(result.ipt),
          total: String(result.total),
        }).toEqual(expected);
      }),
      { numRuns: 2_000 },
    );
  });

  it('should equal the BigInt reference at every slider step of every option', () => {
    const { sumInsured, anticipatedRentalIncome: income, programmeMonths: programme } = BTR_LIMITS;
    const lossOfRentOptions: (LossOfRentInput | undefined)[] = [undefined];
    for (let i = income.min; i <= income.max; i += income.step)
      for (const termMonths of BTR_TERMS)
        for (let p = programme.min; p <= programme.max; p += programme.step)
          lossOfRentOptions.push({ anticipatedRentalIncome: i, termMonths, programmeMonths: p });
    const lossOfRentReference = lossOfRentOptions.map((option) =>
      option === undefined
        ? 0n
        : bigIntLossOfRentPremium(
            option.anticipatedRentalIncome,
            option.termMonths,
            option.programmeMonths,
          ),
    );
    let checked = 0;
    const mismatches: string[] = [];
    for (const stage of STAGES)
      for (let s = sumInsured.min; s <= sumInsured.max; s += sumInsured.step) {
        const warranty = bigIntBtrWarrantyPremium(stage, s);
        lossOfRentOptions.forEach((option, i) => {
          const result = quoteBtrWarranty({
            stage,
            units: 50,
            sumInsured: s,
            gdv: 20_000_000,
            lossOfRent: option,
          });
          const subTotal = warranty + (lossOfRentReference[i] as bigint);
          if (
            BigInt(result.warrantyPremium) !== warranty ||
            BigInt(result.subTotal) !== subTotal ||
            BigInt(result.total) !== subTotal + bigIntIpt(subTotal)
          ) {
            mismatches.push(`${stage}/${s}/${JSON.stringify(option)}`);
          }
          checked += 1;
        });
      }
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(checked).toBe(3 * 685 * (1 + 69 * 3 * 9));
  });

  it('should accept every units and GDV step and never depend on them', () => {
    const { units, gdv } = BTR_LIMITS;
    const expected = quote({ lossOfRent });
    for (let u = units.min; u <= units.max; u += units.step) {
      expect(quote({ units: u, lossOfRent })).toEqual(expected);
    }
    for (let g = gdv.min; g <= gdv.max; g += gdv.step) {
      expect(quote({ gdv: g, lossOfRent })).toEqual(expected);
    }
  });

  it('should add up: subTotal is warranty plus loss of rent, and subTotal + ipt = total', () => {
    fc.assert(
      fc.property(btrInputArb, (input) => {
        const result = quoteBtrWarranty(input);
        expect(result.subTotal).toBe(result.warrantyPremium + result.lossOfRentPremium);
        expect(result.subTotal + result.ipt).toBe(result.total);
      }),
    );
  });

  it('should give every line in whole pounds', () => {
    fc.assert(
      fc.property(btrInputArb, (input) => {
        const { warrantyPremium, lossOfRentPremium, subTotal, ipt, total } =
          quoteBtrWarranty(input);
        for (const line of [warrantyPremium, lossOfRentPremium, subTotal, ipt, total]) {
          expect(Number.isSafeInteger(line) && line >= 0).toBe(true);
        }
      }),
    );
  });

  it('should never fall as the sum insured rises', () => {
    fc.assert(
      fc.property(btrInputArb, fc.integer({ min: 0, max: 10_000_000 }), (input, more) => {
        fc.pre(input.sumInsured + more <= BTR_LIMITS.sumInsured.max);
        expect(
          quoteBtrWarranty({ ...input, sumInsured: input.sumInsured + more }).total,
        ).toBeGreaterThanOrEqual(quoteBtrWarranty(input).total);
      }),
    );
  });

  it('should never fall as the rental income, the term or the programme of works rises', () => {
    // decisions.md §1: the loss of rent premium grows with income × term rate × years (0.0085,
    // 0.0144, 0.0192 of a year's income for 12, 24, 36 months) and with £2,000 a programme month.
    fc.assert(
      fc.property(
        btrInputArb,
        lossOfRentArb,
        fc.integer({ min: 0, max: 34_000_000 }),
        fc.integer({ min: 0, max: 8 }),
        (input, cover, more, moreSteps) => {
          const total = (change: Partial<LossOfRentInput>) =>
            quoteBtrWarranty({ ...input, lossOfRent: { ...cover, ...change } }).total;
          const base = total({});
          const income = cover.anticipatedRentalIncome + more;
          if (income <= BTR_LIMITS.anticipatedRentalIncome.max) {
            expect(total({ anticipatedRentalIncome: income })).toBeGreaterThanOrEqual(base);
          }
          const programme = cover.programmeMonths + moreSteps * 6;
          if (programme <= BTR_LIMITS.programmeMonths.max) {
            expect(total({ programmeMonths: programme })).toBeGreaterThanOrEqual(base);
          }
          const byTerm = BTR_TERMS.map((termMonths) => total({ termMonths }));
          byTerm.slice(1).forEach((value, i) => {
            expect(value).toBeGreaterThanOrEqual(byTerm[i] as number);
          });
          // Adding the cover never lowers the quote.
          expect(base).toBeGreaterThanOrEqual(
            quoteBtrWarranty({ ...input, lossOfRent: undefined }).total,
          );
        },
      ),
    );
  });

  it('should survive a JSON round trip unchanged', () => {
    fc.assert(
      fc.property(btrInputArb, (input) => {
        const result = quoteBtrWarranty(input);
        expect(JSON.parse(JSON.stringify(result))).toEqual(result);
      }),
    );
  });
});

// Helpers

const stageArb = fc.constantFrom<Stage>(...STAGES);
const lossOfRentArb = fc.record({
  anticipatedRentalIncome: fc.integer({ min: 1_000_000, max: 35_000_000 }),
  termMonths: fc.constantFrom<BtrTermMonths>(...BTR_TERMS),
  programmeMonths: fc.integer({ min: 0, max: 8 }).map((n) => n * 6),
});
const btrInputArb = fc.record(
  {
    stage: stageArb,
    units: fc.integer({ min: 50, max: 500 }),
    sumInsured: fc.integer({ min: 8_000_000, max: 350_000_000 }),
    gdv: fc.integer({ min: 20_000_000, max: 500_000_000 }),
    lossOfRent: lossOfRentArb,
  },
  { requiredKeys: ['stage', 'units', 'sumInsured', 'gdv'] },
);
