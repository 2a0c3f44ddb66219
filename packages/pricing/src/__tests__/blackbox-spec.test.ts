/**
 * Faults a black-box review of the pricing rules found (an actuary's check of every slider step,
 * band edge and floor against an independent reading of decisions.md §1, through the library, the
 * CLI and the API). The figures all agreed; what did not was the quote functions' fast path, which
 * decided "no unknown field" by counting enumerable own keys. A known field that is not one (a
 * non-enumerable own property, or a field a Proxy serves without listing it) left room in the
 * count for a misspelt field, which was then dropped without a word, although the collecting
 * validation refuses it. Each property states the rule for any input, whatever path prices it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PricingInputError,
  quoteBtrWarranty,
  quoteBuildingWarranty,
  quoteContractorsAllRisks,
} from '../index';
import { BTR, BUILDING_WARRANTY, CAR, LOSS_OF_RENT } from './support';

type Quote = (input: unknown) => unknown;

/** The quote functions with a fast path, each with one valid input. */
const FUNCTIONS = [
  ['quoteBuildingWarranty', quoteBuildingWarranty as Quote, BUILDING_WARRANTY],
  [
    'quoteBtrWarranty (lossOfRent undefined)',
    quoteBtrWarranty as Quote,
    { ...BTR, lossOfRent: undefined },
  ],
  ['quoteBtrWarranty (with loss of rent)', quoteBtrWarranty as Quote, BTR],
  ['quoteContractorsAllRisks', quoteContractorsAllRisks as Quote, CAR],
] as const;

/** The priced result, or the issues of the PricingInputError (anything else fails the test). */
function outcome(run: () => unknown): unknown {
  try {
    return { result: run() };
  } catch (error) {
    if (error instanceof PricingInputError) return { issues: error.issues };
    throw error;
  }
}

/** A class instance takes the collecting validation, never the fast path: the rule to match. */
class Carrier {}

/**
 * A copy of `base` (a plain object, or a Carrier) whose `hidden` fields are own but not
 * enumerable, plus an enumerable `typo` field.
 */
function disguise(
  base: Readonly<Record<string, unknown>>,
  hidden: readonly string[],
  typo: string,
  asCarrier: boolean,
): Record<string, unknown> {
  const copy: Record<string, unknown> = asCarrier ? (new Carrier() as Record<string, unknown>) : {};
  for (const [key, value] of Object.entries(base)) {
    Object.defineProperty(copy, key, {
      value,
      enumerable: !hidden.includes(key),
      writable: true,
      configurable: true,
    });
  }
  Object.defineProperty(copy, typo, { value: 1, enumerable: true, writable: true });
  return copy;
}

/** A name that is not one of the function's fields (so it must be refused as unknown). */
const typoOf = (known: readonly string[]): fc.Arbitrary<string> =>
  fc
    .oneof(
      fc.string({ minLength: 1, maxLength: 20 }),
      fc.constantFrom('sumInsurred', 'gdvv', 'contractWorkValue', 'termMonth', '__proto__'),
    )
    .filter((name) => !known.includes(name));

describe('a misspelt field is never dropped, whatever form the known fields take', () => {
  it.each(FUNCTIONS)(
    '%s refuses the typo beside non-enumerable known fields, as the collecting validation does (property)',
    (_, quote, base) => {
      const known = Object.keys(base);
      fc.assert(
        fc.property(fc.subarray(known, { minLength: 1 }), typoOf(known), (hidden, typo) => {
          const plain = outcome(() => quote(disguise(base, hidden, typo, false)));
          // Same fields on a class instance: the collecting path, which names the typo.
          expect(plain).toEqual(outcome(() => quote(disguise(base, hidden, typo, true))));
          expect(plain).toHaveProperty('issues');
        }),
        { numRuns: 200 },
      );
    },
  );

  it('quoteBtrWarranty refuses a typo inside lossOfRent beside a non-enumerable field (property)', () => {
    const known = Object.keys(LOSS_OF_RENT);
    fc.assert(
      fc.property(fc.subarray(known, { minLength: 1 }), typoOf(known), (hidden, typo) => {
        const plain = outcome(() =>
          quoteBtrWarranty({
            ...BTR,
            lossOfRent: disguise(LOSS_OF_RENT, hidden, typo, false),
          } as never),
        );
        const collecting = outcome(() =>
          quoteBtrWarranty({
            ...BTR,
            lossOfRent: disguise(LOSS_OF_RENT, hidden, typo, true),
          } as never),
        );
        expect(plain).toEqual(collecting);
        expect(plain).toHaveProperty('issues');
      }),
      { numRuns: 200 },
    );
  });

  it.each(FUNCTIONS)(
    '%s refuses the typo when a Proxy serves a known field it does not list (property)',
    (_, quote, base) => {
      const known = Object.keys(base);
      fc.assert(
        fc.property(fc.subarray(known, { minLength: 1 }), typoOf(known), (served, typo) => {
          const listed: Record<string, unknown> = {};
          for (const [key, value] of Object.entries(base)) {
            if (!served.includes(key)) listed[key] = value;
          }
          Object.defineProperty(listed, typo, { value: 1, enumerable: true });
          const input = new Proxy(listed, {
            get: (target, key, receiver) =>
              typeof key === 'string' && served.includes(key)
                ? (base as Record<string, unknown>)[key]
                : (Reflect.get(target, key, receiver) as unknown),
          });
          expect(outcome(() => quote(input))).toHaveProperty('issues');
        }),
        { numRuns: 200 },
      );
    },
  );

  it('names the typo in the examples an actuary would write', () => {
    const sumInsured = Object.defineProperty(
      { buildType: 'New Build', stage: 'Not Started', units: 3, gdv: 2_000_000 },
      'sumInsured',
      { value: 1_000_000, enumerable: false },
    );
    const building = Object.assign(sumInsured, { sumInsurred: 50_000_000 });
    expect(outcome(() => quoteBuildingWarranty(building as never))).toEqual({
      issues: [
        {
          field: 'sumInsurred',
          message:
            'Is not a known field (expected "buildType", "stage", "units", "sumInsured", "gdv").',
        },
      ],
    });
    const btr = Object.defineProperty(
      { stage: 'Completed', units: 120, sumInsured: 12_000_000, gdv: 30_000_000, sumInsurred: 1 },
      'lossOfRent',
      { value: undefined, enumerable: false },
    );
    expect(outcome(() => quoteBtrWarranty(btr as never))).toEqual({
      issues: [
        {
          field: 'sumInsurred',
          message:
            'Is not a known field (expected "stage", "units", "sumInsured", "gdv", "lossOfRent").',
        },
      ],
    });
    const car = Object.defineProperty(
      { propertyType: 'Commercial Conversion', contractWorkValue: 50_000_000 },
      'contractWorksValue',
      { value: 1_000_000, enumerable: false },
    );
    expect(outcome(() => quoteContractorsAllRisks(car as never))).toEqual({
      issues: [
        {
          field: 'contractWorkValue',
          message: 'Is not a known field (expected "propertyType", "contractWorksValue").',
        },
      ],
    });
  });
});
