import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BTR_TERMS,
  BUILD_TYPES,
  CAR_PROPERTY_TYPES,
  CONTRACTORS,
  DEVELOPMENT_TYPES,
  FRAMEWORK_PROPERTY_TYPES,
  PricingInputError,
  SCHEME_LOCATIONS,
  STAGES,
  quoteBtrWarranty,
  quoteBuildingWarranty,
  quoteContractorsAllRisks,
  recommendInsuranceFramework,
} from '../index';

type Field = 'label' | 'pounds' | 'count' | 'boolean';

/** Each function with a valid input and the kind and range of each of its fields. */
const CASES = [
  {
    name: 'quoteBuildingWarranty',
    run: quoteBuildingWarranty as (input: unknown) => unknown,
    valid: {
      buildType: 'Conversion',
      stage: 'Completed',
      units: 10,
      sumInsured: 5_000_000,
      gdv: 9_000_000,
    },
    fields: {
      buildType: ['label', BUILD_TYPES],
      stage: ['label', STAGES],
      units: ['count', [1, 250]],
      sumInsured: ['pounds', [500_000, 50_000_000]],
      gdv: ['pounds', [500_000, 100_000_000]],
    },
  },
  {
    name: 'quoteBtrWarranty',
    run: quoteBtrWarranty as (input: unknown) => unknown,
    valid: { stage: 'Part Complete', units: 120, sumInsured: 40_000_000, gdv: 60_000_000 },
    fields: {
      stage: ['label', STAGES],
      units: ['count', [50, 500]],
      sumInsured: ['pounds', [8_000_000, 350_000_000]],
      gdv: ['pounds', [20_000_000, 500_000_000]],
    },
  },
  {
    name: 'quoteBtrWarranty (loss of rent)',
    run: (input: unknown) =>
      quoteBtrWarranty({
        stage: 'Completed',
        units: 50,
        sumInsured: 8_000_000,
        gdv: 20_000_000,
        lossOfRent: input,
      } as never),
    valid: { anticipatedRentalIncome: 2_000_000, termMonths: 24, programmeMonths: 12 },
    prefix: 'lossOfRent.',
    fields: {
      anticipatedRentalIncome: ['pounds', [1_000_000, 35_000_000]],
      termMonths: ['label', BTR_TERMS],
      programmeMonths: ['count', [0, 48]],
    },
  },
  {
    name: 'quoteContractorsAllRisks',
    run: quoteContractorsAllRisks as (input: unknown) => unknown,
    valid: { propertyType: 'New Build Commercial', contractWorksValue: 2_000_000 },
    fields: {
      propertyType: ['label', CAR_PROPERTY_TYPES],
      contractWorksValue: ['pounds', [500_000, 50_000_000]],
    },
  },
  {
    name: 'recommendInsuranceFramework',
    run: recommendInsuranceFramework as (input: unknown) => unknown,
    valid: {
      propertyType: 'Commercial- PBSA',
      contractValue: 12_000_000,
      hasBasement: true,
      developmentType: 'Fit-Out',
      gdv: 20_000_000,
      contractor: 'Construction management (trade contracts)',
      schemeLocation: 'Green',
      reinstatement: 3_000_000,
      hasFlatRoof: false,
    },
    fields: {
      propertyType: ['label', FRAMEWORK_PROPERTY_TYPES],
      contractValue: ['pounds', [500_000, 50_000_000]],
      hasBasement: ['boolean', []],
      developmentType: ['label', DEVELOPMENT_TYPES],
      gdv: ['pounds', [500_000, 50_000_000]],
      contractor: ['label', CONTRACTORS],
      schemeLocation: ['label', SCHEME_LOCATIONS],
      reinstatement: ['pounds', [0, 50_000_000]],
      hasFlatRoof: ['boolean', []],
    },
  },
] as const satisfies readonly {
  name: string;
  run: (input: unknown) => unknown;
  valid: Record<string, unknown>;
  prefix?: string;
  fields: Record<string, readonly [Field, readonly unknown[]]>;
}[];

const MISSING = Symbol('missing');

const issuesOf = (run: (input: unknown) => unknown, input: unknown) => {
  try {
    run(input);
  } catch (error) {
    if (error instanceof PricingInputError) return error.issues;
    throw error;
  }
  return [];
};

describe.each(CASES)('$name', ({ run, valid, fields, ...rest }) => {
  const prefix = 'prefix' in rest ? rest.prefix : '';

  it('accepts its valid example', () => {
    expect(issuesOf(run, valid)).toEqual([]);
  });

  describe('properties', () => {
    it('should report exactly the bad, missing and unknown fields, every one of them', () => {
      const entries = Object.entries(fields) as [string, readonly [Field, readonly unknown[]]][];
      const corruptionArb = fc.record(
        Object.fromEntries(
          entries.map(([name, [kind, domain]]) => [
            name,
            fc.option(badValueArb(kind, domain), { freq: 2 }),
          ]),
        ),
      );
      fc.assert(
        fc.property(
          corruptionArb,
          fc.uniqueArray(unknownKeyArb, { maxLength: 2 }),
          (corruption, unknownKeys) => {
            const input: Record<string, unknown> = { ...valid };
            const expected = new Set<string>();
            for (const [name, bad] of Object.entries(corruption)) {
              if (bad === null) continue;
              if (bad === MISSING) delete input[name];
              else input[name] = bad;
              expected.add(`${prefix}${name}`);
            }
            for (const key of unknownKeys) {
              input[key] = 1;
              expected.add(`${prefix}${key}`);
            }
            const reported = issuesOf(run, input).map((issue) => issue.field);
            expect(new Set(reported)).toEqual(expected);
            expect(reported).toHaveLength(expected.size);
          },
        ),
        { numRuns: 300 },
      );
    });
  });
});

// Helpers

/** Field names no pricing function knows (typos of real ones included). */
const unknownKeyArb = fc.constantFrom(
  'sumInsurred',
  'Units',
  'gdvValue',
  'extra',
  'stage_',
  'term',
);

/** A value the field must refuse: wrong type, NaN/Infinity, pence, out of range, unknown label, or missing. */
function badValueArb(kind: Field, domain: readonly unknown[]): fc.Arbitrary<unknown> {
  const wrongType = fc.constantFrom<unknown>(
    null,
    [],
    {},
    'text',
    Number.NaN,
    Infinity,
    -Infinity,
    MISSING,
  );
  if (kind === 'boolean') return fc.oneof(wrongType, fc.constantFrom('true', 0, 1, 'no'));
  if (kind === 'label') {
    return fc.oneof(
      wrongType,
      fc.string({ maxLength: 12 }).filter((s) => !domain.includes(s)),
      fc.integer({ min: -50, max: 50 }).filter((n) => !domain.includes(n)),
      fc
        .constantFrom(...domain)
        .map((label) => (typeof label === 'string' ? label.toLowerCase() : String(label))),
    );
  }
  const [min, max] = domain as [number, number];
  return fc.oneof(
    wrongType,
    fc.integer({ min: -1_000_000_000, max: min - 1 }),
    fc.integer({ min: max + 1, max: 2_000_000_000 }),
    fc.double({ min, max, noNaN: true }).filter((n) => !Number.isInteger(n)),
    fc.constant(String(min)),
  );
}
