import fc from 'fast-check';
import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { floorDiv, RATE_SCALE, scaledToNumber, scaledToString, toScaled } from '../decimal';

const D = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_FLOOR });

describe('toScaled', () => {
  it.each([
    ['0', 0],
    ['1.13', 11_300],
    ['0.0085', 85],
    ['0.5', 5_000],
    ['12', 120_000],
    ['10', 100_000],
  ])('reads %s as %i ten-thousandths', (rate, scaled) => {
    expect(toScaled(rate)).toBe(scaled);
  });

  it.each(['', '1.', '.5', '-1', '1e3', '0.00001', '1,13', ' 1'])(
    'refuses the table entry %j',
    (rate) => {
      expect(() => toScaled(rate)).toThrow(/Rate table entry/);
    },
  );
});

describe('scaledToString and scaledToNumber', () => {
  it('print 0.85 + 0.51 as 1.36, where doubles print 1.3599999999999999', () => {
    expect(String(0.85 + 0.51)).toBe('1.3599999999999999');
    expect(scaledToString(toScaled('0.85') + toScaled('0.51'))).toBe('1.36');
    expect(String(scaledToNumber(toScaled('0.85') + toScaled('0.51')))).toBe('1.36');
  });

  it.each([
    [0, '0'],
    [85, '0.0085'],
    [5_000, '0.5'],
    [120_000, '12'],
    [19_400, '1.94'],
  ])('renders %i as %s', (scaled, text) => {
    expect(scaledToString(scaled)).toBe(text);
  });
});

describe('floorDiv', () => {
  it('gives 500,000 × 2.01 / 100 = 10,050 exactly, where doubles give 10,049.999…', () => {
    expect(Math.floor((500_000 * 2.01) / 100)).toBe(10_049);
    expect(floorDiv(500_000 * toScaled('2.01'), 100 * RATE_SCALE)).toBe(10_050);
  });

  it('floors a remainder: 1,004,999,999 / 100 = 10,049,999', () => {
    expect(floorDiv(1_004_999_999, 100)).toBe(10_049_999);
  });
});

describe('properties', () => {
  it('should round-trip any rate string with up to 4 decimal places', () => {
    fc.assert(
      fc.property(rateStringArb, (rate) => {
        expect(scaledToString(toScaled(rate))).toBe(new D(rate).toString());
      }),
    );
  });

  it('should turn any scaled rate into the double nearest its decimal', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (scaled) => {
        expect(scaledToNumber(scaled)).toBe(new D(scaled).div(RATE_SCALE).toNumber());
      }),
    );
  });

  it('should equal the exact floor of a quotient for every safe dividend up to 2^53', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (a, b) => {
          expect(BigInt(floorDiv(Number(a), b))).toBe(a / BigInt(b));
        },
      ),
    );
  });
});

// Helpers

const rateStringArb = fc
  .tuple(
    fc.integer({ min: 0, max: 99 }),
    fc.integer({ min: 0, max: 9_999 }),
    fc.integer({ min: 0, max: 4 }),
  )
  .map(([whole, fraction, places]) =>
    places === 0 ? String(whole) : `${whole}.${String(fraction).padStart(4, '0').slice(0, places)}`,
  );
