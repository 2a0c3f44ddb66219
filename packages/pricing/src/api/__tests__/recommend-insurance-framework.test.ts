import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PricingInputError } from '../../core/pricing-input-error';
import {
  CONTRACTORS,
  DEVELOPMENT_TYPES,
  FRAMEWORK_PROPERTY_TYPES,
  GUIDE_TAGS,
  INSURANCES,
  SCHEME_LOCATIONS,
  type Contractor,
  type DevelopmentType,
  type FrameworkPropertyType,
  type InsuranceName,
  type SchemeLocation,
} from '../../options';
import { referenceFrameworkRows, referenceLimits } from '../../__tests__/reference';
import { RATE_TABLE_VERSION } from '../rate-table-version';
import {
  recommendInsuranceFramework,
  type FrameworkRow,
  type InsuranceFrameworkInput,
} from '../recommend-insurance-framework';

const base: InsuranceFrameworkInput = {
  propertyType: 'Residential',
  contractValue: 6_000_000,
  hasBasement: false,
  developmentType: 'New Build (Ground Up)',
  gdv: 9_000_000,
  contractor: 'Main contractor (JCT Standard Building Contract)',
  schemeLocation: 'Urban',
  reinstatement: 0,
  hasFlatRoof: false,
};
const recommend = (change: Partial<InsuranceFrameworkInput>) =>
  recommendInsuranceFramework({ ...base, ...change });
const row = (change: Partial<InsuranceFrameworkInput>, insurance: InsuranceName): FrameworkRow =>
  recommend(change).rows.find((candidate) => candidate.insurance === insurance) as FrameworkRow;
const issuesOf = (input: unknown) => {
  try {
    recommendInsuranceFramework(input as InsuranceFrameworkInput);
  } catch (error) {
    if (error instanceof PricingInputError) return error.issues;
    throw error;
  }
  throw new Error('expected a PricingInputError');
};

