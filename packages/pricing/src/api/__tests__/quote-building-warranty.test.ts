import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PricingInputError } from '../../core/pricing-input-error';
import { BUILDING_WARRANTY_LIMITS } from '../../limits';
import { BUILD_TYPES, STAGES, type BuildType, type Stage } from '../../options';
import {
  bigIntBuildingWarrantyEstimate,
  referenceBuildingWarranty,
} from '../../__tests__/reference';
import { RATE_TABLE_VERSION } from '../rate-table-version';
import { quoteBuildingWarranty, type BuildingWarrantyInput } from '../quote-building-warranty';

const base: BuildingWarrantyInput = {
  buildType: 'New Build',
  stage: 'Not Started',
  units: 51, // units rate 0: the estimate shows the build cost band alone
  sumInsured: 1_000_000,
  gdv: 2_000_000,
};
const quote = (change: Partial<BuildingWarrantyInput>) =>
  quoteBuildingWarranty({ ...base, ...change });
const issuesOf = (input: unknown) => {
  try {
    quoteBuildingWarranty(input as BuildingWarrantyInput);
  } catch (error) {
    if (error instanceof PricingInputError) return error.issues;
    throw error;
  }
  throw new Error('expected a PricingInputError');
};

describe('quoteBuildingWarranty', () => {
  it('prices the worked example: 3 new-build units at £1,000,000 not started', () => {
    expect(
      quoteBuildingWarranty({
        buildType: 'New Build',
        stage: 'Not Started',
        units: 3,
        sumInsured: 1_000_000,
        gdv: 2_000_000,
      }),
    ).toEqual({
      rates: { buildCost: 1.13, buildType: 0, stage: 0, units: 0.05 },
      totalPercentage: 1.18,
      estimate: 11_800,
      rateTableVersion: RATE_TABLE_VERSION,
    });
  });

  it.each([
    [500_000, 1.13, 5_650],
    [4_999_999, 1.13, 56_499],
    [5_000_000, 1.03, 51_500],
    [19_999_999, 1.03, 205_999],
    [20_000_000, 0.93, 186_000],
    [24_999_999, 0.93, 232_499],
    [25_000_000, 0.83, 207_500],
    [50_000_000, 0.83, 415_000],
  ])('applies the band rate to the whole sum: £%i at %f%% is £%i', (sumInsured, rate, estimate) => {
    const result = quote({ sumInsured });
    expect(result.rates.buildCost).toBe(rate);
    expect(result.totalPercentage).toBe(rate);
    expect(result.estimate).toBe(estimate);
  });

  it.each([499_999, 50_000_001, 0, -500_000])('rejects a sum insured of %i', (sumInsured) => {
    expect(issuesOf({ ...base, sumInsured })).toEqual([
      {
        field: 'sumInsured',
        message: `Must be between £500,000 and £50,000,000 (got ${sumInsured}).`,
      },
    ]);
  });

  it.each([
    [1, 0.03],
    [2, 0.05],
    [5, 0.05],
    [6, 0.06],
    [10, 0.06],
    [11, 0.05],
    [50, 0.05],
    [51, 0],
    [250, 0],
  ])('uses the units rate of %i units: %f', (units, rate) => {
    const result = quote({ units, sumInsured: 10_000_000 });
    expect(result.rates.units).toBe(rate);
    expect(result.estimate).toBe(
      Number(referenceBuildingWarranty({ ...base, units, sumInsured: 10_000_000 }).estimate),
    );
  });

  it.each([0, 251])('rejects %i units', (units) => {
    expect(issuesOf({ ...base, units })).toEqual([
      { field: 'units', message: `Must be between 1 and 250 (got ${units}).` },
    ]);
  });

  it.each([
    ['New Build', 0],
    ['Conversion', 0.25],
  ] as const)('adds the %s build type rate %f', (buildType, rate) => {
    expect(quote({ buildType }).rates.buildType).toBe(rate);
  });

  it.each([
    ['Not Started', 0],
    ['Part Complete', 0.25],
    ['Completed', 0.5],
  ] as const)('adds the %s stage rate %f', (stage, rate) => {
    expect(quote({ stage }).rates.stage).toBe(rate);
  });

  it('adds all four rates: a completed conversion of 6 units at £5,000,000 is 1.84%', () => {
    const result = quote({
      buildType: 'Conversion',
      stage: 'Completed',
      units: 6,
      sumInsured: 5_000_000,
    });
    expect(String(result.totalPercentage)).toBe('1.84');
    expect(result.estimate).toBe(92_000);
  });

  it('prints the total as the tables write it: 0.93 + 0.03 is 0.96, not 0.9600000000000001', () => {
    const result = quote({ units: 1, sumInsured: 20_000_000 });
    expect(String(result.totalPercentage)).toBe('0.96');
    expect(result.estimate).toBe(192_000);
  });

  it('floors exactly where doubles fall a pound short: £750,000 at 1.16% is £8,700', () => {
    // 750000 * (1.13 + 0.03) / 100 in doubles is 8699.999…, which floors to 8699.
    const result = quote({ units: 1, sumInsured: 750_000 });
    expect(String(result.totalPercentage)).toBe('1.16');
    expect(result.estimate).toBe(8_700);
  });

  it('floors the fraction of a pound: £500,001 at 1.13% is £5,650', () => {
    expect(quote({ sumInsured: 500_001 }).estimate).toBe(5_650);
  });

  it('accepts GDV from £500,000 to £100,000,000 and rejects beyond', () => {
    expect(quote({ gdv: 500_000 }).estimate).toBe(quote({ gdv: 100_000_000 }).estimate);
    expect(issuesOf({ ...base, gdv: 499_999 })[0]?.field).toBe('gdv');
    expect(issuesOf({ ...base, gdv: 100_000_001 })[0]?.field).toBe('gdv');
  });

  it('reports every bad field at once', () => {
    expect(
      issuesOf({
        buildType: 'New build',
        stage: 'Done',
        units: 2.5,
        sumInsured: Number.NaN,
        gdv: Infinity,
      }),
    ).toEqual([
      {
        field: 'buildType',
        message: 'Must be one of "New Build", "Conversion" (got "New build").',
      },
      {
        field: 'stage',
        message: 'Must be one of "Not Started", "Part Complete", "Completed" (got "Done").',
      },
      { field: 'units', message: 'Must be a whole number (got 2.5).' },
      { field: 'sumInsured', message: 'Must be a finite number (got NaN).' },
      { field: 'gdv', message: 'Must be a finite number (got Infinity).' },
    ]);
  });

  it('reports missing fields, numbers given as text and pence', () => {
    expect(issuesOf({ buildType: 'New Build', units: '3', sumInsured: 1_000_000.5 })).toEqual([
      { field: 'stage', message: 'Is missing.' },
      { field: 'units', message: 'Must be a number (got "3").' },
      { field: 'sumInsured', message: 'Must be a whole number of pounds (got 1000000.5).' },
      { field: 'gdv', message: 'Is missing.' },
    ]);
  });

  it('reports an unknown field rather than ignoring it', () => {
    expect(issuesOf({ ...base, sumInsurred: 2_000_000 })).toEqual([
      {
        field: 'sumInsurred',
        message:
          'Is not a known field (expected "buildType", "stage", "units", "sumInsured", "gdv").',
      },
    ]);
  });

  it.each([null, undefined, 'New Build', 42, [base]])('rejects %j as input', (input) => {
    const issues = issuesOf(input);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.field).toBe('input');
  });

  it('says what went wrong in the error message too', () => {
    expect(() => quote({ units: 0 })).toThrow(
      'Invalid pricing input: units: Must be between 1 and 250 (got 0).',
    );
  });
});

