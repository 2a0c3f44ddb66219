/**
 * Hostile callers of the public API: code that mutates the exported tables, inputs whose getters
 * answer differently on each read, inherited fields beside a typo, arrays carrying the fields, -0
 * and functions that throw when turned into text. Each must end in an exact result or a
 * PricingInputError, never a raw TypeError, a NaN or a silently wrong price.
 */
import { describe, expect, it } from 'vitest';
import {
  BTR_LIMITS,
  BTR_TERMS,
  BUILDING_WARRANTY_LIMITS,
  CAR_ASSUMPTIONS,
  CAR_LIMITS,
  FRAMEWORK_LIMITS,
  GUIDE_STAGES,
  INSURANCES,
  PricingInputError,
  STAGES,
  insuranceGuide,
  quoteBtrWarranty,
  quoteBuildingWarranty,
  quoteContractorsAllRisks,
  recommendInsuranceFramework,
} from '../index';
import { BTR, BUILDING_WARRANTY, CAR, FRAMEWORK } from './support';

/** `base` with `field` replaced by a getter answering `answers` in turn (the last one after that). */
function shifting(base: object, field: string, answers: readonly unknown[]): object {
  const input: Record<string, unknown> = { ...base };
  delete input[field];
  let reads = 0;
  return Object.defineProperty(input, field, {
    enumerable: true,
    get: () => answers[Math.min(reads++, answers.length - 1)],
  });
}

/** The fields of a PricingInputError thrown by `run`. */
function issueFields(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof PricingInputError) return error.issues.map((issue) => issue.field);
    throw error;
  }
  throw new Error('expected a PricingInputError');
}

describe('the exported tables', () => {
  const tables = {
    BUILDING_WARRANTY_LIMITS,
    BTR_LIMITS,
    CAR_LIMITS,
    FRAMEWORK_LIMITS,
    STAGES,
    BTR_TERMS,
    INSURANCES,
    GUIDE_STAGES,
    CAR_ASSUMPTIONS,
    insuranceGuide,
  };

  it.each(Object.entries(tables))('%s is frozen all the way down', (_, table) => {
    const check = (value: unknown): void => {
      if (typeof value !== 'object' || value === null) return;
      expect(Object.isFrozen(value)).toBe(true);
      for (const child of Object.values(value)) check(child);
    };
    check(table);
  });

  it('cannot be changed by a caller, so pricing keeps its limits and labels', () => {
    const units = BUILDING_WARRANTY_LIMITS.units as { max: number };
    expect(() => {
      units.max = 100_000;
    }).toThrow(TypeError);
    expect(() => (STAGES as unknown as string[]).push('Bogus')).toThrow(TypeError);
    expect(() => (BTR_TERMS as unknown as number[]).push(48)).toThrow(TypeError);
    expect(
      issueFields(() => quoteBuildingWarranty({ ...BUILDING_WARRANTY, units: 1_000 })),
    ).toEqual(['units']);
    expect(
      issueFields(() => quoteBuildingWarranty({ ...BUILDING_WARRANTY, stage: 'Bogus' } as never)),
    ).toEqual(['stage']);
    expect(quoteBuildingWarranty(BUILDING_WARRANTY).estimate).toBe(11_800);
  });
});

describe('an input read twice', () => {
  it('prices the value that was validated, whatever a getter answers on a later read', () => {
    // The first answer fails the fast path, the second passes validation, the third is hostile.
    expect(
      quoteBuildingWarranty(
        shifting(BUILDING_WARRANTY, 'units', [0, 3, 100_000]) as typeof BUILDING_WARRANTY,
      ).estimate,
    ).toBe(11_800);
    expect(
      quoteBuildingWarranty(
        shifting(BUILDING_WARRANTY, 'sumInsured', [0, 1_000_000, 1e300]) as never,
      ).estimate,
    ).toBe(11_800);
    expect(
      quoteContractorsAllRisks(shifting(CAR, 'propertyType', [0, CAR.propertyType, 'x']) as never)
        .high,
    ).toBe(4_500);
    expect(
      quoteContractorsAllRisks(shifting(CAR, 'contractWorksValue', [0, 1_000_000, NaN]) as never)
        .high,
    ).toBe(4_500);
    expect(quoteBtrWarranty(shifting(BTR, 'sumInsured', [0, 12_000_000, 'x']) as never).total).toBe(
      206_976,
    );
    const framework = recommendInsuranceFramework(
      shifting(FRAMEWORK, 'reinstatement', [2_000_000, -5e20]) as never,
    );
    expect(framework.rows[1]?.value).toBe(2_000_000);
    expect(
      recommendInsuranceFramework(
        shifting(FRAMEWORK, 'contractValue', [6_000_000, 'lots']) as never,
      ).rows[0]?.value,
    ).toBe(6_000_000);
  });
});

describe('fields that are not plain own properties', () => {
  it('reports a typo even when the field it stands for is inherited', () => {
    const building = Object.assign(Object.create({ gdv: 2_000_000 }) as object, {
      buildType: 'New Build',
      stage: 'Not Started',
      units: 3,
      sumInsured: 1_000_000,
      sumInsurred: 50_000_000,
    });
    expect(issueFields(() => quoteBuildingWarranty(building as never))).toEqual(['sumInsurred']);
    const car = Object.assign(Object.create({ contractWorksValue: 1_000_000 }) as object, {
      propertyType: 'Commercial Conversion',
      contractWorkValue: 50_000_000,
    });
    expect(issueFields(() => quoteContractorsAllRisks(car as never))).toEqual([
      'contractWorkValue',
    ]);
    const btr = Object.assign(Object.create({ gdv: 30_000_000 }) as object, {
      stage: 'Part Complete',
      units: 120,
      sumInsured: 12_000_000,
      lossOfRent: BTR.lossOfRent,
      sumInsurred: 50_000_000,
    });
    expect(issueFields(() => quoteBtrWarranty(btr as never))).toEqual(['sumInsurred']);
    const lossOfRent = Object.assign(Object.create({ termMonths: 24 }) as object, {
      anticipatedRentalIncome: 1_500_000,
      programmeMonths: 12,
      termMonth: 36,
    });
    expect(issueFields(() => quoteBtrWarranty({ ...BTR, lossOfRent } as never))).toEqual([
      'lossOfRent.termMonth',
    ]);
  });

  it('refuses an array carrying the fields, as the collecting validation does', () => {
    expect(
      issueFields(() => quoteBuildingWarranty(Object.assign([], BUILDING_WARRANTY) as never)),
    ).toEqual(['input']);
    expect(issueFields(() => quoteContractorsAllRisks(Object.assign([], CAR) as never))).toEqual([
      'input',
    ]);
  });
});

describe('odd values', () => {
  it('never returns -0: a reinstatement of -0 is the value 0', () => {
    const row = recommendInsuranceFramework({ ...FRAMEWORK, reinstatement: -0 }).rows[1];
    expect(row?.required).toBe('Required');
    expect(Object.is(row?.value, 0)).toBe(true);
  });

  it('describes a function without running its toString or Symbol.toPrimitive', () => {
    const hostile = Object.assign(() => 1, {
      [Symbol.toPrimitive]: () => {
        throw new Error('boom');
      },
      toString: () => {
        throw new Error('boom');
      },
    });
    expect(() => quoteBuildingWarranty({ ...BUILDING_WARRANTY, units: hostile } as never)).toThrow(
      'units: Must be a number (got a function).',
    );
    expect(() => quoteContractorsAllRisks(hostile as never)).toThrow(
      'input: Must be an object of quote inputs (got a function).',
    );
  });
});
