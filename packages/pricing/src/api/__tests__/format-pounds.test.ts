import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PricingInputError } from '../../core/pricing-input-error';
import { formatPounds } from '../format-pounds';

describe('formatPounds', () => {
  it.each([
    [0, '£0'],
    [999, '£999'],
    [1_000, '£1,000'],
    [1_234_567, '£1,234,567'],
    [350_000_000, '£350,000,000'],
    [-2_500, '-£2,500'],
    [Number.MAX_SAFE_INTEGER, '£9,007,199,254,740,991'],
  ])('formats %i as %s', (n, text) => {
    expect(formatPounds(n)).toBe(text);
  });

  it.each([0.5, 1_234.56, Number.NaN, Infinity, 2 ** 53])(
    'refuses %d: money is whole pounds',
    (n) => {
      expect(() => formatPounds(n)).toThrow(PricingInputError);
    },
  );

  it.each([
    [2 ** 53, '9007199254740992'],
    [Number.MAX_SAFE_INTEGER + 2, '9007199254740992'],
    [1e21, '1e+21'],
    [-(2 ** 60), '-1152921504606847000'],
  ])('refuses %d as too large to be exact, not as a fraction', (n, got) => {
    expect(() => formatPounds(n)).toThrow(
      `amount: Must be between -£9,007,199,254,740,991 and £9,007,199,254,740,991 (got ${got}).`,
    );
  });

  it('formats -0 as £0', () => {
    expect(formatPounds(-0)).toBe('£0');
  });
});

describe('properties', () => {
  it('should print what Intl prints for en-GB pounds with no decimals', () => {
    const intl = new Intl.NumberFormat('en-GB', {
      style: 'currency',
      currency: 'GBP',
      maximumFractionDigits: 0,
      minimumFractionDigits: 0,
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000_000 }), (n) => {
        expect(formatPounds(n)).toBe(intl.format(n));
      }),
    );
  });

  it('should read back to the same number', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(Number(formatPounds(n).replace(/[£,]/g, ''))).toBe(n);
      }),
    );
  });
});
