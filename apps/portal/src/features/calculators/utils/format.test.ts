import { describe, expect, it } from 'vitest';

import { formatCount, formatDecimal, formatFractionAsPercent, formatPercent } from './format';

describe('formatDecimal', () => {
  it('should write numbers as en-GB does', () => {
    expect(formatDecimal(1.18, 6)).toBe('1.18');
    expect(formatDecimal(0.85, 6)).toBe('0.85');
    expect(formatDecimal(1234567.5, 6)).toBe('1,234,567.5');
    expect(formatDecimal(1000, 3)).toBe('1,000');
    expect(formatDecimal(12, 3)).toBe('12');
    expect(formatDecimal(0, 6)).toBe('0');
    expect(formatDecimal(-2.5, 6)).toBe('-2.5');
    expect(formatDecimal(0.1234564, 6)).toBe('0.123456');
    expect(formatDecimal(0.8995, 3)).toBe('0.9');
    expect(formatDecimal(999.9995, 3)).toBe('1,000');
    expect(formatDecimal(1e-7, 6)).toBe('0');
    expect(formatDecimal(Number.NaN, 6)).toBe('NaN');
  });

  it('should agree with Intl.NumberFormat for rates, counts and amounts', () => {
    // A fixed pseudo-random sample (same every run) of the values the calculators show.
    let seed = 42;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (const maxFractionDigits of [3, 6]) {
      const intl = new Intl.NumberFormat('en-GB', { maximumFractionDigits: maxFractionDigits });
      for (let i = 0; i < 2_000; i += 1) {
        const scale = 10 ** Math.floor(next() * 8);
        const value = Math.round(next() * scale * 10_000) / 10_000;
        expect(formatDecimal(value, maxFractionDigits), String(value)).toBe(intl.format(value));
      }
    }
  });
});

describe('the calculators’ formats', () => {
  it('should show percentages and counts', () => {
    expect(formatPercent(1.18)).toBe('1.18%');
    expect(formatFractionAsPercent(0.0085)).toBe('0.85%');
    expect(formatCount(1, 'unit')).toBe('1 unit');
    expect(formatCount(24, 'month')).toBe('24 months');
    expect(formatCount(1500, 'unit')).toBe('1,500 units');
  });
});