describe('properties', () => {
  it('should equal the exact decimal.js reference on any valid input', () => {
    fc.assert(
      fc.property(buildingWarrantyInputArb, (input) => {
        const result = quoteBuildingWarranty(input);
        const expected = referenceBuildingWarranty(input);
        expect(String(result.estimate)).toBe(expected.estimate);
        expect(String(result.totalPercentage)).toBe(expected.totalPercentage);
        expect(Object.values(result.rates).map(String)).toEqual(Object.values(expected.rates));
      }),
      { numRuns: 2_000 },
    );
  });

  it('should equal the BigInt reference at every slider step of every option', () => {
    const { units, sumInsured } = BUILDING_WARRANTY_LIMITS;
    let checked = 0;
    const mismatches: string[] = [];
    for (const buildType of BUILD_TYPES)
      for (const stage of STAGES)
        for (let u = units.min; u <= units.max; u += units.step)
          for (let s = sumInsured.min; s <= sumInsured.max; s += sumInsured.step) {
            const estimate = quoteBuildingWarranty({
              buildType,
              stage,
              units: u,
              sumInsured: s,
              gdv: 500_000,
            }).estimate;
            if (BigInt(estimate) !== bigIntBuildingWarrantyEstimate(buildType, stage, u, s)) {
              mismatches.push(`${buildType}/${stage}/${u}/${s}`);
            }
            checked += 1;
          }
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(checked).toBe(2 * 3 * 250 * 991);
  });

  it('should accept every GDV step and never depend on the GDV', () => {
    const { gdv } = BUILDING_WARRANTY_LIMITS;
    const expected = quote({ gdv: gdv.min });
    for (let value = gdv.min; value <= gdv.max; value += gdv.step) {
      expect(quote({ gdv: value })).toEqual(expected);
    }
  });

  it('should never fall as the sum insured rises within a band', () => {
    fc.assert(
      fc.property(optionsArb, bandArb, fc.nat(), fc.nat(), (options, [from, to], a, b) => {
        const low = from + (Math.min(a, b) % (to - from + 1));
        const high = from + (Math.max(a, b) % (to - from + 1));
        fc.pre(low <= high);
        expect(quote({ ...options, sumInsured: low }).estimate).toBeLessThanOrEqual(
          quote({ ...options, sumInsured: high }).estimate,
        );
      }),
    );
  });

  it('should never fall as the stage advances, nor for a conversion over a new build', () => {
    // decisions.md §1: stage rates 0 < 0.25 < 0.5 and build type 0 < 0.25 of the same sum insured.
    fc.assert(
      fc.property(buildingWarrantyInputArb, (input) => {
        const byStage = STAGES.map((stage) => quoteBuildingWarranty({ ...input, stage }).estimate);
        byStage.slice(1).forEach((estimate, i) => {
          expect(estimate).toBeGreaterThanOrEqual(byStage[i] as number);
        });
        expect(
          quoteBuildingWarranty({ ...input, buildType: 'Conversion' }).estimate,
        ).toBeGreaterThanOrEqual(
          quoteBuildingWarranty({ ...input, buildType: 'New Build' }).estimate,
        );
      }),
    );
  });

  it('should fall at each band edge: the pound below the edge is dearer', () => {
    fc.assert(
      fc.property(
        optionsArb,
        fc.constantFrom(5_000_000, 20_000_000, 25_000_000),
        (options, edge) => {
          expect(quote({ ...options, sumInsured: edge - 1 }).estimate).toBeGreaterThan(
            quote({ ...options, sumInsured: edge }).estimate,
          );
        },
      ),
    );
  });

  it('should survive a JSON round trip unchanged', () => {
    fc.assert(
      fc.property(buildingWarrantyInputArb, (input) => {
        const result = quoteBuildingWarranty(input);
        expect(JSON.parse(JSON.stringify(result))).toEqual(result);
      }),
    );
  });

  it('should reject any sum insured outside the domain or not whole', () => {
    fc.assert(
      fc.property(badPoundsArb(BUILDING_WARRANTY_LIMITS.sumInsured), (sumInsured) => {
        expect(issuesOf({ ...base, sumInsured }).map((issue) => issue.field)).toEqual([
          'sumInsured',
        ]);
      }),
    );
  });
});

