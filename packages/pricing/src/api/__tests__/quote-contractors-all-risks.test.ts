import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PricingInputError } from '../../core/pricing-input-error';
import { CAR_LIMITS } from '../../limits';
import { CAR_PROPERTY_TYPES, type CarPropertyType } from '../../options';
import { bigIntCarPremiums, referenceContractorsAllRisks } from '../../__tests__/reference';
import { RATE_TABLE_VERSION } from '../rate-table-version';
import { quoteContractorsAllRisks } from '../quote-contractors-all-risks';

const issuesOf = (input: unknown) => {
  try {
    quoteContractorsAllRisks(input as never);
  } catch (error) {
    if (error instanceof PricingInputError) return error.issues;
    throw error;
  }
  throw new Error('expected a PricingInputError');
};

describe('quoteContractorsAllRisks', () => {
  it.each([
    ['New Build Residential', [0.25, 0.3, 0.4], [2_500, 3_000, 4_000]],
    ['Residential Conversion', [0.3, 0.35, 0.4], [3_000, 3_500, 4_000]],
    ['New Build Commercial', [0.25, 0.3, 0.4], [2_500, 3_000, 4_000]],
    ['Commercial Conversion', [0.35, 0.4, 0.45], [3_500, 4_000, 4_500]],
  ] as const)('prices %s on £1,000,000 at %j', (propertyType, [low, medium, high], premiums) => {
    expect(quoteContractorsAllRisks({ propertyType, contractWorksValue: 1_000_000 })).toEqual({
      rates: { low, medium, high },
      low: premiums[0],
      medium: premiums[1],
      high: premiums[2],
      rateTableVersion: RATE_TABLE_VERSION,
    });
  });

  it('floors exactly where doubles fall a pound short: £700,000 at 0.35% is £2,450', () => {
    // 700000 * 0.35 / 100 in doubles is 2449.999…
    const result = quoteContractorsAllRisks({
      propertyType: 'Residential Conversion',
      contractWorksValue: 700_000,
    });
    expect(result.medium).toBe(2_450);
  });

  it('floors fractions of a pound: £500,001 at 0.25/0.3/0.4%', () => {
    const result = quoteContractorsAllRisks({
      propertyType: 'New Build Residential',
      contractWorksValue: 500_001,
    });
    expect([result.low, result.medium, result.high]).toEqual([1_250, 1_500, 2_000]);
  });

  it('prices the domain edges and rejects beyond them', () => {
    const propertyType = 'Commercial Conversion';
    expect(quoteContractorsAllRisks({ propertyType, contractWorksValue: 500_000 }).high).toBe(
      2_250,
    );
    expect(quoteContractorsAllRisks({ propertyType, contractWorksValue: 50_000_000 }).high).toBe(
      225_000,
    );
    expect(issuesOf({ propertyType, contractWorksValue: 499_999 })).toEqual([
      {
        field: 'contractWorksValue',
        message: 'Must be between £500,000 and £50,000,000 (got 499999).',
      },
    ]);
    expect(issuesOf({ propertyType, contractWorksValue: 50_000_001 })[0]?.field).toBe(
      'contractWorksValue',
    );
  });

  it('reports every bad field', () => {
    expect(
      issuesOf({ propertyType: 'New Build', contractWorksValue: 1e6 + 0.01, timber: true }),
    ).toEqual([
      {
        field: 'timber',
        message: 'Is not a known field (expected "propertyType", "contractWorksValue").',
      },
      {
        field: 'propertyType',
        message:
          'Must be one of "New Build Residential", "Residential Conversion", "New Build Commercial", "Commercial Conversion" (got "New Build").',
      },
      {
        field: 'contractWorksValue',
        message: 'Must be a whole number of pounds (got 1000000.01).',
      },
    ]);
  });
});

describe('properties', () => {
  it('should equal the exact decimal.js reference on any valid input', () => {
    fc.assert(
      fc.property(carInputArb, (input) => {
        const result = quoteContractorsAllRisks(input);
        const expected = referenceContractorsAllRisks(input);
        expect([result.rates.low, result.rates.medium, result.rates.high].map(String)).toEqual(
          expected.rates,
        );
        expect([result.low, result.medium, result.high].map(String)).toEqual(expected.premiums);
      }),
      { numRuns: 2_000 },
    );
  });

  it('should equal the BigInt reference at every slider step of every property type', () => {
    const { contractWorksValue: limit } = CAR_LIMITS;
    const mismatches: string[] = [];
    for (const propertyType of CAR_PROPERTY_TYPES)
      for (let value = limit.min; value <= limit.max; value += limit.step) {
        const result = quoteContractorsAllRisks({ propertyType, contractWorksValue: value });
        const expected = bigIntCarPremiums(propertyType, value);
        if (
          [result.low, result.medium, result.high].some(
            (premium, i) => BigInt(premium) !== expected[i],
          )
        ) {
          mismatches.push(`${propertyType}/${value}`);
        }
      }
    expect(mismatches).toEqual([]);
  });

  it('should keep low ≤ medium ≤ high', () => {
    fc.assert(
      fc.property(carInputArb, (input) => {
        const result = quoteContractorsAllRisks(input);
        expect(result.rates.low).toBeLessThanOrEqual(result.rates.medium);
        expect(result.rates.medium).toBeLessThanOrEqual(result.rates.high);
        expect(result.low).toBeLessThanOrEqual(result.medium);
        expect(result.medium).toBeLessThanOrEqual(result.high);
      }),
    );
  });

  it('should never fall as the contract works value rises', () => {
    fc.assert(
      fc.property(carInputArb, fc.integer({ min: 0, max: 1_000_000 }), (input, more) => {
        fc.pre(input.contractWorksValue + more <= CAR_LIMITS.contractWorksValue.max);
        const higher = quoteContractorsAllRisks({
          ...input,
          contractWorksValue: input.contractWorksValue + more,
        });
        const lower = quoteContractorsAllRisks(input);
        expect(higher.low).toBeGreaterThanOrEqual(lower.low);
        expect(higher.high).toBeGreaterThanOrEqual(lower.high);
      }),
    );
  });

  it('should survive a JSON round trip unchanged', () => {
    fc.assert(
      fc.property(carInputArb, (input) => {
        const result = quoteContractorsAllRisks(input);
        expect(JSON.parse(JSON.stringify(result))).toEqual(result);
      }),
    );
  });
});

// Helpers

const carInputArb = fc.record({
  propertyType: fc.constantFrom<CarPropertyType>(...CAR_PROPERTY_TYPES),
  contractWorksValue: fc.integer({ min: 500_000, max: 50_000_000 }),
});
