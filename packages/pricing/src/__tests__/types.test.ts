/**
 * Type-level tests: `pnpm typecheck` fails if a `@ts-expect-error` below stops being an error, so
 * the public types really refuse unknown labels and wrong shapes. The runtime half checks that the
 * same mistakes, made from untyped code, are refused too.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  PricingInputError,
  quoteBtrWarranty,
  quoteBuildingWarranty,
  quoteContractorsAllRisks,
  recommendInsuranceFramework,
  type BuildType,
  type FrameworkRow,
  type GuideTag,
  type Stage,
} from '../index';

describe('types', () => {
  it('refuses an unknown building warranty label at compile time and at run time', () => {
    expect(() =>
      quoteBuildingWarranty({
        // @ts-expect-error 'New build' is not a BuildType (the firm writes 'New Build')
        buildType: 'New build',
        stage: 'Not Started',
        units: 1,
        sumInsured: 500_000,
        gdv: 500_000,
      }),
    ).toThrow(PricingInputError);
  });

  it('refuses a BTR term other than 12, 24 or 36 months', () => {
    expect(() =>
      quoteBtrWarranty({
        stage: 'Completed',
        units: 50,
        sumInsured: 8_000_000,
        gdv: 20_000_000,
        // @ts-expect-error 18 is not a BtrTermMonths
        lossOfRent: { anticipatedRentalIncome: 1_000_000, termMonths: 18, programmeMonths: 0 },
      }),
    ).toThrow(PricingInputError);
  });

  it('refuses a missing field and a number given as text', () => {
    const missing = () =>
      // @ts-expect-error contractWorksValue is missing
      quoteContractorsAllRisks({ propertyType: 'New Build Commercial' });
    const text = () =>
      quoteContractorsAllRisks({
        propertyType: 'New Build Commercial',
        // @ts-expect-error contractWorksValue must be a number
        contractWorksValue: '500000',
      });
    expect(missing).toThrow(PricingInputError);
    expect(text).toThrow(PricingInputError);
  });

  it('refuses an unknown field at compile time and at run time', () => {
    expect(() =>
      quoteContractorsAllRisks({
        propertyType: 'New Build Commercial',
        contractWorksValue: 500_000,
        // @ts-expect-error timberFrame is not an input
        timberFrame: true,
      }),
    ).toThrow(PricingInputError);
  });

  it('types the results: numbers, option unions and a nullable term rate', () => {
    const quote = quoteBuildingWarranty({
      buildType: 'New Build',
      stage: 'Completed',
      units: 1,
      sumInsured: 500_000,
      gdv: 500_000,
    });
    expectTypeOf(quote.estimate).toEqualTypeOf<number>();
    expectTypeOf(quote.rates.buildCost).toEqualTypeOf<number>();
    expectTypeOf<BuildType>().toEqualTypeOf<'New Build' | 'Conversion'>();
    expectTypeOf<Stage>().toEqualTypeOf<'Not Started' | 'Part Complete' | 'Completed'>();
    expectTypeOf(
      quoteBtrWarranty({ stage: 'Completed', units: 50, sumInsured: 8_000_000, gdv: 20_000_000 })
        .rates.lossOfRentTerm,
    ).toEqualTypeOf<number | null>();
    expectTypeOf<FrameworkRow['value']>().toEqualTypeOf<number | string | null>();
    expectTypeOf<FrameworkRow['buyer']>().toEqualTypeOf<GuideTag | 'Not required'>();
    expectTypeOf(recommendInsuranceFramework).returns.toHaveProperty('rows');
    expect(quote.estimate).toBe(8_300); // 1.13 + 0.5 + 0.03 = 1.66%
  });
});