describe('recommendInsuranceFramework', () => {
  it('lists the 15 insurances in order with the limits and the rate-table version', () => {
    const result = recommend({});
    expect(result.rows.map((r) => r.insurance)).toEqual(INSURANCES);
    expect(result).toMatchObject({
      professionalIndemnity: 10_000_000,
      publicLiability: 10_000_000,
      employersLiability: 10_000_000,
      rateTableVersion: RATE_TABLE_VERSION,
    });
  });

  it.each([
    [500_000, 5_000_000, 2_000_000],
    [999_999, 5_000_000, 2_000_000],
    [1_000_000, 5_000_000, 5_000_000],
    [4_999_999, 5_000_000, 5_000_000],
    [5_000_000, 10_000_000, 10_000_000],
    [24_999_999, 10_000_000, 10_000_000],
    [25_000_000, 15_000_000, 10_000_000],
    [50_000_000, 15_000_000, 10_000_000],
  ])(
    'keys the limits on a contract value of £%i: PI £%i, PL £%i, EL £10m',
    (contractValue, pi, pl) => {
      const result = recommend({ contractValue });
      expect(result.professionalIndemnity).toBe(pi);
      expect(result.publicLiability).toBe(pl);
      expect(result.employersLiability).toBe(10_000_000);
      expect(row({ contractValue }, 'Professional indemnity').value).toBe(pi);
      expect(row({ contractValue }, 'Public liability').value).toBe(pl);
      expect(row({ contractValue }, 'Property owners liability').value).toBe(pl);
      expect(row({ contractValue }, 'Employers liability').value).toBe(10_000_000);
    },
  );

  it('1. requires contract works cover for the contract value, bought jointly or by a developer-contractor', () => {
    expect(row({}, 'Contractors all risks (contract works)')).toMatchObject({
      required: 'Required',
      value: 6_000_000,
      buyer: 'Either or Joint Policy',
    });
    expect(
      row({ contractor: 'Developer as contractor' }, 'Contractors all risks (contract works)')
        .buyer,
    ).toBe('Property Developer');
  });

  it.each([
    ['Conversion', 'Required', 2_000_000],
    ['Fit-Out', 'Required', 2_000_000],
    ['New Build (including exisiting structures on site)', 'Required', 2_000_000],
    ['New Build (Ground Up)', 'Not required', null],
  ] as const)('2. existing structures for %s: %s, value %j', (developmentType, required, value) => {
    expect(
      row({ developmentType, reinstatement: 2_000_000 }, 'Existing structures (JCT option C)'),
    ).toMatchObject({
      required,
      value,
      buyer: 'Property Developer',
    });
  });

  it('3. requires public liability, both parties buying', () => {
    expect(row({}, 'Public liability')).toMatchObject({
      required: 'Required',
      buyer: 'Both needed',
    });
  });

  it('4. requires employers liability of £10m from the contractor, or the developer-contractor', () => {
    expect(row({}, 'Employers liability')).toMatchObject({
      required: 'Required',
      value: 10_000_000,
      buyer: 'Contractor',
    });
    expect(row({ contractor: 'Developer as contractor' }, 'Employers liability').buyer).toBe(
      'Property Developer',
    );
  });

  it.each([
    ['Main contractor (JCT Design and Build)', 'Contractor'],
    ['Main contractor (JCT Standard Building Contract)', 'Both needed'],
    ['Developer as contractor', 'Both needed'],
    ['Construction management (trade contracts)', 'Both needed'],
  ] as const)('5. professional indemnity under %s is bought by: %s', (contractor, buyer) => {
    expect(row({ contractor }, 'Professional indemnity')).toMatchObject({
      required: 'Required',
      buyer,
    });
  });

  it.each([
    [true, 'Green', 'Required'],
    [true, 'City Centre', 'Required'],
    [false, 'City Centre', 'Recommended'],
    [false, 'Urban', 'Optional'],
    [false, 'Green', 'Optional'],
  ] as const)(
    '6. non-negligent liability with basement %s in %s: %s',
    (hasBasement, schemeLocation, required) => {
      expect(
        row({ hasBasement, schemeLocation }, 'Non-negligent liability (JCT 6.5.1)'),
      ).toMatchObject({
        required,
        buyer: 'Either or Joint Policy',
      });
    },
  );

  it.each([
    ['Residential', 'Conversion', 'Required'],
    ['Commercial- BTR', 'New Build (Ground Up)', 'Required'],
    ['Commercial- PBSA', 'New Build (Ground Up)', 'Required'],
    ['Commercial- Other', 'New Build (Ground Up)', 'Recommended'],
    ['Residential', 'Fit-Out', 'Not required'],
    ['Commercial- Other', 'Fit-Out', 'Not required'],
  ] as const)(
    '7. structural warranty for %s, %s: %s',
    (propertyType, developmentType, required) => {
      const result = row({ propertyType, developmentType }, 'Structural warranty / latent defects');
      expect(result).toMatchObject({ required, buyer: 'Property Developer' });
      expect(result.value).toBe(required === 'Not required' ? null : 6_000_000);
    },
  );

  it('7. notes the extra inspections for a basement or a flat roof', () => {
    const plain = row({}, 'Structural warranty / latent defects').notes;
    expect(plain).not.toMatch(/inspections of the waterproofing|membrane/);
    expect(row({ hasBasement: true }, 'Structural warranty / latent defects').notes).toMatch(
      /Basement: expect extra inspections/,
    );
    expect(row({ hasFlatRoof: true }, 'Structural warranty / latent defects').notes).toMatch(
      /Flat roof: expect extra inspections/,
    );
  });

  it.each([
    ['Commercial- BTR', 'Required'],
    ['Commercial- PBSA', 'Required'],
    ['Residential', 'Optional'],
    ['Commercial- Other', 'Optional'],
  ] as const)('8. delay in start-up for %s: %s', (propertyType, required) => {
    expect(row({ propertyType }, 'Delay in start-up / loss of rent')).toMatchObject({
      required,
      value: 'Anticipated rent for the indemnity period',
      buyer: 'Property Developer',
    });
  });

  it('9–10. property owners liability is required and title indemnity recommended, both for the developer', () => {
    expect(row({}, 'Property owners liability')).toMatchObject({
      required: 'Required',
      buyer: 'Property Developer',
    });
    expect(row({}, 'Title / legal indemnity')).toMatchObject({
      required: 'Recommended',
      buyer: 'Property Developer',
    });
  });

  it.each([
    ['City Centre', 'Recommended', 'Recommended'],
    ['Urban', 'Recommended', 'Optional'],
    ['Green', 'Optional', 'Optional'],
  ] as const)(
    '11–12. in %s: environmental %s, terrorism %s',
    (schemeLocation, environmental, terrorism) => {
      expect(row({ schemeLocation }, 'Environmental / contaminated land')).toMatchObject({
        required: environmental,
        buyer: 'Property Developer',
      });
      expect(row({ schemeLocation }, 'Terrorism')).toMatchObject({
        required: terrorism,
        buyer: 'Either or Joint Policy',
      });
    },
  );

  it('13. requires contractors plant from the contractor, or the developer-contractor', () => {
    expect(row({}, 'Contractors plant (owned and hired-in)')).toMatchObject({
      required: 'Required',
      buyer: 'Contractor',
    });
    expect(
      row({ contractor: 'Developer as contractor' }, 'Contractors plant (owned and hired-in)')
        .buyer,
    ).toBe('Property Developer');
  });

  it('14. recommends a performance bond of 10% of the contract value, floored to the pound', () => {
    expect(row({ contractValue: 6_000_000 }, 'Performance bond')).toMatchObject({
      required: 'Recommended',
      value: 600_000,
      buyer: 'Contractor',
    });
    expect(row({ contractValue: 1_234_567 }, 'Performance bond').value).toBe(123_456);
    const developer = row({ contractor: 'Developer as contractor' }, 'Performance bond');
    expect(developer.buyer).toBe('Not required');
    expect(developer.notes).toMatch(/no contractor to give a bond/);
  });

  it('15. requires completed buildings cover for the GDV, with hot-works conditions under a flat roof', () => {
    expect(row({ gdv: 9_000_000 }, 'Completed / unsold buildings')).toMatchObject({
      required: 'Required',
      value: 9_000_000,
      buyer: 'Property Developer',
    });
    expect(row({}, 'Completed / unsold buildings').notes).not.toMatch(/hot-works/);
    expect(row({ hasFlatRoof: true }, 'Completed / unsold buildings').notes).toMatch(
      /hot-works conditions/,
    );
  });

  it('accepts the domain edges: reinstatement 0 and every value at its maximum', () => {
    expect(() =>
      recommend({ reinstatement: 0, contractValue: 500_000, gdv: 500_000 }),
    ).not.toThrow();
    expect(() =>
      recommend({ reinstatement: 50_000_000, contractValue: 50_000_000, gdv: 50_000_000 }),
    ).not.toThrow();
  });

  it('reports every bad field at once', () => {
    expect(
      issuesOf({
        propertyType: 'Commercial - BTR',
        contractValue: 499_999,
        hasBasement: 'no',
        developmentType: 'New Build (including existing structures on site)',
        gdv: 50_000_001,
        contractor: 'Developer',
        schemeLocation: 'Rural',
        reinstatement: -1,
      }).map((issue) => issue.field),
    ).toEqual([
      'propertyType',
      'contractValue',
      'hasBasement',
      'developmentType',
      'gdv',
      'contractor',
      'schemeLocation',
      'reinstatement',
      'hasFlatRoof',
    ]);
  });
});