// Helpers

const buildTypeArb = fc.constantFrom<BuildType>(...BUILD_TYPES);
const stageArb = fc.constantFrom<Stage>(...STAGES);
const unitsArb = fc.integer({ min: 1, max: 250 });
const optionsArb = fc.record({ buildType: buildTypeArb, stage: stageArb, units: unitsArb });
const buildingWarrantyInputArb = fc.record({
  buildType: buildTypeArb,
  stage: stageArb,
  units: unitsArb,
  sumInsured: fc.oneof(
    fc.integer({ min: 500_000, max: 50_000_000 }),
    fc.constantFrom(
      500_000,
      4_999_999,
      5_000_000,
      19_999_999,
      20_000_000,
      24_999_999,
      25_000_000,
      50_000_000,
    ),
  ),
  gdv: fc.integer({ min: 500_000, max: 100_000_000 }),
});
/** [first, last] pound of a build cost band within the domain. */
const bandArb = fc.constantFrom<[number, number]>(
  [500_000, 4_999_999],
  [5_000_000, 19_999_999],
  [20_000_000, 24_999_999],
  [25_000_000, 50_000_000],
);
function badPoundsArb(limit: { min: number; max: number }) {
  return fc.oneof(
    fc.integer({ min: -1_000_000_000, max: limit.min - 1 }),
    fc.integer({ min: limit.max + 1, max: 1_000_000_000 }),
    fc.double({ min: limit.min, max: limit.max, noNaN: true }).filter((n) => !Number.isInteger(n)),
    fc.constantFrom(Number.NaN, Infinity, -Infinity),
  );
}