describe('properties', () => {
  it('should follow every decisions.md rule for requirement, value and buyer', () => {
    fc.assert(
      fc.property(frameworkInputArb, (input) => {
        const result = recommendInsuranceFramework(input);
        const expected = referenceFrameworkRows(input);
        result.rows.forEach((actual, i) => {
          const wanted = expected[i];
          expect({
            required: actual.required,
            value: typeof actual.value === 'string' ? 'text' : actual.value,
            buyer: actual.buyer,
          }).toEqual(wanted);
        });
        expect(result).toMatchObject(referenceLimits(input.contractValue));
      }),
      { numRuns: 2_000 },
    );
  });

  it('should give every row a known buyer, a why and notes of plain text', () => {
    fc.assert(
      fc.property(frameworkInputArb, (input) => {
        for (const r of recommendInsuranceFramework(input).rows) {
          expect([...GUIDE_TAGS, 'Not required']).toContain(r.buyer);
          expect(r.why.length).toBeGreaterThan(20);
          expect(r.notes.length).toBeGreaterThan(20);
          expect(r.notes).not.toMatch(/[<>]/);
        }
      }),
    );
  });

  it('should never lower a recommended limit as the contract value rises', () => {
    fc.assert(
      fc.property(frameworkInputArb, fc.integer({ min: 0, max: 49_500_000 }), (input, more) => {
        fc.pre(input.contractValue + more <= 50_000_000);
        const lower = recommendInsuranceFramework(input);
        const higher = recommendInsuranceFramework({
          ...input,
          contractValue: input.contractValue + more,
        });
        for (const limit of [
          'professionalIndemnity',
          'publicLiability',
          'employersLiability',
        ] as const) {
          expect(higher[limit]).toBeGreaterThanOrEqual(lower[limit]);
        }
      }),
    );
  });

  it('should survive a JSON round trip unchanged', () => {
    fc.assert(
      fc.property(frameworkInputArb, (input) => {
        const result = recommendInsuranceFramework(input);
        expect(JSON.parse(JSON.stringify(result))).toEqual(result);
      }),
    );
  });
});

// Helpers

const frameworkInputArb = fc.record({
  propertyType: fc.constantFrom<FrameworkPropertyType>(...FRAMEWORK_PROPERTY_TYPES),
  contractValue: fc.oneof(
    fc.integer({ min: 500_000, max: 50_000_000 }),
    fc.constantFrom(999_999, 1_000_000, 4_999_999, 5_000_000, 24_999_999, 25_000_000),
  ),
  hasBasement: fc.boolean(),
  developmentType: fc.constantFrom<DevelopmentType>(...DEVELOPMENT_TYPES),
  gdv: fc.integer({ min: 500_000, max: 50_000_000 }),
  contractor: fc.constantFrom<Contractor>(...CONTRACTORS),
  schemeLocation: fc.constantFrom<SchemeLocation>(...SCHEME_LOCATIONS),
  reinstatement: fc.integer({ min: 0, max: 50_000_000 }),
  hasFlatRoof: fc.boolean(),
});
